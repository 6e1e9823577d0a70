// Main polls net.isOnline() because the renderer's navigator.onLine is gone while the window is closed. Only "offline"
// is trusted; the monitor's own errors cover a service that does not answer.

export interface Timers {
  setInterval(fn: () => void, ms: number): unknown
  clearInterval(handle: unknown): void
}

export interface OnlineWatcher {
  /** Checks now (e.g. right after the machine wakes). */
  check(): void
  stop(): void
}

export const ONLINE_CHECK_MS = 10_000

export function watchOnline(options: {
  isOnline: () => boolean
  onChange: (online: boolean) => void
  timers: Timers
  intervalMs?: number
}): OnlineWatcher {
  let last: boolean | null = null
  const check = (): void => {
    let now: boolean
    try {
      now = options.isOnline()
    } catch {
      // A failing probe must not stop polling: assume online and let requests tell.
      now = true
    }
    if (now !== last) {
      last = now
      options.onChange(now)
    }
  }
  check()
  const handle = options.timers.setInterval(check, options.intervalMs ?? ONLINE_CHECK_MS)
  return { check, stop: () => options.timers.clearInterval(handle) }
}
