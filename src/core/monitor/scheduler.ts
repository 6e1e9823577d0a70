// When each watched project polls next. Pure apart from the injected random source: the monitor
// tells it what happened, it answers what is due and when to wake up.
import type { ServiceErrorKind } from '../../shared/monitor'
import { SINGLE_INTERVAL_BOUNDS } from '../../shared/polling'
import type { PollingPrefs } from '../../shared/settings'

export type PollOutcome = { ok: true; active: boolean } | { ok: false; kind: ServiceErrorKind; retryAfterMs?: number }

export interface ScheduleOptions {
  /** ± share of each delay, so projects added together drift apart. */
  jitterRatio: number
  /** Upper bound of the error backoff; never below the idle interval. */
  maxBackoffMs: number
}

export const DEFAULT_SCHEDULE_OPTIONS: ScheduleOptions = { jitterRatio: 0.1, maxBackoffMs: 5 * 60_000 }

/** How long to wait after a poll, given its outcome and the errors in a row so far (this one included). */
export function nextDelay(
  outcome: PollOutcome,
  consecutiveErrors: number,
  prefs: PollingPrefs,
  random: () => number,
  options: ScheduleOptions = DEFAULT_SCHEDULE_OPTIONS
): number {
  const jitter = (ms: number): number => Math.round(ms * (1 + options.jitterRatio * (2 * random() - 1)))
  if (outcome.ok) return jitter(outcome.active ? prefs.activeIntervalMs : prefs.idleIntervalMs)
  // A wrong key or a gone project will not fix itself soon: check at the slow pace, keep reporting.
  if (outcome.kind === 'auth' || outcome.kind === 'not_found') return jitter(prefs.idleIntervalMs)
  const cap = Math.max(options.maxBackoffMs, prefs.idleIntervalMs)
  const exponent = Math.min(Math.max(consecutiveErrors - 1, 0), 30)
  const backoff = Math.min(cap, Math.max(prefs.activeIntervalMs, SINGLE_INTERVAL_BOUNDS.min) * 2 ** exponent)
  if (outcome.kind === 'rate_limited' && outcome.retryAfterMs !== undefined && outcome.retryAfterMs > 0) {
    // The server's wait is a floor: jitter only ever adds to it.
    const wait = Math.max(outcome.retryAfterMs, backoff)
    return Math.round(wait * (1 + options.jitterRatio * random()))
  }
  return jitter(backoff)
}

export interface ScheduleEntry {
  projectId: string
  /** Whether its last successful poll saw a task todo or in_progress. */
  active: boolean
  dueAt: number
  inFlight: boolean
  /** From pollNow/resume: first, even while paused. Only a poll starting clears it, so one asked mid-poll polls again
   * right after. */
  forced: boolean
  consecutiveErrors: number
}

/** Negative when `a` is more urgent: forced first, then the earlier due time, then by id (stable order). */
function urgency(a: ScheduleEntry, b: ScheduleEntry): number {
  return (
    Number(b.forced) - Number(a.forced) ||
    a.dueAt - b.dueAt ||
    (a.projectId < b.projectId ? -1 : a.projectId > b.projectId ? 1 : 0)
  )
}

/** One pass keeping the few most urgent (slots are few): it runs after every poll, and sorting a thousand due
 * projects each time made a full cycle quadratic. */
export function dueProjects(
  entries: Iterable<ScheduleEntry>,
  now: number,
  options: { maxConcurrency: number; paused: boolean }
): string[] {
  const candidates: ScheduleEntry[] = []
  let busy = 0
  for (const e of entries) {
    if (e.inFlight) busy++
    else if (e.forced || (!options.paused && e.dueAt <= now)) candidates.push(e)
  }
  const slots = Math.max(1, options.maxConcurrency) - busy
  if (slots <= 0) return []
  const best: ScheduleEntry[] = []
  for (const e of candidates) {
    if (best.length === slots && urgency(e, best[slots - 1] as ScheduleEntry) >= 0) continue
    // Placed from the end: past the last while there is room (a write at best.length appends),
    // else over the least urgent, which drops out.
    let i = Math.min(best.length, slots - 1)
    while (i > 0 && urgency(e, best[i - 1] as ScheduleEntry) < 0) {
      best[i] = best[i - 1] as ScheduleEntry
      i--
    }
    best[i] = e
  }
  return best.map((e) => e.projectId)
}

/** When the next poll falls due, or null when nothing waits on time (paused, or all in flight). */
export function nextWakeAt(entries: Iterable<ScheduleEntry>, options: { paused: boolean }): number | null {
  let at: number | null = null
  for (const e of entries) {
    if (e.inFlight) continue
    if (options.paused && !e.forced) continue
    if (at === null || e.dueAt < at) at = e.dueAt
  }
  return at
}

/** A project new to the schedule: it polls right away. */
export function newScheduleEntry(projectId: string, now: number): ScheduleEntry {
  return { projectId, active: false, dueAt: now, inFlight: false, forced: false, consecutiveErrors: 0 }
}

/** The entries live in the monitor's project records, so forgetting a project forgets its schedule. */
export class Scheduler {
  /** Counted as polls start and finish: asked after every poll. */
  private inFlight = 0

  constructor(
    private prefs: PollingPrefs,
    private readonly random: () => number,
    private readonly options: ScheduleOptions,
    private readonly entries: ReadonlyMap<string, ScheduleEntry>
  ) {}

  setPrefs(prefs: PollingPrefs, now: number): void {
    const before = this.prefs
    this.prefs = prefs
    // Shorter intervals take effect now rather than after the old, longer wait. Not for a project
    // backing off after errors; a poll in flight sets its own next time when it finishes.
    for (const e of this.entries.values()) {
      if (e.consecutiveErrors > 0) continue
      const interval = e.active ? prefs.activeIntervalMs : prefs.idleIntervalMs
      const old = e.active ? before.activeIntervalMs : before.idleIntervalMs
      if (interval < old) e.dueAt = Math.min(e.dueAt, now + interval)
    }
  }

  get maxConcurrency(): number {
    return this.prefs.maxConcurrency
  }

  /** The entry is no longer the caller's to keep: a poll it had in flight no longer counts. */
  removed(entry: ScheduleEntry): void {
    if (entry.inFlight) this.inFlight--
    entry.inFlight = false
  }

  force(projectId: string): void {
    const e = this.entries.get(projectId)
    if (e) e.forced = true
  }

  started(projectId: string): void {
    const e = this.entries.get(projectId)
    if (!e) return
    if (!e.inFlight) this.inFlight++
    e.inFlight = true
    e.forced = false
  }

  /** Records a poll's outcome and returns when the project polls next. */
  finished(projectId: string, outcome: PollOutcome, now: number): number | null {
    const e = this.entries.get(projectId)
    if (!e) return null
    if (e.inFlight) this.inFlight--
    e.inFlight = false
    if (outcome.ok) {
      e.active = outcome.active
      e.consecutiveErrors = 0
    } else {
      e.consecutiveErrors += 1
    }
    e.dueAt = now + nextDelay(outcome, e.consecutiveErrors, this.prefs, this.random, this.options)
    return e.dueAt
  }

  due(now: number, paused: boolean): string[] {
    return dueProjects(this.entries.values(), now, { maxConcurrency: this.prefs.maxConcurrency, paused })
  }

  wakeAt(paused: boolean): number | null {
    return nextWakeAt(this.entries.values(), { paused })
  }

  inFlightCount(): number {
    return this.inFlight
  }
}
