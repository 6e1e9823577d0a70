import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { isoMs } from './iso-time'

const same = (s: string): void => {
  expect(Object.is(isoMs(s), Date.parse(s)), s).toBe(true)
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0')
const iso = (y: number, mo: number, d: number, h = 0, mi = 0, sec = 0, ms = 0): string =>
  `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(sec, 2)}.${pad(ms, 3)}Z`
const monthEnds = (y: number, feb: number): string[] =>
  [31, feb, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31].flatMap((days, i) => [
    iso(y, i + 1, 1),
    iso(y, i + 1, days, 23, 59, 59, 999)
  ])

describe('isoMs', () => {
  afterEach(() => {
    vi.restoreAllMocks()
  })

  // The point of isoMs: the service's own form is read without Date.parse (a tenth of a cold poll's CPU).
  it("reads the service's form itself, never by Date.parse, at every edge of every field", () => {
    const times = [
      '0000-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '2026-11-23T14:20:15.123Z',
      ...monthEnds(2026, 28),
      ...monthEnds(2024, 29),
      ...monthEnds(2000, 29),
      ...monthEnds(1900, 28),
      ...monthEnds(0, 29)
    ]
    const expected = times.map((s) => Date.parse(s))
    const parse = vi.spyOn(Date, 'parse')
    expect(times.map((s) => isoMs(s))).toEqual(expected)
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (ms) => {
        expect(isoMs(new Date(ms).toISOString())).toBe(ms)
      }),
      { numRuns: 500 }
    )
    expect(parse).not.toHaveBeenCalled()
  })

  it('hands a field out of range, a day past its month, or a character out of place to Date.parse', () => {
    for (const s of [
      '2026-00-10T00:00:00.000Z',
      '2026-13-10T00:00:00.000Z',
      '2026-11-00T00:00:00.000Z',
      '2026-11-31T00:00:00.000Z',
      '2026-12-32T00:00:00.000Z',
      '2026-02-29T00:00:00.000Z',
      '1900-02-29T00:00:00.000Z',
      '2026-11-23T24:00:00.000Z',
      '2026-11-23T25:00:00.000Z',
      '2026-11-23T14:60:00.000Z',
      '2026-11-23T14:20:60.000Z',
      '2026-11-23T14:20:15.123Zjunk'
    ]) {
      same(s)
      // Date.parse rolls a day past its month over (Feb 29 of 2026 is Mar 1); it, not isoMs, decides so.
      const parse = vi.spyOn(Date, 'parse')
      isoMs(s)
      expect(parse, s).toHaveBeenCalledWith(s)
      parse.mockRestore()
    }
    const good = '2026-11-23T14:20:15.123Z'
    for (let i = 0; i < good.length; i++) {
      // '/' and ':' sit just below and above the digits; 'x' is no separator.
      for (const c of ['/', ':', 'x']) same(`${good.slice(0, i)}${c}${good.slice(i + 1)}`)
    }
  })

  it("agrees with Date.parse on every time in the service's form, 0000 to 9999", () => {
    fc.assert(
      fc.property(fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), (ms) => {
        const s = new Date(ms).toISOString()
        same(s)
        expect(isoMs(s)).toBe(ms)
      }),
      { numRuns: 2000 }
    )
  })

  it('agrees with Date.parse on strings of that shape with any digits, in range or not', () => {
    const d = (n: number) => fc.stringMatching(new RegExp(`^[0-9]{${n}}$`))
    fc.assert(
      fc.property(d(4), d(2), d(2), d(2), d(2), d(2), d(3), (y, mo, day, h, mi, s, ms) => {
        same(`${y}-${mo}-${day}T${h}:${mi}:${s}.${ms}Z`)
      }),
      { numRuns: 3000 }
    )
  })

  it('hands every other form to Date.parse', () => {
    for (const s of [
      '',
      'soon',
      '2026-02-29T00:00:00.000Z',
      '2024-02-29T00:00:00.000Z',
      '2026-11-23T24:00:00.000Z',
      '2026-11-23T14:20:15Z',
      '2026-11-23T14:20:15.123+01:00',
      '2026-11-23',
      '2026-11-23T14:20:15.1234Z',
      '+002026-11-23T14:20:15.123Z',
      '2026-11-23t14:20:15.123z',
      '２０２６-11-23T14:20:15.123Z',
      '2026-1a-23T14:20:15.123Z'
    ]) {
      same(s)
    }
    fc.assert(fc.property(fc.string({ maxLength: 30 }), (s) => same(s)))
  })
})
