import { describe, expect, it } from 'vitest'
import { checkAccelerator } from '../../shared/accelerator'
import { acceleratorFromKeys, type KeyPress } from './shortcut'

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
