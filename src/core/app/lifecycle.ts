// Polling pauses while asleep or offline and polls once on waking. The power and network sources come in as plain
// emitters, so this wiring is tested without Electron.
import type { OnlineWatcher } from './online'

export type PowerEvent = 'suspend' | 'resume' | 'lock-screen' | 'unlock-screen'

/** What we use of Electron's powerMonitor. */
export interface PowerEvents {
  on(event: PowerEvent, listener: () => void): unknown
  off(event: PowerEvent, listener: () => void): unknown
}

/** Starts watching the network; `onChange` gets the first state and every change after. */
export type StartOnlineWatcher = (onChange: (online: boolean) => void) => OnlineWatcher

export function wireLifecycle(deps: {
  powerMonitor: PowerEvents
  watchOnline: StartOnlineWatcher
  /** The controller's (ports.ts imports this file's types: no import of the controller back). */
  controller: { suspend(): void; resume(): void; setOnline(online: boolean): void }
  onOnlineChange: (online: boolean) => void
  log: (message: string) => void
}): () => void {
  const online = deps.watchOnline((value) => {
    deps.log(`lifecycle: ${value ? 'online' : 'offline'}`)
    deps.controller.setOnline(value)
    deps.onOnlineChange(value)
  })
  // Some systems report one wake twice: only the first resume after a suspend counts.
  let asleep = false
  const listeners: Record<PowerEvent, () => void> = {
    suspend: () => {
      deps.log('lifecycle: suspend')
      asleep = true
      deps.controller.suspend()
    },
    resume: () => {
      // The network may have changed while asleep: learn that before the catch-up poll.
      online.check()
      if (!asleep) return deps.log('lifecycle: resume without a suspend, ignored')
      deps.log('lifecycle: resume')
      asleep = false
      deps.controller.resume()
    },
    // A locked screen still wants its notifications: polling goes on.
    'lock-screen': () => deps.log('lifecycle: screen locked'),
    'unlock-screen': () => deps.log('lifecycle: screen unlocked')
  }
  const events = Object.keys(listeners) as PowerEvent[]
  for (const event of events) deps.powerMonitor.on(event, listeners[event])
  return () => {
    online.stop()
    for (const event of events) deps.powerMonitor.off(event, listeners[event])
  }
}
