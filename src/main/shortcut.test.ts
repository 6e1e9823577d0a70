import { describe, expect, it } from 'vitest'
import { SHOW_HIDE_ACCELERATOR, registerShowHideShortcut } from './shortcut'

describe('registerShowHideShortcut', () => {
  it('registers the accelerator to the toggle and unregisters on dispose', () => {
    const registered = new Map<string, () => void>()
    let toggles = 0
    const told: string[] = []
    const r = registerShowHideShortcut({
      globalShortcut: {
        register: (a, cb) => (registered.set(a, cb), true),
        unregister: (a) => void registered.delete(a)
      },
      toggle: () => toggles++,
      log: () => {},
      tellUser: (m) => told.push(m)
    })
    expect(r.registered).toBe(true)
    registered.get(SHOW_HIDE_ACCELERATOR)!()
    expect(toggles).toBe(1)
    expect(told).toEqual([])
    r.dispose()
    expect(registered.size).toBe(0)
  })

  it('logs and tells the user once when the keys are taken, or registration throws', () => {
    for (const register of [() => false, () => { throw new Error('bad accelerator') }]) {
      const logs: string[] = []
      const told: string[] = []
      let unregistered = 0
      const r = registerShowHideShortcut({
        globalShortcut: { register, unregister: () => void unregistered++ },
        toggle: () => {},
        log: (m) => logs.push(m),
        tellUser: (m) => told.push(m)
      })
      expect(r.registered).toBe(false)
      expect(told).toHaveLength(1)
      expect(told[0]).toMatch(/used by another application/)
      expect(logs.length).toBeGreaterThan(0)
      r.dispose()
      expect(unregistered).toBe(0)
    }
  })
})
