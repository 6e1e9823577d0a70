// A task is billed call by call, so its cost goes on the local days its usage records were created on; what they do
// not account for of total_price (the authority) goes on the day it last changed, marked as an estimate.
import {
  type CostUsage,
  knownTotalPrice,
  localDateKey,
  mismatchTolerance,
  roundUsd,
  type TzOffset,
  usagePriceUsd,
  type UsagesByTask
} from './cost'
import type { Task } from './service'

export type CostPeriod = 'day' | 'month'

/** "YYYY-MM-DD" for a day, "YYYY-MM" for a month, in local time; null for an unreadable time. */
export function periodKey(at: Date | string | number, tz: TzOffset, period: CostPeriod): string | null {
  const day = localDateKey(at, tz)
  if (day === null) return null
  return period === 'day' ? day : day.slice(0, 7)
}

export interface PeriodShare {
  key: string
  costUsd: number
  /** The part of costUsd not backed by usage records. */
  estimatedUsd: number
}

/** What the attribution reads of a task: the list's summary will do. */
export type AttributedTask = Pick<Task, 'id' | 'total_price' | 'updated_at'>

/** What a task's known records do not account for of total_price, in USD (0 when the gap is only rounding). */
export function unaccountedUsd(
  task: Pick<AttributedTask, 'total_price'>,
  usages: readonly CostUsage[] | undefined
): number {
  const total = knownTotalPrice(task.total_price)
  if (total === null) return 0
  if (usages === undefined) return roundUsd(total)
  let recordSum = 0
  for (const usage of usages) recordSum += usagePriceUsd(usage)
  const unaccounted = total - recordSum
  // Rounding between the records and the total is not an estimate; a real gap is.
  return Math.abs(unaccounted) > mismatchTolerance(usages.length) ? roundUsd(unaccounted) : 0
}

/** One task's cost per period. Records with an unreadable created_at count on the task's updated_at. */
export function taskCostByPeriod(
  task: AttributedTask,
  usages: readonly CostUsage[] | undefined,
  tz: TzOffset,
  period: CostPeriod
): PeriodShare[] {
  const shares = new Map<string, PeriodShare>()
  const fallbackKey = periodKey(task.updated_at, tz, period)
  const add = (key: string | null, usd: number, estimated: boolean): void => {
    if (key === null || usd === 0) return
    const share = shares.get(key) ?? { key, costUsd: 0, estimatedUsd: 0 }
    share.costUsd += usd
    if (estimated) share.estimatedUsd += usd
    shares.set(key, share)
  }
  // A record without a price adds nothing (add leaves out 0).
  for (const usage of usages ?? [])
    add(periodKey(usage.created_at, tz, period) ?? fallbackKey, usagePriceUsd(usage), false)
  add(fallbackKey, unaccountedUsd(task, usages), true)
  return [...shares.values()].map((s) => ({
    key: s.key,
    costUsd: roundUsd(s.costUsd),
    estimatedUsd: roundUsd(s.estimatedUsd)
  }))
}

export interface PeriodCost extends PeriodShare {
  /** Tasks with some cost in this period. */
  taskCount: number
}

/** Cost per period over many tasks, oldest first. */
export function costByPeriod(
  tasks: readonly AttributedTask[],
  usagesByTask: UsagesByTask | undefined,
  tz: TzOffset,
  period: CostPeriod
): PeriodCost[] {
  const periods = new Map<string, PeriodCost>()
  for (const task of tasks) {
    for (const share of taskCostByPeriod(task, usagesByTask?.[task.id], tz, period)) {
      const total = periods.get(share.key) ?? { key: share.key, costUsd: 0, estimatedUsd: 0, taskCount: 0 }
      total.costUsd = roundUsd(total.costUsd + share.costUsd)
      total.estimatedUsd = roundUsd(total.estimatedUsd + share.estimatedUsd)
      total.taskCount += 1
      periods.set(share.key, total)
    }
  }
  return [...periods.values()].sort((a, b) => a.key.localeCompare(b.key))
}

/** The cost of one period, e.g. this month: `costInPeriod(tasks, usages, tz, 'month', periodKey(now, tz, 'month'))`. */
export function costInPeriod(
  tasks: readonly AttributedTask[],
  usagesByTask: UsagesByTask | undefined,
  tz: TzOffset,
  period: CostPeriod,
  key: string | null
): PeriodShare {
  // No period is keyed null (an unreadable time counts on the task's updated_at, or not at all).
  const found = costByPeriod(tasks, usagesByTask, tz, period).find((p) => p.key === key)
  return { key: key ?? '', costUsd: found?.costUsd ?? 0, estimatedUsd: found?.estimatedUsd ?? 0 }
}
