// What an agent account spent, per unit (ACUs, premium requests, USD), and its per-unit budgets. A service reports a
// task's cost as a running total, not when it was spent, so a task's whole cost counts in the local day and month it
// was created (as costByDay counts Workser's tasks), else in its last update's; in total, every task the service still
// lists. One unit is never added to another, and an agent account's USD never to a Workser account's.
import { BUDGET_MAX_USD } from './budget'
import { BUDGET_PERIODS, type BudgetPeriod, budgetPeriodKey, warnRatioProblem } from './budgets'
import { type BudgetState, budgetState, roundUsd, type TzOffset } from './cost'
import { formatAmount } from './format'
import type { ProviderCost } from './provider'

/** What the attribution reads of a task: any service's task will do. */
export interface CostedTask {
  createdAt: string | null
  updatedAt: string | null
  costs: readonly ProviderCost[]
}

/** Sums kept clear of float noise, as USD's are (any unit's amounts are decimals too). */
const roundAmount = roundUsd

/** The period a task's cost counts in: its creation's local day or month, else its last update's; null with neither. */
export function taskPeriodKey(task: Omit<CostedTask, 'costs'>, tz: TzOffset, period: BudgetPeriod): string | null {
  if (period === 'total') return 'total'
  for (const at of [task.createdAt, task.updatedAt]) {
    const key = at === null ? null : budgetPeriodKey(at, tz, period)
    if (key !== null) return key
  }
  return null
}

/** A task's amount in one unit (0 when it reports none in it, or one that is not a finite number). */
function amountIn(task: CostedTask, unit: string): number {
  let sum = 0
  for (const c of task.costs) if (c.unit === unit && Number.isFinite(c.amount)) sum += c.amount
  return sum
}

/** What the tasks spent in one unit in one period (`key`: "2026-11-23", "2026-11" or "total"). */
export function spentIn(
  tasks: readonly CostedTask[],
  unit: string,
  period: BudgetPeriod,
  key: string,
  tz: TzOffset
): number {
  let sum = 0
  for (const task of tasks) if (taskPeriodKey(task, tz, period) === key) sum += amountIn(task, unit)
  return roundAmount(sum)
}

/** One unit's spending of an account: today, this month, in total (local time), and how many tasks reported it. */
export interface UnitSpend {
  unit: string
  today: number
  thisMonth: number
  total: number
  tasks: number
}

/** Per unit, in the order the tasks first report them. */
export function unitSpend(tasks: readonly CostedTask[], now: number, tz: TzOffset): UnitSpend[] {
  const day = budgetPeriodKey(now, tz, 'day')
  const month = budgetPeriodKey(now, tz, 'month')
  const out = new Map<string, UnitSpend>()
  for (const task of tasks) {
    const inDay = taskPeriodKey(task, tz, 'day') === day
    const inMonth = taskPeriodKey(task, tz, 'month') === month
    for (const unit of new Set(task.costs.map((c) => c.unit))) {
      const amount = amountIn(task, unit)
      const row = out.get(unit) ?? { unit, today: 0, thisMonth: 0, total: 0, tasks: 0 }
      row.total = roundAmount(row.total + amount)
      if (inDay) row.today = roundAmount(row.today + amount)
      if (inMonth) row.thisMonth = roundAmount(row.thisMonth + amount)
      row.tasks += 1
      out.set(unit, row)
    }
  }
  return [...out.values()]
}

/** A spending limit of one agent account in one of its units, per day, month or in total. */
export interface UnitBudget {
  id: string
  /** The service's unit, as its tasks report it ("ACU", "premium requests", "USD"). */
  unit: string
  period: BudgetPeriod
  /** In `unit`. */
  limit: number
  /** The share of the limit from which it warns, e.g. 0.8. */
  warnRatio: number
}

/** Per account: a few units times three periods, with room; small enough that a damaged file cannot grow without end. */
export const MAX_UNIT_BUDGETS_PER_ACCOUNT = 30
/** The same bound as a USD budget's, in any unit. */
export const UNIT_BUDGET_MAX = BUDGET_MAX_USD
/** A unit's name: one short line. */
export const MAX_UNIT_NAME = 40

export type UnitBudgetField = 'unit' | 'limit' | 'period' | 'warnRatio'

/** The units an account's budget may be in: those its service declares, then any its tasks reported. */
export function accountUnits(declared: readonly string[] | undefined, tasks: readonly CostedTask[]): string[] {
  const units = new Set(declared ?? [])
  for (const task of tasks) for (const c of task.costs) units.add(c.unit)
  return [...units]
}

