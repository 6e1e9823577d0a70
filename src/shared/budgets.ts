// One budget rule for the window, the settings schema and the request validation, so none accepts what another refuses.
import { BUDGET_MAX_USD, budgetProblem } from './budget'
import { BUDGET_NEAR_RATIO, type BudgetLevel, type BudgetState, budgetState, type TzOffset } from './cost'
import { periodKey } from './cost-period'

export type BudgetPeriod = 'day' | 'month' | 'total'
export const BUDGET_PERIODS: readonly BudgetPeriod[] = ['day', 'month', 'total']

/** A spending limit per account (each key is billed on its own), for one project or, with projectId null, for all. */
export interface Budget {
  id: string
  /** A watched project's id; null for all of the account's watched projects together. */
  projectId: string | null
  period: BudgetPeriod
  limitUsd: number
  /** The share of the limit from which it warns, e.g. 0.8. */
  warnRatio: number
}

export const DEFAULT_WARN_RATIO = BUDGET_NEAR_RATIO
/** A warning at 5 % is noise and at 100 % is the limit itself. */
export const WARN_RATIO_BOUNDS = { min: 0.05, max: 0.99 } as const
/** Per account; far more than anyone keeps, small enough that a damaged file cannot grow without end. */
export const MAX_BUDGETS_PER_CONNECTION = 100

/** What is wrong with a warning share (of any budget, in any unit); null when it is within the bounds. */
export function warnRatioProblem(r: number): string | null {
  // Number.isFinite is false for anything but a finite number (a damaged file's "0.8" too).
  if (!Number.isFinite(r) || r < WARN_RATIO_BOUNDS.min || r > WARN_RATIO_BOUNDS.max)
    return `The warning must be between ${WARN_RATIO_BOUNDS.min * 100} % and ${WARN_RATIO_BOUNDS.max * 100} % of the limit.`
  return null
}

export type BudgetField = 'limitUsd' | 'warnRatio' | 'period' | 'scope'

/** What is wrong with a budget, field by field; empty when it is valid. */
export function budgetProblems(
  budget: Pick<Budget, 'projectId' | 'period' | 'limitUsd' | 'warnRatio'>
): Partial<Record<BudgetField, string>> {
  const out: Partial<Record<BudgetField, string>> = {}
  const limit = budgetProblem(budget.limitUsd)
  if (limit !== null) out.limitUsd = `The limit ${limit}.`
  if (!BUDGET_PERIODS.includes(budget.period)) out.period = 'The period must be day, month or total.'
  const warn = warnRatioProblem(budget.warnRatio)
  if (warn !== null) out.warnRatio = warn
  if (budget.projectId !== null && (typeof budget.projectId !== 'string' || budget.projectId.trim() === ''))
    out.scope = 'The project is missing.'
  return out
}

/** One budget per scope and period: a second would only say the same thing twice. */
export function sameSlot(a: Pick<Budget, 'projectId' | 'period'>, b: Pick<Budget, 'projectId' | 'period'>): boolean {
  return a.projectId === b.projectId && a.period === b.period
}

/** The problem with a whole list of an account's budgets (ids and slots unique, within the bound); null when fine. */
export function budgetListProblem(list: readonly Budget[]): string | null {
  if (list.length > MAX_BUDGETS_PER_CONNECTION)
    return `An account may have at most ${MAX_BUDGETS_PER_CONNECTION} budgets.`
  const ids = new Set<string>()
  for (const [i, b] of list.entries()) {
    if (ids.has(b.id)) return `Two budgets have the id ${b.id}.`
    ids.add(b.id)
    if (list.slice(0, i).some((other) => sameSlot(other, b)))
      return 'There is already a budget for that scope and period.'
  }
  return null
}

/** A warning share as typed, in percent ("80", "80 %"); empty is the default. */
export function parseWarnPercent(text: string): { ok: true; value: number } | { ok: false; error: string } {
  const trimmed = text.trim().replace(/\s*%$/, '')
  if (trimmed === '') return { ok: true, value: DEFAULT_WARN_RATIO }
  const value = /^\d+(?:\.\d+)?$/.test(trimmed) ? Number(trimmed) / 100 : Number.NaN
  if (!(value >= WARN_RATIO_BOUNDS.min && value <= WARN_RATIO_BOUNDS.max)) {
    return {
      ok: false,
      error: `Enter a warning between ${WARN_RATIO_BOUNDS.min * 100} and ${WARN_RATIO_BOUNDS.max * 100} percent, or leave it empty for ${DEFAULT_WARN_RATIO * 100}.`
    }
  }
  return { ok: true, value }
}

export { BUDGET_MAX_USD }

/** Which period `at` falls in, in local time: "2026-11-23", "2026-11", or "total"; null for an unreadable time. */
export function budgetPeriodKey(at: Date | string | number, tz: TzOffset, period: BudgetPeriod): string | null {
  return period === 'total' ? 'total' : periodKey(at, tz, period)
}

/** Where spending stands against a budget: ok, near (at or past the warning), over (at or past the limit). */
export function budgetLevel(spentUsd: number, budget: Pick<Budget, 'limitUsd' | 'warnRatio'>): BudgetState {
  return budgetState(spentUsd, budget.limitUsd, budget.warnRatio)
}

/** "today", "this month", "in total": how a notification and the window say the period. */
export function periodWords(period: BudgetPeriod): string {
  return period === 'day' ? 'today' : period === 'month' ? 'this month' : 'in total'
}

/** "Daily", "Monthly", "Total". */
export function periodTitle(period: BudgetPeriod): string {
  return period === 'day' ? 'Daily' : period === 'month' ? 'Monthly' : 'Total'
}

export type { BudgetLevel }

/** One budget as the window shows it: spending in the current period, the pace, where it is heading. */
export interface BudgetStatus {
  connectionId: string
  budget: Budget
  /** The period now ("2026-11", "2026-11-23", "total"). */
  periodKey: string
  spentUsd: number
  /** The part of spentUsd not backed by usage records (see shared/cost-period). */
  estimatedUsd: number
  state: BudgetState
  /** USD per hour over the last 15 minutes, of the tasks running in the budget's scope. */
  burnUsdPerHour: number
  /** What the period ends at at that pace; null for a total budget (it has no end). */
  projectedUsd: number | null
}
