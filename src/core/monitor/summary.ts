// A task list boiled down for when nobody looks, in flat arrays instead of tasks and steps. Its figures equal
// shared/cost's for the full list (tested).
import {
  knownTotalPrice,
  localDateKey,
  roundUsd,
  type TzOffset,
  usagePriceUsd,
  type UsagesByTask
} from '../../shared/cost'
import { isActive } from '../../shared/status'
import { isDigest } from '../client/digest'
import { isoMs } from '../util/iso-time'
import type { ListedTask } from './diff'

export interface ProjectSummary {
  running: number
  failed: number
  total: number
  /** The latest updated_at of any task or step (ISO); null without a readable one. */
  lastActivityAt: string | null
  /** Per task, in list order: created_at in ms (NaN when unreadable). */
  createdMs: Float64Array
  /** Per task: total_price (NaN when the service sent none). */
  price: Float64Array
  /** Per task: 1 while todo or in progress. */
  active: Uint8Array
  /** Tasks without total_price, by position: their cost comes from usage records when known. */
  unpriced: ReadonlyMap<number, string>
}

export const EMPTY_SUMMARY: ProjectSummary = {
  running: 0,
  failed: 0,
  total: 0,
  lastActivityAt: null,
  createdMs: new Float64Array(0),
  price: new Float64Array(0),
  active: new Uint8Array(0),
  unpriced: new Map()
}

export function summarizeTasks(tasks: readonly ListedTask[]): ProjectSummary {
  const n = tasks.length
  const createdMs = new Float64Array(n)
  const price = new Float64Array(n)
  const active = new Uint8Array(n)
  const unpriced = new Map<number, string>()
  let running = 0
  let failed = 0
  let latest = Number.NEGATIVE_INFINITY
  for (let i = 0; i < n; i++) {
    const task = tasks[i] as ListedTask
    if (isActive(task.status)) {
      running++
      active[i] = 1
    }
    if (task.status === 'failed') failed++
    createdMs[i] = isoMs(task.created_at)
    const p = knownTotalPrice(task.total_price)
    if (p !== null) price[i] = p
    else {
      price[i] = Number.NaN
      unpriced.set(i, task.id)
    }
    latest = laterOf(latest, task.updated_at)
    if (isDigest(task)) latest = task.stepsActivityMs > latest ? task.stepsActivityMs : latest
    else for (const step of task.steps) latest = laterOf(latest, step.updated_at)
  }
  const lastActivityAt = Number.isFinite(latest) ? new Date(latest).toISOString() : null
  return { running, failed, total: n, lastActivityAt, createdMs, price, active, unpriced }
}

function laterOf(best: number, iso: string): number {
  const ms = isoMs(iso)
  return ms > best ? ms : best
}

/** The cost of task i: as shared/cost's taskCostUsd. */
function costAt(summary: ProjectSummary, i: number, usagesByTask: UsagesByTask | undefined): number {
  const p = summary.price[i] as number
  if (!Number.isNaN(p)) return p
  // Every task without a price is in `unpriced`.
  const usages = usagesByTask?.[summary.unpriced.get(i) as string]
  if (!usages) return 0
  let sum = 0
  for (const u of usages) sum += usagePriceUsd(u)
  return roundUsd(sum)
}

/** As shared/cost's projectCost: the total and the running part. */
export function summaryCost(
  summary: ProjectSummary,
  usagesByTask?: UsagesByTask
): { totalUsd: number; runningUsd: number } {
  let total = 0
  let running = 0
  for (let i = 0; i < summary.total; i++) {
    const cost = costAt(summary, i, usagesByTask)
    total += cost
    if (summary.active[i] === 1) running += cost
  }
  return { totalUsd: roundUsd(total), runningUsd: roundUsd(running) }
}

/** No time zone is further than this from UTC, so a task created further from now is not on today's date. */
const NEAR_MS = 2 * 86_400_000

/** As shared/cost's costOnDay for the local day of `now`. */
export function summaryCostToday(
  summary: ProjectSummary,
  now: number,
  tz: TzOffset,
  usagesByTask?: UsagesByTask
): number {
  // An unreadable `now` has no day, and no task is near it.
  const today = localDateKey(now, tz)
  let cost = 0
  for (let i = 0; i < summary.total; i++) {
    const created = summary.createdMs[i] as number
    if (!(Math.abs(created - now) <= NEAR_MS)) continue
    if (localDateKey(created, tz) !== today) continue
    cost = roundUsd(cost + costAt(summary, i, usagesByTask))
  }
  return cost
}
