import { describe, expect, it } from 'vitest'
import { checkAccelerator } from '../../shared/accelerator'
import { acceleratorFromKeys, type KeyPress, shortcutCaps } from './shortcut'

const press = (code: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key: '',
  code,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods
})

describe('acceleratorFromKeys', () => {
  it('Ctrl elsewhere and Cmd on macOS are both CommandOrControl', () => {
    expect(acceleratorFromKeys(press('KeyA', { ctrlKey: true, shiftKey: true }), false)).toBe(
      'CommandOrControl+Shift+A'
    )
    expect(acceleratorFromKeys(press('KeyA', { metaKey: true, shiftKey: true }), true)).toBe('CommandOrControl+Shift+A')
    expect(acceleratorFromKeys(press('KeyK', { ctrlKey: true, metaKey: true }), true)).toBe(
      'CommandOrControl+Control+K'
    )
    expect(acceleratorFromKeys(press('Space', { metaKey: true, altKey: true }), false)).toBe('Super+Alt+Space')
  })

  it('reads the key by position, and waits while only modifiers are held', () => {
    expect(acceleratorFromKeys(press('Digit1', { ctrlKey: true, shiftKey: true, key: '!' }), false)).toBe(
      'CommandOrControl+Shift+1'
    )
    expect(acceleratorFromKeys(press('F7'), false)).toBe('F7')
    expect(acceleratorFromKeys(press('ControlLeft', { ctrlKey: true }), false)).toBeNull()
    expect(acceleratorFromKeys(press('IntlBackslash', { ctrlKey: true }), false)).toBeNull()
  })

  it('gives what the shared rule accepts', () => {
    const made = acceleratorFromKeys(press('ArrowUp', { altKey: true }), false)!
    expect(checkAccelerator(made)).toEqual({ ok: true, accelerator: 'Alt+Up' })
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
