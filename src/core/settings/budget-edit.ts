// A project budget needs the project watched on its connection; one budget per scope and period, so saving
// into a taken slot replaces that budget and keeps its id.
import { type Budget, budgetListProblem, budgetProblems, DEFAULT_WARN_RATIO, sameSlot } from '../../shared/budgets'
import type { BudgetInput } from '../../shared/ipc'
import type { Settings } from '../../shared/settings'
import { requireConnection, SettingsEditError } from './edit'

export type { BudgetInput }

/** Adds or replaces a budget; returns it as saved. `newId` names a new one. */
export function saveBudget(draft: Settings, connectionId: string, input: BudgetInput, newId: () => string): Budget {
  requireConnection(draft, connectionId)
  const problems = Object.values(budgetProblems(input))
  if (problems.length > 0) throw new SettingsEditError(problems.join(' '))
  if (input.projectId !== null && !(draft.watched[connectionId] ?? []).some((w) => w.projectId === input.projectId)) {
    throw new SettingsEditError(`Project ${input.projectId} is not watched on this account.`)
  }
  const list = draft.budgets[connectionId] ?? []
  const existing =
    (input.id !== undefined ? list.find((b) => b.id === input.id) : undefined) ?? list.find((b) => sameSlot(b, input))
  const budget: Budget = {
    id: existing?.id ?? input.id ?? newId(),
    projectId: input.projectId,
    period: input.period,
    limitUsd: input.limitUsd,
    warnRatio: input.warnRatio
  }
  const next = [...list.filter((b) => b.id !== budget.id), budget]
  const problem = budgetListProblem(next)
  if (problem !== null) throw new SettingsEditError(problem)
  draft.budgets[connectionId] = next
  return budget
}

/** Returns whether it existed. */
export function removeBudget(draft: Settings, connectionId: string, budgetId: string): boolean {
  const list = draft.budgets[connectionId] ?? []
  const kept = list.filter((b) => b.id !== budgetId)
  draft.budgets[connectionId] = kept
  return kept.length < list.length
}

/** A project's total budget as one amount (the older "budget" of a project): null removes it. */
export function setProjectTotalBudget(
  draft: Settings,
  connectionId: string,
  projectId: string,
  limitUsd: number | null,
  newId: () => string
): void {
  const list = draft.budgets[connectionId] ?? []
  const existing = list.find((b) => sameSlot(b, { projectId, period: 'total' }))
  if (limitUsd === null) {
    if (existing) removeBudget(draft, connectionId, existing.id)
    return
  }
  const warnRatio = existing?.warnRatio ?? DEFAULT_WARN_RATIO
  saveBudget(draft, connectionId, { id: existing?.id, projectId, period: 'total', limitUsd, warnRatio }, newId)
}
