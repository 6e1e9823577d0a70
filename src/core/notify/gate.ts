// The notification gate: the one place that decides whether a round of changes may be told now.
// It owns pause, quiet hours and mute (app-wide, per account and per project), keeps budget
// crossings that arrive while notifications are held back (budget-hold.ts, saved across restarts),
// and looks again once a minute while any wait. What a notification says is the policy's (policy.ts); what the OS shows
// is the notifier's.
import type { TzOffset } from '../../shared/cost'
import type { Settings } from '../../shared/settings'
import type { Clock, TimerHandle } from '../util/clock'
import { BudgetHold, type BudgetEvent } from './budget-hold'
import { decideNotifications, inQuietHours, notificationsPaused, type Notification, type NotificationBatch } from './policy'

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
  deliver: (notification: Notification) => void
  onError: (context: string, error: unknown) => void
  /** Where held budget crossings are kept across restarts (state.json); in memory only without it. */
  held?: { read(): BudgetEvent[]; write(events: BudgetEvent[]): void }
}

export interface NotificationGate {
  /** One round of a connection's changes (a monitor cycle). */
  announce(connectionId: string, batch: NotificationBatch): void
  /** Whether notifications are held back at this moment (paused or quiet hours). */
  heldBack(): boolean
  dispose(): void
}

export function createNotificationGate(deps: NotificationGateDeps): NotificationGate {
  const hold = new BudgetHold(deps.held?.read() ?? [], (events) => deps.held?.write(events))
  let recheck: TimerHandle | null = null
  let disposed = false

  const offsetAt = (at: Date): number => (typeof deps.tz === 'number' ? deps.tz : deps.tz(at))

  function heldBackAt(settings: Settings, at: Date): boolean {
    const prefs = settings.notifications
    return notificationsPaused(prefs, at) || inQuietHours(prefs.quietHours, at, offsetAt(at))
  }

  function scheduleRecheck(): void {
    if (recheck !== null || disposed) return
    recheck = deps.clock.setTimeout(() => {
      recheck = null
      if (hold.size > 0) round({ events: [], away: false }, null)
    }, HELD_RECHECK_MS)
  }

  function round(batch: NotificationBatch, connectionId: string | null): void {
    const settings = deps.settings()
    const at = new Date(deps.clock.now())
    const watchedOf = (id: string) => settings.watched[id] ?? []
    const account = (id: string) => settings.connectionNotifications[id]
    const accountMuted = (id: string) => account(id)?.muted === true
    const accountPaused = (id: string) => {
      const until = account(id)?.pausedUntil
      return typeof until === 'string' && Date.parse(until) > at.getTime()
    }
    // Muted projects, and every project of a muted account, are not wanted at all, held or not.
    const muted = connectionId === null ? new Set<string>() : new Set(watchedOf(connectionId).filter((w) => w.muted).map((w) => w.projectId))
    let events = connectionId !== null && accountMuted(connectionId) ? [] : batch.events.filter((e) => e.projectId === null || !muted.has(e.projectId))
    if (heldBackAt(settings, at)) {
      hold.hold(events)
      if (hold.size > 0) scheduleRecheck()
      return
    }
    // One account paused: its round waits (its budget crossings are told once it is not).
    if (connectionId !== null && accountPaused(connectionId)) {
      hold.hold(events)
      events = []
    }
    if (hold.size > 0) {
      // Told only if it still holds: the budget still there with the same limit, its project still watched, not muted since.
      const released = hold.release((e) => {
        if (accountMuted(e.connectionId)) return undefined
        const budget = (settings.budgets[e.connectionId] ?? []).find((b) => b.id === e.budgetId)
        if (!budget) return undefined
        if (e.projectId === null) return { limitUsd: budget.limitUsd, muted: false }
        const w = watchedOf(e.connectionId).find((x) => x.projectId === e.projectId)
        return w && { limitUsd: budget.limitUsd, muted: w.muted }
      })
      const stillPaused = released.filter((e) => accountPaused(e.connectionId))
      hold.hold(stillPaused)
      events = [...events, ...released.filter((e) => !accountPaused(e.connectionId))]
    }
    if (hold.size > 0) scheduleRecheck()
    if (events.length === 0) return
    let decided: Notification[]
    try {
      decided = decideNotifications({ ...batch, events }, settings.notifications, { projectName: deps.projectName })
    } catch (error) {
      deps.onError('deciding notifications', error)
      return
    }
    for (const n of decided) {
      const label = n.connectionId === undefined ? null : deps.connectionLabel(n.connectionId)
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
