import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { discordText, ELLIPSIS, escapeWithin, plain, slackText, telegramHtml, TEXT_LIMITS, textSize } from './escape'

const ESCAPES = { plain, slackText, discordText, telegramHtml }
const SIZES = { units: (s: string) => s.length, bytes: (s: string) => Buffer.byteLength(s, 'utf8') }
// Each format's markup, controls and bidi overrides, and characters outside the BMP (surrogate pairs).
const ALPHABET = [
  'a',
  ' ',
  '*',
  '_',
  '~',
  '`',
  '|',
  '>',
  '#',
  '-',
  '[',
  ']',
  '(',
  ')',
  '<',
  '&',
  '"',
  '\\',
  '\n',
  '\u001b',
  '\u202e',
  'é',
  '😀'
]

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

describe("each format's escape, exactly", () => {
  const markup = 'a*b_c~d`e|f>g#h-i[j]k(l)m<n&o"p\\q'

  it('plain: controls and bidi overrides written out, line feeds only where kept', () => {
    expect(plain(`${markup}\nr\u001bs\u202et`)).toBe(`${markup}\\u000ar\\u001bs\\u202et`)
    expect(plain('a\nb', true)).toBe('a\nb')
  })

  it('Slack: &, < and > as entities, a zero-width space after * _ ~ `', () => {
    expect(slackText(markup)).toBe('a*\u200bb_\u200bc~\u200bd`\u200be|f&gt;g#h-i[j]k(l)m&lt;n&amp;o"p\\q')
    expect(slackText('<!channel> **')).toBe('&lt;!channel&gt; *\u200b*\u200b')
  })

  it('Discord: a backslash before each markup character', () => {
    expect(discordText(markup)).toBe('a\\*b\\_c\\~d\\`e\\|f\\>g\\#h\\-i\\[j\\]k\\(l\\)m\\<n&o"p\\\\q')
    expect(discordText('@everyone')).toBe('@everyone')
  })

  it("Telegram: its HTML's entities, the quote too", () => {
    expect(telegramHtml(markup)).toBe('a*b_c~d`e|f&gt;g#h-i[j]k(l)m&lt;n&amp;o&quot;p\\q')
    expect(telegramHtml('&&<<>>""')).toBe('&amp;&amp;&lt;&lt;&gt;&gt;&quot;&quot;')
  })

  it('sizes: ntfy in UTF-8 bytes, the others in UTF-16 units', () => {
    expect(textSize('ntfy', 'é😀')).toBe(6)
    expect(textSize('discord', 'é😀')).toBe(3)
    expect(textSize('telegram', 'é😀')).toBe(3)
    expect(textSize('slack', 'é😀')).toBe(3)
    expect(TEXT_LIMITS).toEqual({
      discord: { max: 2000, unit: 'characters' },
      telegram: { max: 4096, unit: 'characters' },
      slack: { max: 40000, unit: 'characters' },
      ntfy: { max: 4096, unit: 'bytes' }
    })
  })

  it('escapeWithin at its edges: exactly the limit is whole; one over is cut with the ellipsis; no room leaves the ellipsis alone', () => {
    const units = (s: string) => s.length
    expect(escapeWithin('abcde', plain, 5, units)).toBe('abcde')
    expect(escapeWithin('abcdef', plain, 5, units)).toBe(`abcd${ELLIPSIS}`)
    expect(escapeWithin('abcdef', plain, 1, units)).toBe(ELLIPSIS)
    expect(escapeWithin('😀😀😀', plain, 5, units)).toBe(`😀😀${ELLIPSIS}`)
    expect(escapeWithin('<<<<', telegramHtml, 9, units)).toBe(`&lt;&lt;${ELLIPSIS}`)
    expect(escapeWithin('<<<<', telegramHtml, 8, units)).toBe(`&lt;${ELLIPSIS}`)
  })
})
