// A rate is USD per hour over the last 15 minutes: from usage records where known (each call is billed when made),
// else from the task's growing total_price. Pure, clock and time zone given, so period bounds test without waiting.
import type { BudgetPeriod } from '../../shared/budgets'
import { type CostUsage, roundUsd, type TzOffset, usagePriceUsd } from '../../shared/cost'

export const BURN_WINDOW_MS = 15 * 60_000
/** Less than this to look at says nothing about a pace. */
export const MIN_OBSERVED_MS = 60_000
const HOUR_MS = 3_600_000

/** A task's total_price as seen at a moment. */
export interface PriceSample {
  atMs: number
  priceUsd: number
}

export interface BurnInput {
  /** The task's created_at in ms (NaN when unreadable): nothing was spent before it. */
  createdMs: number
  /** Its usage records, when fetched. */
  usages?: readonly CostUsage[] | undefined
  /** Its total_price over time, oldest first. */
  samples: readonly PriceSample[]
}

/** The window looked at: the last 15 minutes, or less when the task (or what we saw of it) is younger. */
function windowStart(now: number, observedFrom: number): number {
  return Math.max(now - BURN_WINDOW_MS, observedFrom)
}

/** USD per hour over the last 15 minutes of one task; null when too little was seen to say. */
export function taskBurnRate(input: BurnInput, now: number): number | null {
  const created = Number.isFinite(input.createdMs) ? input.createdMs : Number.NEGATIVE_INFINITY
  if (input.usages && input.usages.length > 0) {
    const from = windowStart(now, created)
    if (now - from < MIN_OBSERVED_MS) return null
    let spent = 0
    for (const u of input.usages) {
      const at = Date.parse(u.created_at)
      if (at > from && at <= now) spent += usagePriceUsd(u)
    }
    return roundUsd((spent / (now - from)) * HOUR_MS)
  }
  const samples = input.samples.filter((s) => s.atMs <= now)
  const last = samples.at(-1)
  if (!last) return null
  const cutoff = now - BURN_WINDOW_MS
  // The baseline: the last price seen at or before the window opened; else, for a task born in
  // the window, nothing at its creation; else the first price seen.
  let base: PriceSample | undefined
  for (const s of samples) if (s.atMs <= cutoff) base = s
  if (!base) base = created >= cutoff ? { atMs: created, priceUsd: 0 } : samples[0]
  if (!base) return null
  const from = Math.max(base.atMs, cutoff)
  if (now - from < MIN_OBSERVED_MS) return null
  return roundUsd((Math.max(0, last.priceUsd - base.priceUsd) / (now - from)) * HOUR_MS)
}

/** Offset in ms at an instant. */
function offsetMs(tz: TzOffset, at: number): number {
  return (typeof tz === 'function' ? tz(new Date(at)) : tz) * 60_000
}

/** When the local day or month of `now` ends (ms); null for a total budget, which has no end. */
export function periodEnd(now: number, tz: TzOffset, period: BudgetPeriod): number | null {
  if (period === 'total') return null
  const local = new Date(now + offsetMs(tz, now))
  const y = local.getUTCFullYear()
  const m = local.getUTCMonth()
  const d = local.getUTCDate()
  const localEnd = period === 'day' ? Date.UTC(y, m, d + 1) : Date.UTC(y, m + 1, 1)
  // The offset at the end itself, so a DST change during the period is counted right.
  const guess = localEnd - offsetMs(tz, now)
  return localEnd - offsetMs(tz, guess)
}

/** Spending at the end of the period at the current pace: spent so far + rate × hours left. */
export function projectedSpend(
  spentUsd: number,
  usdPerHour: number,
  now: number,
  tz: TzOffset,
  period: BudgetPeriod
): number | null {
  const end = periodEnd(now, tz, period)
  if (end === null) return null
  const hoursLeft = Math.max(0, end - now) / HOUR_MS
  return roundUsd(spentUsd + Math.max(0, usdPerHour) * hoursLeft)
}
