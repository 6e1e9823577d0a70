// Pure, so the tray, the window and the command agree to the cent. total_price and final_price are the authorities;
// their sums are compared, never silently reconciled.
import type { Task, UsageMetadata, UsageRecord } from './service'
import { isActive } from './status'

export interface TokenTotals {
  inputTokens: number
  outputTokens: number
  totalTokens: number
  /** null when no record reported cache reads at all; 0 when some did and read nothing. */
  cacheReadTokens: number | null
}

export interface CostRow extends TokenTotals {
  provider: string
  /** Empty for a per-provider row. */
  model: string
  calls: number
  costUsd: number
}

export interface CostMismatch {
  /** Sum of the usage records' final_price. */
  sum: number
  /** The task's total_price. */
  total: number
  /** sum - total */
  difference: number
}

export interface TaskCost extends TokenTotals {
  calls: number
  /** Sum of final_price over the usage records. */
  usageSumUsd: number
  /** The task's total_price; null when the server sent none. */
  totalPriceUsd: number | null
  /** What the task costs: total_price, or the usage sum when there is no total_price. */
  costUsd: number
  byProvider: CostRow[]
  byModel: CostRow[]
  /** Set when the usage sum and total_price differ by more than rounding. */
  mismatch: CostMismatch | null
}

/** A usage record as the cost model reads it: the usage store's compact copy (no request or response) will do. */
export type CostUsage = Pick<UsageRecord, 'provider' | 'model' | 'usage_metadata' | 'final_price' | 'created_at'>

/** Minutes east of UTC (e.g. 120 for UTC+2), fixed or as a function of the instant (for DST). */
export type TzOffset = number | ((at: Date) => number)

/** The cache reads of one usage record: the service's own key first, then LangChain's; absent is null. */
export function cacheReadTokensOf(metadata: UsageMetadata | undefined): number | null {
  if (!metadata) return null
  if (isNumber(metadata.cache_read_tokens)) return metadata.cache_read_tokens
  const detail = metadata.input_token_details?.cache_read
  return isNumber(detail) ? detail : null
}

/** A finite number (Number.isFinite is false for anything else: null, a string, NaN). */
function isNumber(v: unknown): v is number {
  return Number.isFinite(v)
}

/** Prices are rounded by the service to 6 decimals; sums are kept clear of float noise. */
export function roundUsd(v: number): number {
  return Math.round(v * 1e9) / 1e9
}

/** How far a usage sum may drift from total_price through per-record rounding alone. */
export function mismatchTolerance(recordCount: number): number {
  return Math.max(1e-6, 1e-6 * recordCount)
}

function emptyTotals(): TokenTotals {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0, cacheReadTokens: null }
}

function addTokens(into: TokenTotals, usage: CostUsage): void {
  const m = usage.usage_metadata
  into.inputTokens += isNumber(m?.input_tokens) ? m.input_tokens : 0
  into.outputTokens += isNumber(m?.output_tokens) ? m.output_tokens : 0
  // total_tokens is the server's figure; input + output is not assumed to equal it.
  into.totalTokens += isNumber(m?.total_tokens) ? m.total_tokens : 0
  const cache = cacheReadTokensOf(m)
  if (cache !== null) into.cacheReadTokens = (into.cacheReadTokens ?? 0) + cache
}

/** What one usage record cost: its final_price, or 0 where it has none that is a finite number. */
export function usagePriceUsd(usage: Pick<CostUsage, 'final_price'>): number {
  return isNumber(usage.final_price) ? usage.final_price : 0
}

/** A task's total_price where it is a finite number; null where it has none yet, or one not readable as a price. */
export function knownTotalPrice(totalPrice: unknown): number | null {
  return isNumber(totalPrice) ? totalPrice : null
}

/** The cost of one task from its usage records, with its total_price to compare against. */
export function taskCost(usages: readonly CostUsage[], totalPrice: number | null): TaskCost {
  const totals = emptyTotals()
  const providers = new Map<string, CostRow>()
  const models = new Map<string, CostRow>()
  let sum = 0
  for (const usage of usages) {
    const price = usagePriceUsd(usage)
    sum += price
    addTokens(totals, usage)
    for (const [map, key, model] of [
      [providers, usage.provider, ''],
      [models, `${usage.provider}\u0000${usage.model}`, usage.model]
    ] as const) {
      let row = map.get(key)
      if (!row) {
        row = { provider: usage.provider, model, calls: 0, costUsd: 0, ...emptyTotals() }
        map.set(key, row)
      }
      row.calls += 1
      row.costUsd = roundUsd(row.costUsd + price)
      addTokens(row, usage)
    }
  }
  const usageSumUsd = roundUsd(sum)
  const total = knownTotalPrice(totalPrice)
  let mismatch: CostMismatch | null = null
  if (total !== null) {
    const difference = roundUsd(usageSumUsd - total)
    if (Math.abs(difference) > mismatchTolerance(usages.length)) {
      mismatch = { sum: usageSumUsd, total, difference }
    }
  }
  const byCost = (a: CostRow, b: CostRow): number =>
    b.costUsd - a.costUsd || a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model)
  return {
    ...totals,
    calls: usages.length,
    usageSumUsd,
    totalPriceUsd: total,
    costUsd: total ?? usageSumUsd,
    byProvider: [...providers.values()].sort(byCost),
    byModel: [...models.values()].sort(byCost),
    mismatch
  }
}

