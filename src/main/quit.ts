// The quit is held while every shutdown step runs in order, bounds first while the window exists; a second Quit waits
// too, and a step that hangs is given up after a time limit.
import type { TimeoutTimers } from './bounds-saver'

export interface ShutdownStep {
  name: string
  run: () => Promise<void> | void
}

export const SHUTDOWN_TIMEOUT_MS = 5_000

/** Returns the before-quit listener. */
export function createQuitHandler(options: {
  steps: ShutdownStep[]
  /** app.quit(): fires before-quit again, which then goes through. */
  quit: () => void
  timers: TimeoutTimers
  timeoutMs?: number
  log: (message: string) => void
}): (event: { preventDefault(): void }) => void {
  let phase: 'running' | 'idle' | 'done' = 'idle'
  return (event) => {
    if (phase === 'done') return
    event.preventDefault()
    if (phase === 'running') return
    phase = 'running'
    const shutdown = (async () => {
      for (const step of options.steps) {
        try {
          await step.run()
        } catch (err) {
          options.log(`shutdown: ${step.name}: ${err instanceof Error ? err.message : String(err)}`)
        }
      }
    })()
    let handle: unknown = null
    // Never hang on the way out: whatever is not written by then is lost rather than the quit.
    const timeout = new Promise<void>((resolve) => {
      handle = options.timers.setTimeout(() => {
        options.log('shutdown: took too long, quitting anyway')
        resolve()
      }, options.timeoutMs ?? SHUTDOWN_TIMEOUT_MS)
    })
    void Promise.race([shutdown, timeout]).then(() => {
      options.timers.clearTimeout(handle)
      phase = 'done'
      options.quit()
    })
  }
}
