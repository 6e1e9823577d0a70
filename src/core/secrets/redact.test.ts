import { describe, expect, it } from 'vitest'
import { MIN_SECRET_LENGTH, REDACTED, redactSecrets, secretForms, secretRedactor } from './redact'
import { firstLine, KeychainUnavailableError } from './types'

/** Visible ASCII, as a key must be, with every character JSON or a URL escapes. */
const KEY = 'Zq9"Xv\\Lm/Rt<Wp>&Kd%Yh+Jc?Nf=Bs'

describe('secretForms', () => {
  it('has the key as sent, JSON-escaped and URL-encoded', () => {
    const forms = secretForms(KEY)
    expect(forms).toContain(KEY)
    expect(forms).toContain(JSON.stringify(KEY).slice(1, -1))
    expect(forms).toContain(JSON.stringify(KEY).slice(1, -1).replaceAll('/', '\\/'))
    expect(forms).toContain(encodeURIComponent(KEY))
    expect(forms).toContain(encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()))
    // Longest first: a form inside another is never replaced before it.
    expect(forms).toEqual([...forms].sort((a, b) => b.length - a.length))
  })

  it('a key of letters and digits has one form', () => {
    expect(secretForms('abcDEF123')).toEqual(['abcDEF123'])
  })
})

describe('redactSecrets', () => {
  const echoes = [
    KEY,
    JSON.stringify({ message: `bad key ${KEY}` }),
    JSON.stringify({ message: `bad key ${KEY}` }).replaceAll('/', '\\/'),
    JSON.stringify({ message: `bad key ${KEY}` })
      .replaceAll('<', '\\u003c')
      .replaceAll('>', '\\u003e')
      .replaceAll('&', '\\u0026'),
    `GET /projects?api_key=${encodeURIComponent(KEY)} refused`,
    `GET /projects?api_key=${encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())} refused`,
    `key=${KEY.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}`
  ]

  it.each(echoes.map((e) => [e]))('catches the key in %s', (text) => {
    const out = redactSecrets(text, [KEY])
    expect(out).toContain(REDACTED)
    for (const form of secretForms(KEY)) expect(out).not.toContain(form)
    // What is left reads as before around the marker.
    expect(out.length).toBeLessThan(text.length)
  })

  it('the JSON-escaped key, once the JSON is read, is the key: both are caught', () => {
    const body = JSON.stringify({ message: KEY })
    expect(body).not.toContain(KEY)
    expect(redactSecrets(body, [KEY])).toBe(JSON.stringify({ message: REDACTED }))
    expect(JSON.parse(redactSecrets(body, [KEY]))).toEqual({ message: REDACTED })
  })

  it('catches the key written as upper-case \\uXXXX escapes, as some JSON encoders write it', () => {
    const upper = KEY.replace(
      /[^A-Za-z0-9]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`
    )
    expect(upper).toContain('\\u003C')
    expect(redactSecrets(`{"error":"bad key ${upper}"}`, [KEY])).toBe(`{"error":"bad key ${REDACTED}"}`)
  })

  it('redacts a key of exactly the shortest length it trusts, in every form', () => {
    const key = 'a/b&'.slice(0, MIN_SECRET_LENGTH)
    expect(key).toHaveLength(MIN_SECRET_LENGTH)
    expect(redactSecrets(`sent ${key} then ${encodeURIComponent(key)}`, [key])).toBe(
      `sent ${REDACTED} then ${REDACTED}`
    )
  })

  it('leaves text without the key, and keys too short to tell from words, alone', () => {
    expect(redactSecrets('nothing to see', [KEY])).toBe('nothing to see')
    const short = 'a'.repeat(MIN_SECRET_LENGTH - 1)
    expect(redactSecrets(`${short} ${short}`, [short, undefined])).toBe(`${short} ${short}`)
    expect(secretRedactor([], 'X')('same')).toBe('same')
  })

  it('firstLine, which main logs with, uses it too', () => {
    expect(firstLine(new Error(`refused ${JSON.stringify(KEY)}\nsecond line`), KEY)).toBe(`refused "${REDACTED}"`)
    // A server's words in main's log never act on the terminal it runs in.
    expect(firstLine(new Error('Server said: \u001b]0;pwned\u0007\u009b2J'))).toBe(
      'Server said: \\u001b]0;pwned\\u0007\\u009b2J'
    )
  })

  it("catches a key written with every character but letters and digits percent-encoded, '-' and '_' too, in either case of hex", () => {
    const key = 'sk-live_7f3a.9c~x'
    expect(encodeURIComponent(key)).toBe(key)
    const every = (hex: (h: string) => string) =>
      key.replace(/[^A-Za-z0-9]/g, (c) => `%${hex(c.charCodeAt(0).toString(16))}`)
    expect(redactSecrets(`?k=${every((h) => h.toUpperCase())}&`, [key])).toBe(`?k=${REDACTED}&`)
    expect(redactSecrets(`?k=${every((h) => h.toLowerCase())}&`, [key])).toBe(`?k=${REDACTED}&`)
    expect(
      redactSecrets(
        `{"k":"${key.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"}`,
        [key]
      )
    ).toBe(`{"k":"${REDACTED}"}`)
  })

  it('catches the longest form first, so no part of a longer form is left behind', () => {
    // The key and a longer one that holds it: the longer is replaced whole.
    expect(redactSecrets('a sk-abcd-1234 b sk-abcd c', ['sk-abcd', 'sk-abcd-1234'])).toBe(
      `a ${REDACTED} b ${REDACTED} c`
    )
  })

  it('catches a key a URL cannot carry (a lone surrogate) as written and JSON-escaped, and makes up no URL form for it', () => {
    const key = 'abc\uD800def'
    expect(() => secretForms(key)).not.toThrow()
    expect(redactSecrets(`x ${key} y`, [key])).toBe(`x ${REDACTED} y`)
    expect(secretForms(key)).toEqual(['abc\\ud800def', 'abc\\uD800def', key])
  })

  it('catches a secret with a control character or one just past ASCII, every character percent-encoded (UTF-8 past ASCII), in either case of hex', () => {
    // A webhook URL's password (forward/target-url.ts) is any text once decoded, not only visible ASCII.
    const key = 'pw\t\u0080\u00eb-2'
    const upper = 'pw%09%C2%80%C3%AB%2D2'
    for (const every of [upper, upper.toLowerCase()]) {
      expect(redactSecrets(`u=${every};`, [key])).toBe(`u=${REDACTED};`)
    }
  })

  it('catches a key with a letter outside ASCII, percent-encoded as UTF-8 character by character, and a lower-case URL form that leaves - alone', () => {
    const key = 'clé-sk/1234'
    const every = key.replace(/[^A-Za-z0-9]/g, (c) =>
      encodeURIComponent(c).replace(/^[-]$/, '%2D').replace(/^[/]$/, '%2F')
    )
    expect(every).toBe('cl%C3%A9%2Dsk%2F1234')
    expect(redactSecrets(`k=${every};`, [key])).toBe(`k=${REDACTED};`)
    expect(encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())).toBe('cl%c3%a9-sk%2f1234')
    expect(redactSecrets('k=cl%c3%a9-sk%2f1234;', [key])).toBe(`k=${REDACTED};`)
  })

  it("says what kind of failure a keychain's is, and a message's first line that says something", () => {
    expect(new KeychainUnavailableError('x').name).toBe('KeychainUnavailableError')
    expect(firstLine(new Error('\n  \nno answer from the bus\nmore'))).toBe('no answer from the bus')
    expect(firstLine(new Error(''))).toBe('unknown error')
    expect(firstLine('  plain text  ')).toBe('plain text')
  })
})
