// Live refresh: a screen refetches when the monitor reports a change it shows, once per burst.
import type { MonitorEvent } from '../../shared/monitor'
import { bridge } from './bridge'

/** Calls `refresh` `delayMs` after the last matching monitor event of a burst; returns the unsubscribe. */
export function refreshOnMonitorEvents(matches: (event: MonitorEvent) => boolean, refresh: () => void, delayMs: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined
  const off = bridge().on('monitor:event', (event) => {
    if (!matches(event)) return
    clearTimeout(timer)
    timer = setTimeout(refresh, delayMs)
  })
  return () => {
    clearTimeout(timer)
    off()
  }
}
