// An agent account's per-unit budgets: one per unit and period, so saving into a taken slot replaces that budget and
// keeps its id; the unit must be one the account reports (the caller knows which).
import type { UnitBudgetInput } from '../../shared/ipc'
import type { Settings } from '../../shared/settings'
import { sameUnitSlot, type UnitBudget, unitBudgetListProblem, unitBudgetProblems } from '../../shared/unit-costs'
import { requireConnection, SettingsEditError } from './edit'

/** Adds or replaces a per-unit budget; returns it as saved. `units`: the account's (accountUnits). */
export function saveUnitBudget(
  draft: Settings,
  connectionId: string,
  input: UnitBudgetInput,
  units: readonly string[],
  newId: () => string
): UnitBudget {
  requireConnection(draft, connectionId)
  const problems = Object.values(unitBudgetProblems(input, units))
  if (problems.length > 0) throw new SettingsEditError(problems.join(' '))
  const list = draft.unitBudgets[connectionId] ?? []
  const existing =
    (input.id !== undefined ? list.find((b) => b.id === input.id) : undefined) ??
    list.find((b) => sameUnitSlot(b, input))
  const budget: UnitBudget = {
    id: existing?.id ?? input.id ?? newId(),
    unit: input.unit,
    period: input.period,
    limit: input.limit,
    warnRatio: input.warnRatio
  }
  const next = [...list.filter((b) => b.id !== budget.id), budget]
  const problem = unitBudgetListProblem(next)
  if (problem !== null) throw new SettingsEditError(problem)
  draft.unitBudgets[connectionId] = next
  return budget
}

/** Returns whether it existed. */
export function removeUnitBudget(draft: Settings, connectionId: string, budgetId: string): boolean {
  const list = draft.unitBudgets[connectionId] ?? []
  const kept = list.filter((b) => b.id !== budgetId)
  draft.unitBudgets[connectionId] = kept
  return kept.length < list.length
}
