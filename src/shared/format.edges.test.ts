// The edges of shared/format.ts's forms: where one form hands over to the next.
import { describe, expect, it } from 'vitest'
import {
  formatDate,
  formatDay,
  formatDuration,
  formatElapsed,
  formatMoney,
  formatMonth,
  formatRelativeTime,
  formatTokens,
  formatUsdFixed,
  JUST_NOW_MS,
  usdColumnDecimals
} from './format'

describe('money at its edges', () => {
  it('shows cents at every size, never more decimals', () => {
    expect(formatMoney(0.996)).toBe('$1.00')
    expect(formatMoney(0.994)).toBe('$0.99')
    expect(formatMoney(0.005)).toBe('$0.01')
    expect(formatMoney(1.004)).toBe('$1.00')
    expect(formatMoney(1234567.5)).toBe('$1,234,567.50')
    expect(formatMoney(-1234)).toBe('-$1,234.00')
  })

  it("never shows a non-zero amount as nothing, at the service's precision too", () => {
    expect(formatMoney(0.004)).toBe('<$0.01')
    expect(formatMoney(-0.004)).toBe('-<$0.01')
    // 5e-7 is stored a hair below itself, so toFixed(6) gives 0.000000.
    expect(formatUsdFixed(0.0000005, 6)).toBe('<$0.000001')
    expect(formatUsdFixed(0.00000051, 6)).toBe('$0.000001')
  })

  it('writes 0 without a sign at every precision', () => {
    for (const places of [0, 2, 6]) {
      expect(formatUsdFixed(0, places)).toBe(places === 0 ? '$0' : `$0.${'0'.repeat(places)}`)
      expect(formatUsdFixed(-0, places)).toBe(formatUsdFixed(0, places))
    }
  })

  it('gives a column of amounts of a dollar or more cents, as it does a column of nothing', () => {
    expect(usdColumnDecimals([1, 2.5])).toBe(2)
    expect(usdColumnDecimals([0.5, 3])).toBe(4)
    expect(usdColumnDecimals([])).toBe(2)
    expect(usdColumnDecimals([null, 0, Number.NaN])).toBe(2)
  })

  it('writes whole dollars without a point, and an amount too small for them as under a dollar', () => {
    expect(formatUsdFixed(1234, 0)).toBe('$1,234')
    expect(formatUsdFixed(0.4, 0)).toBe('<$1')
    expect(formatUsdFixed(-0.004, 2)).toBe('-<$0.01')
    expect(formatUsdFixed(1234567.891, 2)).toBe('$1,234,567.89')
  })
})

describe('token counts at their edges', () => {
  it('abbreviates from a thousand up, in thousands, millions and billions, with the sign', () => {
    expect(formatTokens(999)).toBe('999')
    expect(formatTokens(1000)).toBe('1K')
    expect(formatTokens(-1500)).toBe('-1.5K')
    expect(formatTokens(2.5e9)).toBe('2.5B')
    expect(formatTokens(1e12)).toBe('1T')
  })

  it('counts whole tokens: a fraction is rounded, not shown', () => {
    expect(formatTokens(12.6)).toBe('13')
  })
})

describe('durations at their edges', () => {
  it('hands over to the next unit exactly at it', () => {
    expect(formatDuration(0)).toBe('0 s')
    expect(formatDuration(1)).toBe('<1 s')
    expect(formatDuration(999)).toBe('<1 s')
    expect(formatDuration(1000)).toBe('1 s')
    expect(formatDuration(59_999)).toBe('59 s')
    expect(formatDuration(60_000)).toBe('1 m 00 s')
    expect(formatDuration(3_599_999)).toBe('59 m 59 s')
    expect(formatDuration(3_600_000)).toBe('1 h 00 m')
    expect(formatDuration(86_400_000)).toBe('1 d 0 h')
  })
})

describe('times at their edges', () => {
  const now = Date.UTC(2026, 10, 26, 15, 0)
  const ago = (ms: number): string => formatRelativeTime(now - ms, now)

  it('hands a moment ago over to the next unit exactly at it', () => {
    expect(ago(JUST_NOW_MS - 1)).toBe('just now')
    expect(ago(JUST_NOW_MS)).toBe('10 s ago')
    expect(ago(60_000)).toBe('1 m ago')
    expect(ago(3_600_000)).toBe('1 h ago')
    expect(ago(86_400_000)).toBe('1 d ago')
    expect(ago(7 * 86_400_000 - 1)).toBe('6 d ago')
    expect(formatRelativeTime(now - 7 * 86_400_000, now, 'UTC')).toBe('Nov 19')
  })

  it('takes a time up to a minute ahead as clock skew, and a minute or more as the future', () => {
    expect(ago(-59_999)).toBe('just now')
    expect(ago(-60_000)).toBe('in 1 m')
  })

  it('says an absent elapsed time as a dash', () => {
    expect(formatElapsed(null)).toBe('–')
    expect(formatElapsed(undefined)).toBe('–')
  })

  it('gives the time of day only on the very day: not the same day of another month or year', () => {
    expect(formatDate('2026-10-26T09:05:00Z', now, 'UTC')).toBe('Oct 26')
    expect(formatDate('2025-11-26T09:05:00Z', now, 'UTC')).toBe('Nov 26, 2025')
    expect(formatDate('2025-10-26T09:05:00Z', now, 'UTC')).toBe('Oct 26, 2025')
  })

  it('gives back a day or month with anything before or after it as it came', () => {
    for (const text of ['x2026-11-05', '2026-11-05x', '2026-11-05T10:00'])
      expect(formatDay(text, '2026-11-27')).toBe(text)
    for (const text of ['x2026-11', '2026-11x', '2026-11-05']) expect(formatMonth(text, '2026-11-27')).toBe(text)
  })
})
