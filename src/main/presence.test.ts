import { EventEmitter } from 'node:events'
import type { PowerMonitor } from 'electron'
import { expect, it } from 'vitest'
import { watchPresence } from '../core/forward/presence-watch'
import { presenceFrom } from './presence'

it("powerMonitor's lock events, idle time and idle state reach core's presence as they are", () => {
  const system = {
    idleSeconds: 42,
    state: 'active' as ReturnType<PowerMonitor['getSystemIdleState']>,
    thresholds: [] as number[]
  }
  const pm = Object.assign(new EventEmitter(), {
    getSystemIdleTime: () => system.idleSeconds,
    getSystemIdleState: (threshold: number) => (system.thresholds.push(threshold), system.state)
  }) as unknown as PowerMonitor
  const watch = watchPresence(presenceFrom(pm))
  expect(watch.now()).toEqual({ locked: false, idleMs: 42_000 })
  pm.emit('lock-screen')
  expect(watch.now().locked).toBe(true)
  pm.emit('unlock-screen')
  system.state = 'locked'
  expect(watch.now().locked).toBe(true)
  // Electron takes whole seconds.
  expect(system.thresholds.every((t) => Number.isInteger(t) && t >= 1)).toBe(true)
  watch.dispose()
  expect((pm as unknown as EventEmitter).listenerCount('lock-screen')).toBe(0)
})
