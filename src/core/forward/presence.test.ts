import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { isAway } from './away'
import { watchPresence, type IdleState } from './presence'

/** powerMonitor as a test drives it: lock events, the idle time, the idle state's 'locked'. */
function fakeSource() {
  const events = new EventEmitter()
  const system = { idleSeconds: 0, state: 'active' as IdleState, throws: false }
  const source = {
    on: (e: 'lock-screen' | 'unlock-screen', l: () => void) => events.on(e, l),
    off: (e: 'lock-screen' | 'unlock-screen', l: () => void) => events.off(e, l),
    getSystemIdleTime: () => {
      if (system.throws) throw new Error('no idle time here')
      return system.idleSeconds
    },
    getSystemIdleState: () => system.state
  }
  return { events, system, source }
}

describe('presence', () => {
  it('locked by the lock event until the unlock, or by the idle state; idle time in ms; each lock or unlock told', () => {
    const { events, system, source } = fakeSource()
    let told = 0
    const watch = watchPresence(source, () => told++)
    expect(watch.now()).toEqual({ locked: false, idleMs: 0 })
    events.emit('lock-screen')
    expect(watch.now().locked).toBe(true)
    expect(isAway(watch.now())).toBe(true)
    events.emit('unlock-screen')
    expect(watch.now().locked).toBe(false)
    expect(told).toBe(2)
    // Linux sends no lock event: its screensaver's state says it.
    system.state = 'locked'
    expect(watch.now().locked).toBe(true)
    system.state = 'idle'
    system.idleSeconds = 301
    expect(watch.now()).toEqual({ locked: false, idleMs: 301_000 })
    expect(isAway(watch.now())).toBe(true)
  })

  it('a source that cannot tell counts as present; dispose stops listening', () => {
    const { events, system, source } = fakeSource()
    const watch = watchPresence(source)
    system.throws = true
    expect(watch.now()).toEqual({ locked: false, idleMs: 0 })
    watch.dispose()
    expect(events.listenerCount('lock-screen') + events.listenerCount('unlock-screen')).toBe(0)
    events.emit('lock-screen')
    system.throws = false
    expect(watch.now().locked).toBe(false)
  })
})
