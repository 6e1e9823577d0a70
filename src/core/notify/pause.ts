// When a pause ends, and timers to tell the window: it shows a pause until it ends, and nothing else would make it
// look again.
import type { Clock, TimerHandle } from '../util/clock'

/** The longest pause one asks for: a day. Longer is muting. */
export const MAX_PAUSE_MINUTES = 1440

/** When a pause of `minutes` from `now` (ms) ends, as it is stored (ISO). */
export function pauseEnd(now: number, minutes: number): string {
  return new Date(now + minutes * 60_000).toISOString()
}

/** Whether a pause lasting until `until` (ISO; null or absent: none) is in effect at `now` (ms). */
export function pauseInEffect(until: string | null | undefined, now: number): boolean {
  if (typeof until !== 'string') return false
  const end = Date.parse(until)
  return Number.isFinite(end) && end > now
}

/** The pause's end while it is in effect, else null: what the window and the tray show. */
export function pauseShown(until: string | null | undefined, now: number): string | null {
  return pauseInEffect(until, now) ? (until as string) : null
}

/** Every account's pause (the app-wide one), or one account's by its connection id. */
export type PauseScope = { all: true } | { connectionId: string }

/** One timer per pause scope, replaced by a new pause and cleared by a resume or the account's removal. */
export interface PauseTimers {
  /** After a pause lasting until `until` (ISO, as stored; null: none) was stored or read at start. */
  paused(scope: PauseScope, until: string | null): void
  /** The account is gone: its pause with it. */
  forget(connectionId: string): void
  dispose(): void
}

export function createPauseTimers(clock: Clock, ended: () => void): PauseTimers {
  const timers = new Map<string, TimerHandle>()
  let disposed = false
  // The app-wide pause cannot share a key with an account: connection ids are never empty.
  const keyOf = (scope: PauseScope): string => ('all' in scope ? '' : scope.connectionId)
  const clear = (key: string): void => {
    const timer = timers.get(key)
    if (timer === undefined) return
    clock.clearTimeout(timer)
    timers.delete(key)
  }
  return {
    paused(scope, until) {
      const key = keyOf(scope)
      clear(key)
      if (disposed || !pauseInEffect(until, clock.now())) return
      // One millisecond past the end: then the pause is no longer in effect (pauseInEffect is strict).
      const timer = clock.setTimeout(
        () => {
          timers.delete(key)
          ended()
        },
        Date.parse(until as string) - clock.now() + 1
      )
      timers.set(key, timer)
    },
    forget: (connectionId) => clear(connectionId),
    dispose() {
      disposed = true
      for (const key of [...timers.keys()]) clear(key)
    }
  }
}
