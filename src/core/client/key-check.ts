// Whether a service accepts a key, without a project to ask about: ask for a project that cannot
// exist, with our key and with a made-up one shaped like it, and compare the two answers. A service
// may check an id's shape, or a key's, before anything else, and a wrong URL answers 404 to anyone;
// only the difference between the two answers says something about our key.
import { randomInt } from 'node:crypto'

/** A well-formed id no service issues (the nil UUID, RFC 9562 §5.9): real ids are UUIDs. */
export const KEY_CHECK_PROJECT_ID = '00000000-0000-0000-0000-000000000000'

/** Used only for a key with no letter or digit to change. */
const FALLBACK_MADE_UP_KEY = 'agent-tray-made-up-key'

const CLASSES = ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '0123456789'] as const

/**
 * A key no service issued, shaped like `key`: every letter and digit replaced by a random one of
 * its kind (node:crypto, fresh on every call), the rest (separators such as '-' or '_', which say
 * the format and hold no secret) kept. Nothing of the key's letters and digits is in it, so a
 * service or proxy that logs rejected keys logs nothing that leads back to ours.
 */
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

/**
 * The verdict from the HTTP statuses our key and the made-up key got at the same URL:
 *
 * | our key         | made-up key     | verdict                                                 |
 * |-----------------|-----------------|---------------------------------------------------------|
 * | 401/403         | anything        | rejected: our key was refused in so many words          |
 * | anything else   | 401/403         | accepted: this URL checks keys, and ours passed         |
 * | s               | t, t ≠ s        | accepted: the service tells our key from a made-up one  |
 * | s               | s               | inconclusive: the answer does not depend on the key     |
 *
 * (Busy or failing answers, 429 and 5xx, and network failures never get here: they are errors.)
 */
export function decideKeyCheck(ours: number, madeUp: number): KeyVerdict {
  if (refuses(ours)) return 'rejected'
  // A refused made-up key (row two) differs from ours, which was not refused: row three covers it.
  return ours !== madeUp ? 'accepted' : 'inconclusive'
}
