import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { isAway } from './away'
import { AT_THE_DESK, type IdleState, watchPresence } from './presence-watch'

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

describe('presence, read as the OS may give it', () => {
  it('an idle time that is no time counts as none; the idle state asked for its lock alone', () => {
    const { system, source } = fakeSource()
    const thresholds: number[] = []
    const watch = watchPresence({ ...source, getSystemIdleState: (s: number) => (thresholds.push(s), system.state) })
    for (const idle of [-5, Number.NaN, Number.POSITIVE_INFINITY, 0]) {
      system.idleSeconds = idle
      expect(watch.now(), String(idle)).toEqual({ locked: false, idleMs: 0 })
    }
    system.idleSeconds = 0.5
    expect(watch.now().idleMs).toBe(500)
    expect(thresholds.every((s) => s === 1)).toBe(true)
  })

  it('an idle state that throws counts as present, whatever the idle time said', () => {
    const { system, source } = fakeSource()
    system.idleSeconds = 400
    const watch = watchPresence({
      ...source,
      getSystemIdleState: () => {
        throw new Error('no')
      }
    })
    expect(watch.now()).toEqual({ locked: false, idleMs: 400_000 })
  })

  it('nobody reading presence: at the desk', () => {
    expect(AT_THE_DESK.now()).toEqual({ locked: false, idleMs: 0 })
    expect(() => AT_THE_DESK.dispose()).not.toThrow()
  })
})

describe('isAway', () => {
  it('locked, or idle at least the set time', () => {
    expect(isAway({ locked: true, idleMs: 0 })).toBe(true)
    expect(isAway({ locked: false, idleMs: 299_999 })).toBe(false)
    expect(isAway({ locked: false, idleMs: 300_000 })).toBe(true)
    expect(isAway({ locked: false, idleMs: 10 }, 10)).toBe(true)
    expect(isAway({ locked: false, idleMs: 9 }, 10)).toBe(false)
  })
})
