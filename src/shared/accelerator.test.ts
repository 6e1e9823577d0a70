import { describe, expect, it } from 'vitest'
import { acceleratorLabel, checkAccelerator, DEFAULT_SHORTCUT, shortcutCaps } from './accelerator'

describe('checkAccelerator', () => {
  it('accepts the default and gives typed shortcuts their canonical spelling', () => {
    expect(checkAccelerator(DEFAULT_SHORTCUT)).toEqual({ ok: true, accelerator: DEFAULT_SHORTCUT })
    expect(checkAccelerator(' ctrl+shift+a ')).toEqual({ ok: true, accelerator: 'Control+Shift+A' })
    expect(checkAccelerator('cmdorctrl+alt+f12')).toEqual({ ok: true, accelerator: 'CommandOrControl+Alt+F12' })
    expect(checkAccelerator('Super+space')).toEqual({ ok: true, accelerator: 'Super+Space' })
    expect(checkAccelerator('Control++')).toEqual({ ok: true, accelerator: 'Control+Plus' })
    expect(checkAccelerator('F9')).toEqual({ ok: true, accelerator: 'F9' })
    expect(checkAccelerator('f24')).toEqual({ ok: true, accelerator: 'F24' })
  })

  it('takes number-pad digits and punctuation keys, and spaces around each part', () => {
    expect(checkAccelerator('alt+NUM5')).toEqual({ ok: true, accelerator: 'Alt+num5' })
    expect(checkAccelerator('Control+;')).toEqual({ ok: true, accelerator: 'Control+;' })
    expect(checkAccelerator('Control+/')).toEqual({ ok: true, accelerator: 'Control+/' })
    expect(checkAccelerator('Control + Shift + a')).toEqual({ ok: true, accelerator: 'Control+Shift+A' })
  })

  it('takes a shortcut of up to 100 characters, spaces between the parts counted', () => {
    const of = (length: number) => `Control+${' '.repeat(length - 'Control+A'.length)}A`
    expect(of(100)).toHaveLength(100)
    expect(checkAccelerator(of(100))).toEqual({ ok: true, accelerator: 'Control+A' })
    expect(checkAccelerator(of(101))).toEqual({ ok: false, problem: 'A shortcut is at most 100 characters.' })
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
    expect(problem('   ')).toMatch(/Enter a shortcut/)
    expect(problem('Control + Hyper + A')).toBe(
      '"Hyper" is not a modifier: use CommandOrControl, Control, Alt, Shift or Super.'
    )
    // Only the keys Electron knows, whole: not a longer name that holds one, nor a letter of another alphabet.
    for (const key of ['xf1', 'f1x', 'num55', 'xnum5', 'numa', 'é', 'Foo']) {
      expect(problem(`Control+${key}`), key).toBe(
        `"${key}" is not a key a shortcut can use: end with a letter, a digit, F1 to F24 or a named key such as Space.`
      )
    }
    expect(problem(`Control+${'A'.repeat(200)}`)).toMatch(/at most 100/)
  })
})

describe('acceleratorLabel', () => {
  it('reads as the platform names its keys', () => {
    expect(acceleratorLabel(DEFAULT_SHORTCUT, false)).toBe('Ctrl+Shift+A')
    expect(acceleratorLabel(DEFAULT_SHORTCUT, true)).toBe('Cmd+Shift+A')
    expect(acceleratorLabel('Control+Alt+Space', true)).toBe('Ctrl+Option+Space')
    expect(acceleratorLabel('Control+Alt+Space', false)).toBe('Ctrl+Alt+Space')
    expect(acceleratorLabel('Command+Alt+K', true)).toBe('Cmd+Option+K')
  })
})

describe('shortcutCaps', () => {
  it('draws macOS modifiers as symbols in their order, and spells them out elsewhere', () => {
    expect(shortcutCaps('CommandOrControl+Shift+A', true)).toEqual({ caps: ['⇧', '⌘', 'A'], spoken: 'Shift Command A' })
    expect(shortcutCaps('CommandOrControl+Shift+A', false)).toEqual({
      caps: ['Ctrl', 'Shift', 'A'],
      spoken: 'Ctrl Shift A'
    })
    expect(shortcutCaps('Shift+Alt+Control+K', true).caps).toEqual(['⌃', '⌥', '⇧', 'K'])
    expect(shortcutCaps('Super+Alt+Space', false).caps).toEqual(['Super', 'Alt', 'Space'])
  })

  it('names arrows and other named keys, and never shows an accelerator’s spelling', () => {
    expect(shortcutCaps('Alt+Up', false)).toEqual({ caps: ['Alt', '↑'], spoken: 'Alt Up' })
    expect(shortcutCaps('Control+Return', true).caps).toEqual(['⌃', '↩'])
    expect(shortcutCaps('Control++', false).caps).toEqual(['Ctrl', '+'])
    expect(shortcutCaps('F7', false).caps).toEqual(['F7'])
    expect(shortcutCaps('CommandOrControl+Shift+A', false).caps.join(' ')).not.toContain('CommandOrControl')
  })
})