function unitNameProblem(unit: unknown): string | null {
  if (typeof unit !== 'string' || unit.trim() === '' || unit !== unit.trim()) return 'The unit is missing.'
  if (unit.length > MAX_UNIT_NAME || /[\r\n]/.test(unit)) return 'The unit must be one short line.'
  return null
}

/**
 * What is wrong with a per-unit budget, field by field; empty when it is valid. With `units` (the account's, from
 * accountUnits), the unit must be one of them.
 */
export function unitBudgetProblems(
  budget: Pick<UnitBudget, 'unit' | 'period' | 'limit' | 'warnRatio'>,
  units?: readonly string[]
): Partial<Record<UnitBudgetField, string>> {
  const out: Partial<Record<UnitBudgetField, string>> = {}
  const unit = unitNameProblem(budget.unit)
  if (unit !== null) out.unit = unit
  else if (units !== undefined && !units.includes(budget.unit))
    out.unit =
      units.length === 0
        ? 'This account reports no cost unit yet.'
        : `The unit must be one this account reports: ${units.join(', ')}.`
  const { limit } = budget
  if (!Number.isFinite(limit) || limit < 0) out.limit = 'The limit must be an amount, not negative.'
  else if (limit > UNIT_BUDGET_MAX)
    out.limit = `The limit must be at most ${formatAmount(UNIT_BUDGET_MAX, typeof budget.unit === 'string' ? budget.unit : '')}.`
  if (!BUDGET_PERIODS.includes(budget.period)) out.period = 'The period must be day, month or total.'
  const warn = warnRatioProblem(budget.warnRatio)
  if (warn !== null) out.warnRatio = warn
  return out
}

/** One budget per unit and period: a second would only say the same thing twice. */
export function sameUnitSlot(a: Pick<UnitBudget, 'unit' | 'period'>, b: Pick<UnitBudget, 'unit' | 'period'>): boolean {
  return a.unit === b.unit && a.period === b.period
}

/** The problem with a whole list of an account's per-unit budgets (ids and slots unique, within the bound). */
export function unitBudgetListProblem(list: readonly UnitBudget[]): string | null {
  if (list.length > MAX_UNIT_BUDGETS_PER_ACCOUNT)
    return `An account may have at most ${MAX_UNIT_BUDGETS_PER_ACCOUNT} budgets per unit.`
  const ids = new Set<string>()
  for (const [i, b] of list.entries()) {
    if (ids.has(b.id)) return `Two budgets have the id ${b.id}.`
    ids.add(b.id)
    if (list.slice(0, i).some((other) => sameUnitSlot(other, b)))
      return 'There is already a budget for that unit and period.'
  }
  return null
}

/** A limit as typed in a unit ("100", "100 ACU", "$25" for USD); empty is no limit (null). */
export function parseUnitLimit(
  text: string,
  unit: string
): { ok: true; value: number | null } | { ok: false; error: string } {
  let trimmed = text.trim()
  if (trimmed.toLowerCase().endsWith(unit.toLowerCase())) trimmed = trimmed.slice(0, -unit.length).trim()
  trimmed = trimmed.replace(/^\$/, '').replaceAll(',', '')
  if (trimmed === '') return { ok: true, value: null }
  const value = /^\d+(?:\.\d*)?$|^\.\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN
  if (!(value >= 0 && value <= UNIT_BUDGET_MAX))
    return { ok: false, error: `Enter an amount of ${unit} up to ${formatAmount(UNIT_BUDGET_MAX, unit)}, like 100.` }
  return { ok: true, value }
}

/** One per-unit budget where it stands in its current period. */
export interface UnitBudgetStatus {
  budget: UnitBudget
  /** The period now ("2026-11", "2026-11-23", "total"). */
  periodKey: string
  /** In the budget's unit. */
  spent: number
  state: BudgetState
}

/** Where each budget stands now over the account's tasks. */
export function unitBudgetStatuses(
  budgets: readonly UnitBudget[],
  tasks: readonly CostedTask[],
  now: number,
  tz: TzOffset
): UnitBudgetStatus[] {
  return budgets.flatMap((budget) => {
    const key = budgetPeriodKey(now, tz, budget.period)
    if (key === null) return []
    const spent = spentIn(tasks, budget.unit, budget.period, key, tz)
    return [{ budget, periodKey: key, spent, state: budgetState(spent, budget.limit, budget.warnRatio) }]
  })
}

/** An agent account's costs as the Costs screen and the command show them. */
export interface AgentCostView {
  connectionId: string
  /** Per unit, as its tasks report them; empty when none has reported a cost. */
  units: UnitSpend[]
  budgets: UnitBudgetStatus[]
  /** The units a budget may be in (accountUnits). */
  budgetUnits: string[]
}
