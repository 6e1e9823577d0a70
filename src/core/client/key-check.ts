// A key check without a project: ask for one that cannot exist, with our key and a made-up one. A service may check
// shapes first and a wrong URL 404s anyone, so only a difference between the two answers says something about our key.
import { randomInt } from 'node:crypto'

/** A well-formed id no service issues (the nil UUID, RFC 9562 §5.9): real ids are UUIDs. */
export const KEY_CHECK_PROJECT_ID = '00000000-0000-0000-0000-000000000000'

/** Used only for a key with no letter or digit to change. */
const FALLBACK_MADE_UP_KEY = 'agent-tray-made-up-key'

const CLASSES = ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'] as const

/** A key no service issued, shaped like `key`: each letter and digit randomised, separators kept, so a proxy that logs
 * rejected keys logs nothing that leads back to ours. */
export function madeUpKeyLike(key: string, pick: (size: number) => number = randomInt): string {
  for (;;) {
    let out = ''
    let changed = false
    for (const c of key) {
      const kind = CLASSES.find((k) => k.includes(c))
      if (kind === undefined) out += c
      else {
        out += kind[pick(kind.length)]
        changed = true
      }
    }
    // The fallback has letters, so it is never a key without any.
    if (!changed) return FALLBACK_MADE_UP_KEY
    // Drawing the key itself again is possible only for very short keys; draw again.
    if (out !== key) return out
  }
}

export type KeyVerdict = 'accepted' | 'rejected' | 'inconclusive'

const refuses = (status: number): boolean => status === 401 || status === 403

/** 401/403 for ours → rejected; 401/403 only for the made-up one, or any other difference → accepted; the same answer
 * → inconclusive. 429, 5xx and network failures are errors and never get here. */
export function decideKeyCheck(ours: number, madeUp: number): KeyVerdict {
  if (refuses(ours)) return 'rejected'
  // A refused made-up key (row two) differs from ours, which was not refused: row three covers it.
  return ours !== madeUp ? 'accepted' : 'inconclusive'
}
