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
