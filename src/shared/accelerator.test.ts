import { describe, expect, it } from 'vitest'
import { acceleratorLabel, checkAccelerator, DEFAULT_SHORTCUT } from './accelerator'

describe('checkAccelerator', () => {
  it('accepts the default and gives typed shortcuts their canonical spelling', () => {
    expect(checkAccelerator(DEFAULT_SHORTCUT)).toEqual({ ok: true, accelerator: DEFAULT_SHORTCUT })
    expect(checkAccelerator(' ctrl+shift+a ')).toEqual({ ok: true, accelerator: 'Control+Shift+A' })
    expect(checkAccelerator('cmdorctrl+alt+f12')).toEqual({ ok: true, accelerator: 'CommandOrControl+Alt+F12' })
    expect(checkAccelerator('Super+space')).toEqual({ ok: true, accelerator: 'Super+Space' })
    expect(checkAccelerator('Control++')).toEqual({ ok: true, accelerator: 'Control+Plus' })
    expect(checkAccelerator('F9')).toEqual({ ok: true, accelerator: 'F9' })
  })

  it('refuses what would fire while typing, unknown parts and doubles, each with the reason', () => {
    const problem = (text: string) => {
      const checked = checkAccelerator(text)
      return checked.ok ? null : checked.problem
    }
    expect(problem('A')).toMatch(/needs CommandOrControl/)
    expect(problem('Shift+A')).toMatch(/needs CommandOrControl/)
    expect(problem('Hyper+A')).toMatch(/"Hyper" is not a modifier/)
    expect(problem('Control+Control+A')).toMatch(/given twice/)
    expect(problem('Control+Shift')).toMatch(/"Shift" is not a key/)
    expect(problem('Control+F25')).toMatch(/"F25" is not a key/)
    expect(problem('')).toMatch(/Enter a shortcut/)
    expect(problem(`Control+${'A'.repeat(200)}`)).toMatch(/at most 100/)
  })
})

describe('acceleratorLabel', () => {
  it('reads as the platform names its keys', () => {
    expect(acceleratorLabel(DEFAULT_SHORTCUT, false)).toBe('Ctrl+Shift+A')
    expect(acceleratorLabel(DEFAULT_SHORTCUT, true)).toBe('Cmd+Shift+A')
    expect(acceleratorLabel('Control+Alt+Space', true)).toBe('Ctrl+Option+Space')
  })
})
