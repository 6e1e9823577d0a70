// The one place that decides whether a round may be told now (pause, quiet hours, mute). Budget crossings, costly
// tasks and tasks waiting for you that arrive while held back wait (hold.ts) and are told when let out, if still true;
// wording is policy.ts's.
import type { TzOffset } from '../../shared/cost'
import type { Settings } from '../../shared/settings'
import type { Clock, TimerHandle } from '../util/clock'
import { type HeldEvent, type HeldVerdict, Hold } from './hold'
import { pauseInEffect } from './pause'
import { decideNotifications, inQuietHours, type Notification, type NotificationBatch } from './policy'

type UnusualEvent = Extract<HeldEvent, { kind: 'task-cost-unusual' }>
type WaitingEvent = Extract<HeldEvent, { kind: 'agent-waiting' }>

/** While notifications are held back, how often the gate looks again at what waits. */
export const HELD_RECHECK_MS = 60_000

export interface NotificationGateDeps {
  clock: Clock
  tz: TzOffset
  settings: () => Settings
  /** A watched project's name, as every surface shows it. */
  projectName: (connectionId: string, projectId: string) => string
  /** The connection's name when several exist (a notification then says which account); else null. */
  connectionLabel: (connectionId: string) => string | null
  /** An account's name, which a notification about another service's task always says. */
  accountName: (connectionId: string) => string
  deliver: (notification: Notification) => void
  onError: (context: string, error: unknown) => void
  /** Current cost and usual cost, null when no longer unusual, 'wait' while its project is not listed since start. */
  unusualNow: (event: UnusualEvent) => { costUsd: number; usualUsd: number } | null | 'wait'
  /** What a held task asks now: the same question still (told), null when answered or gone (dropped), 'wait' while its
   * account is not polled since start. Without it, a held question is told as it was seen. */
  waitingNow?: (event: WaitingEvent) => WaitingEvent['waiting'] | null | 'wait'
  /** Where held events are kept across restarts (state.json); in memory only without it. */
  held?: { read(): HeldEvent[]; write(events: HeldEvent[]): void }
}

export interface NotificationGate {
  /** One round of a connection's changes (a monitor cycle). */
  announce(connectionId: string, batch: NotificationBatch): void
  /** Whether notifications are held back at this moment (paused or quiet hours). */
  heldBack(): boolean
  dispose(): void
}

/** Muted events are not wanted at all, held or not, on the desktop or forwarded. */
export function unmutedEvents<E extends { projectId: string | null }>(
  settings: Settings,
  connectionId: string,
  events: readonly E[]
): E[] {
  if (settings.connectionNotifications[connectionId]?.muted === true) return []
  // An account-wide event (projectId null) is never in the set of muted projects.
  const muted = new Set<string | null>(settings.watched[connectionId]?.filter((w) => w.muted).map((w) => w.projectId))
  return events.filter((e) => !muted.has(e.projectId))
}

export function createNotificationGate(deps: NotificationGateDeps): NotificationGate {
  const hold = new Hold(deps.held?.read() ?? [], (events) => deps.held?.write(events))
  let recheck: TimerHandle | null = null
  let disposed = false

  const offsetAt = (at: Date): number => (typeof deps.tz === 'number' ? deps.tz : deps.tz(at))

  function heldBackAt(settings: Settings, at: Date): boolean {
    const prefs = settings.notifications
    return pauseInEffect(prefs.pausedUntil, at.getTime()) || inQuietHours(prefs.quietHours, at, offsetAt(at))
  }

  function scheduleRecheck(): void {
    if (recheck !== null || disposed) return
    recheck = deps.clock.setTimeout(() => {
      recheck = null
      // Stryker disable next-line ArrayDeclaration,BooleanLiteral: equivalent, a look again has no events of its own (a stray non-event is neither held nor told) and what is held does not read `away`
      round({ events: [], away: false }, null)
    }, HELD_RECHECK_MS)
  }

  // A held event is told only if it still holds (same budget and limit, task still costly, nothing muted): it would
  // otherwise urge a look at something there is no longer reason to look at.
  function stillHolds(e: HeldEvent, settings: Settings): HeldVerdict {
    if (settings.connectionNotifications[e.connectionId]?.muted === true) return null
    // Another service's task is on no watch list: its account's mute (above) is what applies.
    if (e.kind === 'agent-waiting') {
      const waiting = deps.waitingNow ? deps.waitingNow(e) : e.waiting
      return waiting === null || waiting === 'wait' ? waiting : { ...e, waiting }
    }
    if (e.kind === 'unit-budget') {
      const budget = settings.unitBudgets[e.connectionId]?.find((b) => b.id === e.budgetId)
      return budget && budget.limit === e.limit ? e : null
    }
    if (e.projectId !== null) {
      const w = settings.watched[e.connectionId]?.find((x) => x.projectId === e.projectId)
      if (!w || w.muted) return null
    }
    if (e.kind === 'budget') {
      const budget = settings.budgets[e.connectionId]?.find((b) => b.id === e.budgetId)
      return budget && budget.limitUsd === e.budgetUsd ? e : null
    }
    const now = deps.unusualNow(e)
    return now === null || now === 'wait' ? now : { ...e, costUsd: now.costUsd, usualUsd: now.usualUsd }
  }

  function round(batch: NotificationBatch, connectionId: string | null): void {
    const settings = deps.settings()
    const at = new Date(deps.clock.now())
    const account = (id: string) => settings.connectionNotifications[id]
    const accountPaused = (id: string) => pauseInEffect(account(id)?.pausedUntil, at.getTime())
    // Stryker disable next-line ArrayDeclaration: equivalent, a round without a connection is a look again, whose batch is empty
    let events = connectionId === null ? [...batch.events] : unmutedEvents(settings, connectionId, batch.events)
    if (heldBackAt(settings, at)) {
      hold.hold(events)
      if (hold.size > 0) scheduleRecheck()
      return
    }
    // One account paused: its round waits (what outlasts it is told once it is not).
    if (connectionId !== null && accountPaused(connectionId)) {
      hold.hold(events)
      // Stryker disable next-line ArrayDeclaration: equivalent, a stray non-event is neither held nor told
      events = []
    }
    const released = hold.release((e) => stillHolds(e, settings))
    hold.hold(released.filter((e) => accountPaused(e.connectionId)))
    events = [...events, ...released.filter((e) => !accountPaused(e.connectionId))]
    if (hold.size > 0) scheduleRecheck()
    let decided: Notification[]
    try {
      decided = decideNotifications({ ...batch, events }, settings.notifications, {
        projectName: deps.projectName,
        accountName: deps.accountName
      })
    } catch (error) {
      deps.onError('deciding notifications', error)
      return
    }
    for (const n of decided) {
      // Another service's task is said with its account already ("Jules · Personal").
      const label =
        n.connectionId === undefined || n.service !== undefined ? null : deps.connectionLabel(n.connectionId)
      deps.deliver(label === null ? n : { ...n, title: `${n.title} · ${label}` })
    }
  }

  // What waited when the app last ran is looked at again soon, as if it had just been held.
  if (hold.size > 0) scheduleRecheck()

  return {
    announce: (connectionId, batch) => round(batch, connectionId),
    heldBack: () => heldBackAt(deps.settings(), new Date(deps.clock.now())),
    dispose() {
      disposed = true
      if (recheck !== null) deps.clock.clearTimeout(recheck)
      recheck = null
    }
  }
}
