// Reading a settings file that may be damaged, and the words the user reads about it.
import { describe, expect, it } from 'vitest'
import { describeDamage, issuePaths, PREFIX_READ_MAX, readJsonObject } from './damage'

const FILE = '/home/a/.config/agent-tray/config.json'
const ASIDE = `${FILE}.corrupt-2025-03-04T05-06-07-089Z`
const RECOVERED = 'recovered 2 watched projects and 1 connection'

describe('readJsonObject', () => {
  it('reads UTF-8 with or without a byte order mark, and UTF-16 in either byte order', () => {
    // A byte order mark inside a value is kept: only one at the start is the mark.
    const value = { theme: 'dark', name: 'Café\uFEFF✓' }
    const text = JSON.stringify(value)
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
    const be = Buffer.from(le)
    be.swap16()
    for (const raw of [Buffer.from(text), Buffer.from(`\uFEFF${text}`), le, be]) {
      const read = readJsonObject(raw)
      expect(read.ok && read.value).toEqual(value)
      expect(read.ok && read.damage).toBeNull()
    }
    // A UTF-16 file cut in the middle of its last character: the odd byte is dropped, the rest read.
    const cut = readJsonObject(be.subarray(0, be.length - 1))
    expect(cut.ok && cut.value).toEqual(value)
    expect(cut.ok && cut.damage).toBe('truncated')
  })

  it('a first line damaged by a stray 0xFF or 0xFE byte is not taken for a UTF-16 mark: the rest is read line by line', () => {
    const rest = Buffer.from('\n\t"theme": "dark",\n\t"pinned": true\n}')
    for (const start of [
      [0x7b, 0xfe],
      [0x7b, 0xff],
      [0xff, 0x0a, 0x7b],
      [0xfe, 0x0a, 0x7b],
      [0x78, 0x0a, 0x7b]
    ]) {
      const read = readJsonObject(Buffer.concat([Buffer.from(start), rest]))
      expect(read.ok && read.value, String(start)).toEqual({ theme: 'dark', pinned: true })
      expect(read.ok && read.damage).toBe('garbled')
    }
  })

  it('a small damaged file is read both ways: a member only its start shows (its line lost its indentation) is kept', () => {
    const read = readJsonObject(Buffer.from('{\n"theme": "dark",\n\t"pinned": true,\n\t"x": tru\n}'))
    expect(read.ok && read.value).toEqual({ theme: 'dark', pinned: true })
  })

  it(`up to ${PREFIX_READ_MAX} characters a damaged file is read both ways; past that, from its start only when its lines give nothing`, () => {
    const damaged = (length: number) => {
      const [head, tail] = ['{\n"theme": "dark",\n\t"pinned": true,\n\t"pad": "', '",\n\t"x": tru\n}']
      return head + 'x'.repeat(length - head.length - tail.length) + tail
    }
    const atMost = readJsonObject(Buffer.from(damaged(PREFIX_READ_MAX)))
    expect(atMost.ok && Object.keys(atMost.value)).toEqual(['theme', 'pinned', 'pad'])
    const past = readJsonObject(Buffer.from(damaged(PREFIX_READ_MAX + 1)))
    expect(past.ok && Object.keys(past.value)).toEqual(['pinned', 'pad'])
  })

  it('a large file (over 1 MiB) not in the store layout, all on one line, cut short: read from its start, as the line reader finds nothing', () => {
    const notes = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, i) => [`note-${i}`, `text of note ${i} `.repeat(4)])
    )
    const text = JSON.stringify({ theme: 'dark', notes })
    expect(text.length).toBeGreaterThan(1024 * 1024)
    const read = readJsonObject(Buffer.from(text.slice(0, -30)))
    expect(read.ok && read.damage).toBe('truncated')
    expect(read.ok && read.value.theme).toBe('dark')
    expect(read.ok && Object.keys(read.value.notes as object)).toEqual(Object.keys(notes).slice(0, -1))
  })

  it('a whole object has nothing partial; blank text is empty; what holds no member is not JSON', () => {
    const whole = readJsonObject(Buffer.from('{"a": {"b": [1]}}'))
    expect(whole.ok && whole.isPartial(whole.value)).toBe(false)
    for (const blank of ['', '  \n\t ', '\uFEFF'])
      expect(readJsonObject(Buffer.from(blank))).toEqual({ ok: false, damage: { kind: 'empty', reset: [] } })
    expect(readJsonObject(Buffer.from('not json'))).toEqual({ ok: false, damage: { kind: 'not-json', reset: [] } })
    expect(readJsonObject(Buffer.from('{"a'))).toEqual({ ok: false, damage: { kind: 'not-json', reset: [] } })
  })

  it('a JSON value that is not an object says what it is', () => {
    const held = (text: string) => {
      const read = readJsonObject(Buffer.from(text))
      return read.ok ? null : read.damage
    }
    expect(held('[1]')).toEqual({ kind: 'wrong-type', reset: ['a list'] })
    expect(held('null')).toEqual({ kind: 'wrong-type', reset: ['null'] })
    expect(held('"x"')).toEqual({ kind: 'wrong-type', reset: ['a string'] })
    expect(held('3')).toEqual({ kind: 'wrong-type', reset: ['a number'] })
    expect(held('false')).toEqual({ kind: 'wrong-type', reset: ['a boolean'] })
  })

  it('cut short: what is whole is read, and what the cut left open is partial', () => {
    const read = readJsonObject(
      Buffer.from('{"theme": "dark", "watched": {"c1": [{"projectId": "p1"}, {"projectId": "p')
    )
    expect(read.ok).toBe(true)
    if (!read.ok) return
    expect(read.damage).toBe('truncated')
    // The last project is read as far as its brace: an empty object, partial, that the schema drops.
    expect(read.value).toEqual({ theme: 'dark', watched: { c1: [{ projectId: 'p1' }, {}] } })
    const watched = read.value.watched as { c1: unknown[] }
    expect(read.isPartial(watched)).toBe(true)
    expect(read.isPartial(watched.c1)).toBe(true)
    expect(read.isPartial(watched.c1[0])).toBe(false)
    expect(read.isPartial(watched.c1[1])).toBe(true)
    expect(read.isPartial(null)).toBe(false)
    expect(read.isPartial('dark')).toBe(false)
  })

  it('damaged in the middle, in the store layout: read line by line past it, called garbled, the line-read member winning', () => {
    const text =
      '{\n\t"theme": "dark",\n\t"pinned": tru,\n\t"launchAtLogin": true,\n\t"watched": {\n\t\t"c1": []\n\t}\n}'
    const read = readJsonObject(Buffer.from(text))
    expect(read.ok).toBe(true)
    if (!read.ok) return
    expect(read.damage).toBe('garbled')
    expect(read.value).toEqual({ theme: 'dark', launchAtLogin: true, watched: { c1: [] } })
    expect(read.isPartial(read.value.watched)).toBe(false)
  })
})

