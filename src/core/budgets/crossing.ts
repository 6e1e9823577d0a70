// Whether a budget's warning or limit was crossed in its current period and not told yet. Each
// level is told once per period: a new day or month starts with nothing told, and so does a
// changed limit or warning share (what was told was about another budget). A level that spending
// (or a raised limit) falls back below may be told again when it is crossed again.
import { budgetCrossing, type BudgetLevel } from '../../shared/cost'
import { budgetLevel, type Budget } from '../../shared/budgets'
import type { ToldCrossing } from '../settings/state-document'

export type { ToldCrossing }

export interface CrossingCheck {
  /** The level to tell now, or null. */
  crossed: BudgetLevel | null
  /** What to remember (null: nothing told in this period). */
  told: ToldCrossing | null
}

export function checkCrossing(budget: Budget, periodKey: string, spentUsd: number, previous: ToldCrossing | null): CrossingCheck {
  const applies = previous !== null && previous.periodKey === periodKey && previous.limitUsd === budget.limitUsd && previous.warnRatio === budget.warnRatio
  const state = budgetLevel(spentUsd, budget)
  const { crossed, notified } = budgetCrossing(applies ? previous.level : null, state)
  return {
    crossed,
    told: notified === null ? null : { periodKey, level: notified, limitUsd: budget.limitUsd, warnRatio: budget.warnRatio }
  }
}
