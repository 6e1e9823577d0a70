import { describe, expect, it } from 'vitest'
import { escapeUnsafeCharacters, hasUnsafeCharacters, isUnsafeToShow } from './controls'

describe('escapeUnsafeCharacters', () => {
  it('writes out C0, DEL, C1, the separators and the bidi controls; leaves the rest', () => {
    const unsafe = [
      0x00, 0x07, 0x09, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x9b, 0x9f, 0x2028, 0x2029, 0x202a, 0x202e, 0x2066, 0x2069
    ]
    for (const code of unsafe) {
      expect(isUnsafeToShow(code), code.toString(16)).toBe(true)
      expect(escapeUnsafeCharacters(`a${String.fromCharCode(code)}b`)).toBe(
        `a\\u${code.toString(16).padStart(4, '0')}b`
      )
    }
    for (const safe of [
      'plain',
      'café',
      '日本語',
      'emoji 😀',
      'שלום',
      'tab-free',
      '\\u001b as text',
      '\u00a0',
      '\u200f'
    ]) {
      expect(escapeUnsafeCharacters(safe)).toBe(safe)
      expect(hasUnsafeCharacters(safe)).toBe(false)
    }
  })

  it('keeps line feeds when asked, and only them', () => {
    expect(escapeUnsafeCharacters('a\nb\r\n\u001b[2J', { keepNewlines: true })).toBe('a\nb\\u000d\n\\u001b[2J')
    expect(escapeUnsafeCharacters('a\nb')).toBe('a\\u000ab')
  })

  it('inside a JSON string, the written-out form is the same string', () => {
    const name = 'x\u009b31m\u202e\u2028y'
    const json = JSON.stringify({ name })
    expect(JSON.parse(escapeUnsafeCharacters(json, { keepNewlines: true }))).toEqual({ name })
  })

  it('one pass, whatever the length', () => {
    const long = '\u001b'.repeat(1_000_000)
    expect(escapeUnsafeCharacters(long)).toHaveLength(6_000_000)
  })
})

describe('hasUnsafeCharacters', () => {
  it('finds one anywhere in the text: first, last, alone', () => {
    for (const text of ['\u001b[31m', 'name\u202e', 'a\nb', '\u0085', 'x\u2066y'])
      expect(hasUnsafeCharacters(text), JSON.stringify(text)).toBe(true)
    expect(hasUnsafeCharacters('')).toBe(false)
  })
})
