// Whether a service accepts a key, without a project to ask about: ask for a project that cannot
// exist, with our key and with a made-up one shaped like it, and compare the two answers. A service
// may check an id's shape, or a key's, before anything else, and a wrong URL answers 404 to anyone;
// only the difference between the two answers says something about our key.

/** A well-formed id no service issues (the nil UUID, RFC 9562 §5.9): real ids are UUIDs. */
export const KEY_CHECK_PROJECT_ID = '00000000-0000-0000-0000-000000000000'

/** Used only for a key with no letter or digit to change. */
const FALLBACK_MADE_UP_KEY = 'agent-tray-made-up-key'

function rotate(code: number, first: number, size: number, by: number): number {
  return first + ((code - first + by) % size)
}

/**
 * A key no service issued, shaped like `key`: every letter and digit replaced by another of its
 * kind (ROT13, ROT5), the rest kept, so a service that checks a key's format first answers both alike.
 */
export function madeUpKeyLike(key: string): string {
  let out = ''
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i)
    const turned =
      c >= 0x61 && c <= 0x7a ? rotate(c, 0x61, 26, 13) : c >= 0x41 && c <= 0x5a ? rotate(c, 0x41, 26, 13) : c >= 0x30 && c <= 0x39 ? rotate(c, 0x30, 10, 5) : c
    out += String.fromCharCode(turned)
  }
  return out === key ? (key === FALLBACK_MADE_UP_KEY ? `${FALLBACK_MADE_UP_KEY}-2` : FALLBACK_MADE_UP_KEY) : out
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
  if (refuses(madeUp)) return 'accepted'
  return ours !== madeUp ? 'accepted' : 'inconclusive'
}
