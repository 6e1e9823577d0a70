// Bounds are written shortly after a move or resize stops and at once on close or quit; writes follow one another,
// so an older one can never land last.
import type { WindowState } from '../shared/settings'

export interface TimeoutTimers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export interface BoundsSaver {
  /** The window moved or was resized: write once it has been still for `delayMs`. */
  schedule(): void
  /** Write now (close, quit), instead of any scheduled write; resolves once every write is done. */
  flush(): Promise<void>
  /** Forgets a scheduled write. */
  cancel(): void
}

export const BOUNDS_SAVE_DELAY_MS = 500

export function sameWindowState(a: WindowState | undefined, b: WindowState | undefined): boolean {
  if (!a || !b) return a === b
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height && a.maximized === b.maximized
}

export function createBoundsSaver(options: {
  /** The window's state now, or null when there is no window to ask. */
  capture: () => WindowState | null
  save: (state: WindowState) => Promise<void>
  /** What the settings hold already (nothing to write until it changes). */
  saved?: WindowState
  timers: TimeoutTimers
  delayMs?: number
  log: (message: string) => void
}): BoundsSaver {
  let lastSaved = options.saved
  let timer: unknown = null
  let writes: Promise<void> = Promise.resolve()

  const cancel = (): void => {
    if (timer !== null) options.timers.clearTimeout(timer)
    timer = null
  }

  const writeNow = (): Promise<void> => {
    cancel()
    let state: WindowState | null
    try {
      state = options.capture()
    } catch (err) {
      options.log(`window: could not read its bounds: ${err instanceof Error ? err.message : String(err)}`)
      state = null
    }
    if (state && !sameWindowState(state, lastSaved)) {
      const next = state
      lastSaved = next
      writes = writes.then(() =>
        options.save(next).catch((err: unknown) => {
          options.log(`window: could not remember its bounds: ${err instanceof Error ? err.message : String(err)}`)
        })
      )
    }
    return writes
  }

  return {
    schedule() {
      cancel()
      timer = options.timers.setTimeout(() => {
        timer = null
        void writeNow()
      }, options.delayMs ?? BOUNDS_SAVE_DELAY_MS)
    },
    flush: writeNow,
    cancel
  }
}
