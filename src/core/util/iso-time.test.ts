import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isoMs } from './iso-time'

const same = (s: string): void => {
  expect(Object.is(isoMs(s), Date.parse(s)), s).toBe(true)
}

describe('isoMs', () => {
  it('agrees with Date.parse on every time in the service\'s form, 0000 to 9999', () => {
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
      '', 'soon', '2026-02-29T00:00:00.000Z', '2024-02-29T00:00:00.000Z', '2026-11-23T24:00:00.000Z',
      '2026-11-23T14:20:15Z', '2026-11-23T14:20:15.123+01:00', '2026-11-23', '2026-11-23T14:20:15.1234Z',
      '+002026-11-23T14:20:15.123Z', '2026-11-23t14:20:15.123z', '２０２６-11-23T14:20:15.123Z', '2026-1a-23T14:20:15.123Z'
    ]) {
      same(s)
    }
    fc.assert(fc.property(fc.string({ maxLength: 30 }), (s) => same(s)))
  })
})
