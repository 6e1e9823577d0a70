import { describe, expect, it } from 'vitest'
import { registerShowHideShortcut, SHOW_HIDE_ACCELERATOR } from './shortcut'

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
    for (const register of [
      () => false,
      () => {
        throw new Error('bad accelerator')
      }
    ]) {
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

describe('changing the shortcut', () => {
  function fakeShortcuts(refused: string[]) {
    const registered = new Map<string, () => void>()
    return {
      registered,
      globalShortcut: {
        register: (a: string, cb: () => void) => {
          if (refused.includes(a) || registered.has(a)) return false
          registered.set(a, cb)
          return true
        },
        unregister: (a: string) => void registered.delete(a)
      }
    }
  }
  const base = (g: ReturnType<typeof fakeShortcuts>) => ({
    globalShortcut: g.globalShortcut,
    toggle: () => {},
    log: () => {},
    tellUser: () => {},
    notice: notice(false)
  })

  it('takes the new keys and lets the old ones go', () => {
    const g = fakeShortcuts([])
    const s = registerShowHideShortcut(base(g))
    expect(s.change('Control+Alt+K')).toBeNull()
    expect([...g.registered.keys()]).toEqual(['Control+Alt+K'])
    expect(s.accelerator).toBe('Control+Alt+K')
    s.dispose()
    expect(g.registered.size).toBe(0)
  })

  it('refuses keys another application has, with the reason, and keeps the old ones registered', () => {
    const g = fakeShortcuts(['Control+Alt+T'])
    const s = registerShowHideShortcut(base(g))
    const reason = s.change('Control+Alt+T')
    expect(reason).toMatch(/Alt\+T cannot be used: another application has it/)
    expect(reason).toMatch(/stays (Ctrl|Cmd)\+Shift\+A/)
    expect([...g.registered.keys()]).toEqual([SHOW_HIDE_ACCELERATOR])
    expect(s.accelerator).toBe(SHOW_HIDE_ACCELERATOR)
    expect(s.registered).toBe(true)
  })

  it('keys the system throws on are refused the same way', () => {
    const g = fakeShortcuts([])
    const s = registerShowHideShortcut({
      ...base(g),
      globalShortcut: {
        ...g.globalShortcut,
        register: (a: string, cb: () => void) => {
          if (a !== SHOW_HIDE_ACCELERATOR) throw new Error('conversion failure')
          return g.globalShortcut.register(a, cb)
        }
      }
    })
    expect(s.change('Super+Space')).toMatch(/cannot be used/)
    expect(s.registered).toBe(true)
  })
})
