// Live refresh: a screen refetches when the app reports a change it shows, once per burst. The one
// debounce of the window's refetches.
import type { EventChannel, EventContract } from '../../shared/ipc'
import type { MonitorEvent } from '../../shared/monitor'
import { bridge } from './bridge'

/** Calls `refresh` `delayMs` after the last matching event on `channel` of a burst; returns the unsubscribe. */
export function refreshOnEvents<E extends EventChannel>(
  channel: E,
  matches: (payload: EventContract[E]) => boolean,
  refresh: () => void,
  delayMs: number
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const off = bridge().on(channel, (payload) => {
    if (!matches(payload)) return
    clearTimeout(timer)
    timer = setTimeout(refresh, delayMs)
  })
  return () => {
    clearTimeout(timer)
    off()
  }
}

/** The usual case: what the monitor reports (`monitor:event`). */
export function refreshOnMonitorEvents(
  matches: (event: MonitorEvent) => boolean,
  refresh: () => void,
  delayMs: number
): () => void {
  return refreshOnEvents('monitor:event', matches, refresh, delayMs)
}
