import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { discordText, ELLIPSIS, escapeWithin, plain, slackText, telegramHtml } from './escape'

const ESCAPES = { plain, slackText, discordText, telegramHtml }
const SIZES = { units: (s: string) => s.length, bytes: (s: string) => Buffer.byteLength(s, 'utf8') }
// Each format's markup, controls and bidi overrides, and characters outside the BMP (surrogate pairs).
const ALPHABET = ['a', ' ', '*', '_', '~', '`', '|', '>', '#', '-', '[', ']', '(', ')', '<', '&', '"', '\\', '\n', '\u001b', '\u202e', 'é', '😀']

describe('escapeWithin', () => {
  it('the escape of all of the text when it fits; else of the longest start (cut at a code point) that fits with an ellipsis', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...ALPHABET), { maxLength: 120 }),
        fc.integer({ min: 3, max: 200 }),
        fc.constantFrom(...(Object.keys(ESCAPES) as Array<keyof typeof ESCAPES>)),
        fc.constantFrom(...(Object.keys(SIZES) as Array<keyof typeof SIZES>)),
        (chars, max, e, s) => {
          const escape = ESCAPES[e]
          const size = SIZES[s]
          const raw = chars.join('')
          const out = escapeWithin(raw, escape, max, size)
          if (size(escape(raw)) <= max) {
            expect(out).toBe(escape(raw))
            return
          }
          // Else the escape of a whole number of characters and an ellipsis, within `max`; one more would not fit.
          let n = 0
          while (size(escape(chars.slice(0, n + 1).join(''))) + size(ELLIPSIS) <= max) n++
          expect(out).toBe(escape(chars.slice(0, n).join('')) + ELLIPSIS)
          expect(size(out)).toBeLessThanOrEqual(max)
        }
      )
    )
  })
})
