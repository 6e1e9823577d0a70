// Sleep, wake and the network: polling pauses while the machine sleeps or is offline, and polls
// everything right after waking (controller.resume does that).
import type { net, powerMonitor } from 'electron'
import type { AppController } from '../core/app/controller'
import { watchOnline } from './online'

export function wireLifecycle(deps: {
  powerMonitor: typeof powerMonitor
  net: typeof net
  controller: Pick<AppController, 'suspend' | 'resume' | 'setOnline'>
  onOnlineChange: (online: boolean) => void
  log: (message: string) => void
}): () => void {
  const online = watchOnline({
    isOnline: () => deps.net.isOnline(),
    onChange: (value) => {
      deps.log(`lifecycle: ${value ? 'online' : 'offline'}`)
      deps.controller.setOnline(value)
      deps.onOnlineChange(value)
    },
    timers: { setInterval: (fn, ms) => setInterval(fn, ms), clearInterval: (h) => clearInterval(h as NodeJS.Timeout) }
  })
  const onSuspend = (): void => {
    deps.log('lifecycle: suspend')
    deps.controller.suspend()
  }
  const onResume = (): void => {
    deps.log('lifecycle: resume')
    // The network may have changed while asleep: learn that before the catch-up poll.
    online.check()
    deps.controller.resume()
  }
  deps.powerMonitor.on('suspend', onSuspend)
  deps.powerMonitor.on('resume', onResume)
  return () => {
    online.stop()
    deps.powerMonitor.off('suspend', onSuspend)
    deps.powerMonitor.off('resume', onResume)
  }
}
