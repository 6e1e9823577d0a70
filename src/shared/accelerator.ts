// The show/hide shortcut as an Electron accelerator. It needs a modifier other than Shift (or a function key), or it
// would fire while the user types anywhere; only registering it tells whether the system grants it.

export const DEFAULT_SHORTCUT = 'CommandOrControl+Shift+A'

const MODIFIERS = new Map([
  ['command', 'Command'],
  ['cmd', 'Command'],
  ['control', 'Control'],
  ['ctrl', 'Control'],
  ['commandorcontrol', 'CommandOrControl'],
  ['cmdorctrl', 'CommandOrControl'],
  ['alt', 'Alt'],
  ['option', 'Alt'],
  ['altgr', 'AltGr'],
  ['shift', 'Shift'],
  ['super', 'Super'],
  ['meta', 'Super']
] as const)

const NAMED_KEYS = [
  'Plus',
  'Space',
  'Tab',
  'Backspace',
  'Delete',
  'Insert',
  'Return',
  'Enter',
  'Up',
  'Down',
  'Left',
  'Right',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Escape',
  'Esc',
  'PrintScreen'
]
const NAMED = new Map(NAMED_KEYS.map((k) => [k.toLowerCase(), k]))
/** Single characters: a longer key is never one of them. */
const PUNCTUATION = new Set([...')!@#$%^&*(:;<=,_->.?/~`{][|\\}"\''])

/** The key part in its canonical spelling, or null when Electron would not know it. */
function canonicalKey(key: string): string | null {
  if (/^[a-z0-9]$/i.test(key)) return key.toUpperCase()
  const f = /^f([1-9]|1[0-9]|2[0-4])$/i.exec(key)
  if (f) return `F${f[1]}`
  const num = /^num([0-9])$/i.exec(key)
  if (num) return `num${num[1]}`
  if (PUNCTUATION.has(key)) return key
  return NAMED.get(key.toLowerCase()) ?? null
}

export type AcceleratorCheck = { ok: true; accelerator: string } | { ok: false; problem: string }

/** Checks a typed shortcut and gives it in canonical spelling ("ctrl+shift+a" → "Control+Shift+A"). */
export function checkAccelerator(text: string): AcceleratorCheck {
  const trimmed = text.trim()
  if (trimmed === '') return { ok: false, problem: 'Enter a shortcut such as CommandOrControl+Shift+A.' }
  if (trimmed.length > 100) return { ok: false, problem: 'A shortcut is at most 100 characters.' }
  // "Control++" ends with the '+' key itself.
  const parts = trimmed.endsWith('++') ? [...trimmed.slice(0, -2).split('+'), '+'] : trimmed.split('+')
  // Stryker disable next-line OptionalChaining,StringLiteral: equivalent, split gives at least one part, so pop never gives undefined
  const keyText = parts.pop()?.trim() ?? ''
  const modifiers: string[] = []
  for (const part of parts) {
    const modifier = MODIFIERS.get(part.trim().toLowerCase() as never)
    if (modifier === undefined)
      return {
        ok: false,
        problem: `"${part.trim()}" is not a modifier: use CommandOrControl, Control, Alt, Shift or Super.`
      }
    if (modifiers.includes(modifier)) return { ok: false, problem: `${modifier} is given twice.` }
    modifiers.push(modifier)
  }
  const key = keyText === '+' ? 'Plus' : canonicalKey(keyText)
  if (key === null)
    return {
      ok: false,
      problem: `"${keyText}" is not a key a shortcut can use: end with a letter, a digit, F1 to F24 or a named key such as Space.`
    }
  if (!/^F\d+$/.test(key) && !modifiers.some((m) => m !== 'Shift')) {
    return {
      ok: false,
      problem:
        'A shortcut needs CommandOrControl, Control, Alt or Super (or a function key), or it would fire while you type.'
    }
  }
  return { ok: true, accelerator: [...modifiers, key].join('+') }
}

/** How a shortcut reads in a sentence ("Ctrl+Shift+A", "Cmd+Shift+A"); on a control it is key caps (shortcutCaps, below). */
export function acceleratorLabel(accelerator: string, mac: boolean): string {
  return accelerator
    .replace(/CommandOrControl|CmdOrCtrl/g, mac ? 'Cmd' : 'Ctrl')
    .replace(/Command/g, 'Cmd')
    .replace(/Control/g, 'Ctrl')
    .replace(/Alt/g, mac ? 'Option' : 'Alt')
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
