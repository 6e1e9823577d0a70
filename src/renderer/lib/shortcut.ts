// Ctrl (Cmd on macOS) is recorded as CommandOrControl, so a shortcut recorded on one platform means the same on others.

export interface KeyPress {
  key: string
  code: string
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
  shiftKey: boolean
}

const NAMED: Record<string, string> = {
  Space: 'Space',
  Tab: 'Tab',
  Backspace: 'Backspace',
  Delete: 'Delete',
  Insert: 'Insert',
  Enter: 'Return',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  Home: 'Home',
  End: 'End',
  PageUp: 'PageUp',
  PageDown: 'PageDown',
  Escape: 'Escape'
}

/** The key of a press by its physical position (so Shift+1 is "1", not "!"); null for a bare modifier. */
function keyOf(press: KeyPress): string | null {
  const letter = /^Key([A-Z])$/.exec(press.code)
  if (letter) return letter[1]!
  const digit = /^(?:Digit|Numpad)([0-9])$/.exec(press.code)
  if (digit) return digit[1]!
  if (/^F([1-9]|1[0-9]|2[0-4])$/.test(press.code)) return press.code
  return NAMED[press.code] ?? null
}

/** The accelerator a press makes, or null while only modifiers are held. */
export function acceleratorFromKeys(press: KeyPress, mac: boolean): string | null {
  const key = keyOf(press)
  if (key === null) return null
  const parts: string[] = []
  if (mac ? press.metaKey : press.ctrlKey) parts.push('CommandOrControl')
  if (mac && press.ctrlKey) parts.push('Control')
  if (!mac && press.metaKey) parts.push('Super')
  if (press.altKey) parts.push('Alt')
  if (press.shiftKey) parts.push('Shift')
  return [...parts, key].join('+')
}

// macOS draws modifiers as symbols in its own order (⌃ ⌥ ⇧ ⌘); other desktops spell them out.
const MAC_CAPS: Record<string, { cap: string; word: string; order: number }> = {
  Control: { cap: '⌃', word: 'Control', order: 0 },
  Alt: { cap: '⌥', word: 'Option', order: 1 },
  AltGr: { cap: '⌥', word: 'Option', order: 1 },
  Shift: { cap: '⇧', word: 'Shift', order: 2 },
  CommandOrControl: { cap: '⌘', word: 'Command', order: 3 },
  Command: { cap: '⌘', word: 'Command', order: 3 },
  Super: { cap: '⌘', word: 'Command', order: 3 }
}
// Spoken as shown, so a screen reader's name holds what is seen (WCAG 2.5.3, label in name).
const OTHER_CAPS: Record<string, { cap: string; word: string; order: number }> = {
  CommandOrControl: { cap: 'Ctrl', word: 'Ctrl', order: 0 },
  Control: { cap: 'Ctrl', word: 'Ctrl', order: 0 },
  Command: { cap: 'Super', word: 'Super', order: 1 },
  Super: { cap: 'Super', word: 'Super', order: 1 },
  Alt: { cap: 'Alt', word: 'Alt', order: 2 },
  AltGr: { cap: 'AltGr', word: 'AltGr', order: 2 },
  Shift: { cap: 'Shift', word: 'Shift', order: 3 }
}
const KEY_CAPS: Record<string, [mac: string, other: string, word: string]> = {
  Up: ['↑', '↑', 'Up'],
  Down: ['↓', '↓', 'Down'],
  Left: ['←', '←', 'Left'],
  Right: ['→', '→', 'Right'],
  Return: ['↩', 'Enter', 'Return'],
  Enter: ['↩', 'Enter', 'Return'],
  Escape: ['⎋', 'Esc', 'Escape'],
  Esc: ['⎋', 'Esc', 'Escape'],
  Backspace: ['⌫', 'Backspace', 'Backspace'],
  Delete: ['⌦', 'Delete', 'Delete'],
  Tab: ['⇥', 'Tab', 'Tab'],
  Plus: ['+', '+', 'Plus'],
  PageUp: ['⇞', 'PgUp', 'Page Up'],
  PageDown: ['⇟', 'PgDn', 'Page Down']
}

/** A shortcut as key caps (⌘ ⇧ A on macOS, Ctrl Shift A elsewhere) and as words for a screen reader. */
export function shortcutCaps(accelerator: string, mac: boolean): { caps: string[]; spoken: string } {
  const parts = accelerator.endsWith('++') ? [...accelerator.slice(0, -2).split('+'), 'Plus'] : accelerator.split('+')
  const key = parts.pop() ?? ''
  const table = mac ? MAC_CAPS : OTHER_CAPS
  const modifiers = parts.map((p) => table[p] ?? { cap: p, word: p, order: 9 }).sort((a, b) => a.order - b.order)
  const named = KEY_CAPS[key]
  const keyCap = named ? named[mac ? 0 : 1] : key
  const keyWord = named ? named[2] : key
  return {
    caps: [...modifiers.map((m) => m.cap), keyCap],
    spoken: [...modifiers.map((m) => m.word), keyWord].join(' ')
  }
}