describe('issuePaths', () => {
  it('shortens each path to where a user would look: up to three keys, never into a list', () => {
    expect(
      issuePaths([
        { path: ['watched', 'c2', 3, 'budgetUsd'] },
        { path: ['notifications', 'quietHours', 'start', 'x'] },
        { path: [0, 'a'] },
        { path: [] },
        { path: ['watched', 'c2', 5] }
      ])
    ).toEqual(['watched.c2', 'notifications.quietHours.start', '(whole file)'])
  })

  it('names at most eight, and how many more', () => {
    const issues = Array.from({ length: 11 }, (_, i) => ({ path: [`k${i}`] }))
    expect(issuePaths(issues)).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7', 'and 3 more'])
    expect(issuePaths(issues.slice(0, 8))).toEqual(['k0', 'k1', 'k2', 'k3', 'k4', 'k5', 'k6', 'k7'])
    expect(issuePaths(issues.slice(0, 3), 2)).toEqual(['k0', 'k1', 'and 1 more'])
  })
})

describe('describeDamage', () => {
  it('says what was wrong, what is in use now, and where the original is', () => {
    const kept = ` The original was kept as ${ASIDE}.`
    expect(describeDamage({ kind: 'empty', reset: [] }, FILE, ASIDE, RECOVERED)).toBe(
      `${FILE} was empty; default settings are in use.${kept}`
    )
    expect(describeDamage({ kind: 'not-json', reset: [] }, FILE, ASIDE, RECOVERED)).toBe(
      `${FILE} was not valid JSON and nothing in it could be read; default settings are in use.${kept}`
    )
    expect(describeDamage({ kind: 'truncated', reset: [] }, FILE, ASIDE, RECOVERED)).toBe(
      `${FILE} was cut short; ${RECOVERED}, and what could not be read is at its defaults.${kept}`
    )
    expect(describeDamage({ kind: 'garbled', reset: [] }, FILE, ASIDE, RECOVERED)).toBe(
      `${FILE} was damaged and could be read only in part; ${RECOVERED}, and what could not be read is at its defaults.${kept}`
    )
    expect(describeDamage({ kind: 'wrong-type', reset: ['a number'] }, FILE, ASIDE, RECOVERED)).toBe(
      `${FILE} held a number instead of settings; default settings are in use.${kept}`
    )
    expect(describeDamage({ kind: 'wrong-type', reset: [] }, FILE, null, RECOVERED)).toBe(
      `${FILE} held something else instead of settings; default settings are in use.`
    )
    expect(
      describeDamage({ kind: 'invalid', reset: ['theme', 'polling.idleIntervalMs'] }, FILE, ASIDE, RECOVERED)
    ).toBe(
      `Some entries of ${FILE} were invalid and were dropped or reset to defaults (theme, polling.idleIntervalMs); ${RECOVERED}.${kept}`
    )
    expect(describeDamage({ kind: 'newer-version', reset: [], version: 4 }, FILE, null, RECOVERED)).toBe(
      `${FILE} was written by a newer Agent Tray (file version 4); this version ${RECOVERED} from it, and its other settings are at their defaults.`
    )
  })
})
