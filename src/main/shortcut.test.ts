import { describe, expect, it } from 'vitest'
import { SHOW_HIDE_ACCELERATOR, registerShowHideShortcut } from './shortcut'

function notice(shown: boolean) {
  const n = { shown, remembered: [] as boolean[], remember: (v: boolean) => void n.remembered.push(v) }
  return n
}

describe('registerShowHideShortcut', () => {
  it('registers the accelerator to the toggle and unregisters on dispose', () => {
    const registered = new Map<string, () => void>()
    let toggles = 0
    const told: string[] = []
    const n = notice(false)
    const r = registerShowHideShortcut({
      globalShortcut: {
        register: (a, cb) => (registered.set(a, cb), true),
        unregister: (a) => void registered.delete(a)
      },
      toggle: () => toggles++,
      log: () => {},
      tellUser: (m) => told.push(m),
      notice: n
    })
    expect(r.registered).toBe(true)
    registered.get(SHOW_HIDE_ACCELERATOR)!()
    expect(toggles).toBe(1)
    expect(told).toEqual([])
    expect(n.remembered).toEqual([])
    r.dispose()
    expect(registered.size).toBe(0)
  })

  it('logs and tells the user when the keys are taken, or registration throws, and remembers it', () => {
    for (const register of [() => false, () => { throw new Error('bad accelerator') }]) {
      const logs: string[] = []
      const told: string[] = []
      let unregistered = 0
      const n = notice(false)
      const r = registerShowHideShortcut({
        globalShortcut: { register, unregister: () => void unregistered++ },
        toggle: () => {},
        log: (m) => logs.push(m),
        tellUser: (m) => told.push(m),
        notice: n
      })
      expect(r.registered).toBe(false)
      expect(told).toHaveLength(1)
      expect(told[0]).toMatch(/used by another application/)
      expect(n.remembered).toEqual([true])
      expect(logs.length).toBeGreaterThan(0)
      r.dispose()
      expect(unregistered).toBe(0)
    }
  })

  it('does not tell the user again on later launches, but still logs', () => {
    const logs: string[] = []
    const told: string[] = []
    const n = notice(true)
    registerShowHideShortcut({
      globalShortcut: { register: () => false, unregister: () => {} },
      toggle: () => {},
      log: (m) => logs.push(m),
      tellUser: (m) => told.push(m),
      notice: n
    })
    expect(told).toEqual([])
    expect(n.remembered).toEqual([])
    expect(logs.join('\n')).toMatch(/taken by another application/)
  })

  it('forgets the notice once the keys are ours again, so a later conflict is told', () => {
    const n = notice(true)
    registerShowHideShortcut({
      globalShortcut: { register: () => true, unregister: () => {} },
      toggle: () => {},
      log: () => {},
      tellUser: () => {},
      notice: n
    })
    expect(n.remembered).toEqual([false])
  })
})