/** Usage records per task id, where known (e.g. the monitor's details cache). */
export type UsagesByTask = Readonly<Record<string, readonly CostUsage[] | undefined>>

/** What one task costs: total_price, else the sum of its usage records when known, else 0. */
export function taskCostUsd(task: Pick<Task, 'id' | 'total_price'>, usagesByTask?: UsagesByTask): number {
  const total = knownTotalPrice(task.total_price)
  if (total !== null) return total
  const usages = usagesByTask?.[task.id]
  if (!usages) return 0
  return roundUsd(usages.reduce((s, u) => s + usagePriceUsd(u), 0))
}

export interface ProjectCost {
  totalUsd: number
  /** Of tasks still todo or in_progress. */
  runningUsd: number
  taskCount: number
  /** Tasks with neither total_price nor known usage records: their cost is not counted. */
  unpricedTaskIds: string[]
}

/** Whether what a task cost is known: it has a total_price, or its usage records are known. */
export function hasKnownCost(task: Pick<Task, 'id' | 'total_price'>, usagesByTask?: UsagesByTask): boolean {
  return knownTotalPrice(task.total_price) !== null || usagesByTask?.[task.id] !== undefined
}

/** Reads each task's id, status and total_price only: a task list's digest will do. */
export function projectCost(
  tasks: readonly Pick<Task, 'id' | 'status' | 'total_price'>[],
  usagesByTask?: UsagesByTask
): ProjectCost {
  let total = 0
  let running = 0
  const unpriced: string[] = []
  for (const task of tasks) {
    if (!hasKnownCost(task, usagesByTask)) unpriced.push(task.id)
    const cost = taskCostUsd(task, usagesByTask)
    total += cost
    if (isActive(task.status)) running += cost
  }
  return {
    totalUsd: roundUsd(total),
    runningUsd: roundUsd(running),
    taskCount: tasks.length,
    unpricedTaskIds: unpriced
  }
}

function offsetAt(tz: TzOffset, at: Date): number {
  return typeof tz === 'function' ? tz(at) : tz
}

/** The local calendar day of an instant, "YYYY-MM-DD"; null for an unreadable time. */
export function localDateKey(at: Date | string | number, tz: TzOffset): string | null {
  const date = new Date(at)
  const ms = date.getTime()
  if (!Number.isFinite(ms)) return null
  return new Date(ms + offsetAt(tz, date) * 60_000).toISOString().slice(0, 10)
}

export interface DayCost {
  date: string
  costUsd: number
  taskCount: number
}

/** What the per-day figures read of a task: a full task or the list's summary will do. */
export type DatedPrice = Pick<Task, 'id' | 'total_price' | 'created_at'>

/** Cost per local day, oldest first, on the day each task was created: total_price is one figure, not a series. */
export function costByDay(tasks: readonly DatedPrice[], tz: TzOffset, usagesByTask?: UsagesByTask): DayCost[] {
  const days = new Map<string, DayCost>()
  for (const task of tasks) {
    const key = localDateKey(task.created_at, tz)
    if (key === null) continue
    const day = days.get(key) ?? { date: key, costUsd: 0, taskCount: 0 }
    day.costUsd = roundUsd(day.costUsd + taskCostUsd(task, usagesByTask))
    day.taskCount += 1
    days.set(key, day)
  }
  return [...days.values()].sort((a, b) => a.date.localeCompare(b.date))
}

/** The cost of one local day (e.g. today: `costOnDay(tasks, localDateKey(now, tz), tz)`). */
export function costOnDay(
  tasks: readonly DatedPrice[],
  dateKey: string | null,
  tz: TzOffset,
  usagesByTask?: UsagesByTask
): number {
  // No day is keyed null (an unreadable time is left out), so an unreadable day costs 0.
  return costByDay(tasks, tz, usagesByTask).find((d) => d.date === dateKey)?.costUsd ?? 0
}

export type BudgetState = 'none' | 'ok' | 'near' | 'over'
/** The budget levels that are announced. */
export type BudgetLevel = 'near' | 'over'

/** Share of the budget from which a project is "near" it. */
export const BUDGET_NEAR_RATIO = 0.8

/** Where spending stands against a budget: none without one, over once it is reached. */
export function budgetState(spentUsd: number, budgetUsd: number | null, nearRatio = BUDGET_NEAR_RATIO): BudgetState {
  if (!isNumber(budgetUsd) || budgetUsd < 0) return 'none'
  // At or past a budget with nothing spent is a $0 budget untouched.
  if (spentUsd >= budgetUsd) return spentUsd === 0 ? 'ok' : 'over'
  if (spentUsd >= budgetUsd * nearRatio) return 'near'
  return 'ok'
}

function levelRank(level: BudgetState | null): number {
  return level === 'over' ? 2 : level === 'near' ? 1 : 0
}

/** Whether a budget level was crossed since the last announced one; `notified` falls back as spending drops, so a
 *  later crossing is announced again and no level twice. */
export function budgetCrossing(
  previouslyNotified: BudgetLevel | null,
  current: BudgetState
): { crossed: BudgetLevel | null; notified: BudgetLevel | null } {
  const now: BudgetLevel | null = current === 'near' || current === 'over' ? current : null
  // Not higher: where it stands now is what to remember (the same level, or a lower one).
  return { crossed: levelRank(now) > levelRank(previouslyNotified) ? now : null, notified: now }
}
