// Where each budget stands now: spending from usage records where known, else shared/cost-period's estimate.
import { type Budget, budgetLevel, budgetPeriodKey, type BudgetStatus } from '../../shared/budgets'
import { roundUsd, type TzOffset, type UsagesByTask } from '../../shared/cost'
import { projectedSpend } from './pace'
import type { SpendBook } from './spend-book'

export interface BudgetScopeInput {
  connectionId: string
  budgets: readonly Budget[]
  /** The connection's watched project ids: an account budget adds them up. */
  projectIds: readonly string[]
  book: SpendBook
  usagesByTask?: UsagesByTask
  now: number
  tz: TzOffset
}

export function evaluateBudgets(input: BudgetScopeInput): BudgetStatus[] {
  const { book, now, tz, usagesByTask } = input
  const rates = new Map(input.projectIds.map((id) => [id, book.projectRate(id, now, usagesByTask)]))
  const out: BudgetStatus[] = []
  for (const budget of input.budgets) {
    const key = budgetPeriodKey(now, tz, budget.period)
    if (key === null) continue
    const scope =
      budget.projectId === null ? input.projectIds : input.projectIds.filter((id) => id === budget.projectId)
    let spent = 0
    let estimated = 0
    let rate = 0
    for (const projectId of scope) {
      const share = book.spent(projectId, budget.period, key, tz, usagesByTask)
      spent += share.costUsd
      estimated += share.estimatedUsd
      rate += rates.get(projectId) ?? 0
    }
    const spentUsd = roundUsd(spent)
    out.push({
      connectionId: input.connectionId,
      budget,
      periodKey: key,
      spentUsd,
      estimatedUsd: roundUsd(estimated),
      state: budgetLevel(spentUsd, budget),
      burnUsdPerHour: roundUsd(rate),
      projectedUsd: projectedSpend(spentUsd, rate, now, tz, budget.period)
    })
  }
  return out
}
