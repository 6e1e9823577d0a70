import { describe, expect, it } from 'vitest'
import {
  formatDate,
  formatDay,
  formatDuration,
  formatElapsed,
  formatMoney,
  formatMonth,
  formatRelativeTime,
  formatRunTime,
  formatTokens,
  formatUsd
} from './format'

describe('formatUsd', () => {
  it('keeps up to 6 decimals for small amounts and cents for large ones', () => {
    expect(formatUsd(0.000123)).toBe('$0.000123')
    expect(formatUsd(0.5)).toBe('$0.50')
    expect(formatUsd(0.123456)).toBe('$0.123456')
    expect(formatUsd(0.0123)).toBe('$0.0123')
    expect(formatUsd(12.3456)).toBe('$12.35')
    expect(formatUsd(1234.5)).toBe('$1,234.50')
    expect(formatUsd(0.9999999)).toBe('$1.00')
  })

  it('handles zero, negatives, tiny and missing amounts', () => {
    expect(formatUsd(0)).toBe('$0.00')
    expect(formatUsd(-0.25)).toBe('-$0.25')
    expect(formatUsd(0.0000001)).toBe('<$0.000001')
    expect(formatUsd(null)).toBe('–')
    expect(formatUsd(Number.NaN)).toBe('–')
  })
})

describe('formatTokens', () => {
  it('abbreviates thousands and millions', () => {
    expect(formatTokens(950)).toBe('950')
    expect(formatTokens(12_345)).toBe('12.3k')
    expect(formatTokens(12_000)).toBe('12k')
    expect(formatTokens(4_560_000)).toBe('4.6M')
    expect(formatTokens(999_960)).toBe('1M')
  })

  it('shows absent as a dash and 0 as 0', () => {
    expect(formatTokens(null)).toBe('–')
    expect(formatTokens(0)).toBe('0')
  })
})

describe('formatDuration', () => {
  it('picks the two largest units', () => {
    expect(formatDuration(850)).toBe('850ms')
    expect(formatDuration(42_000)).toBe('42s')
    expect(formatDuration(185_000)).toBe('3m 05s')
    expect(formatDuration(3_720_000)).toBe('1h 02m')
    expect(formatDuration(2 * 86_400_000 + 3 * 3_600_000)).toBe('2d 3h')
    expect(formatDuration(-1)).toBe('–')
  })
})

describe('formatRelativeTime', () => {
  const now = new Date('2025-03-10T12:00:00.000Z')
  it('says how long ago or how soon', () => {
    expect(formatRelativeTime('2025-03-10T11:59:55.000Z', now)).toBe('just now')
    expect(formatRelativeTime('2025-03-10T11:59:30.000Z', now)).toBe('30s ago')
    expect(formatRelativeTime('2025-03-10T11:55:00.000Z', now)).toBe('5 min ago')
    expect(formatRelativeTime('2025-03-10T09:00:00.000Z', now)).toBe('3 h ago')
    expect(formatRelativeTime('2025-03-08T12:00:00.000Z', now)).toBe('2 d ago')
    expect(formatRelativeTime('2025-03-10T12:05:00.000Z', now)).toBe('in 5 min')
    expect(formatRelativeTime('2025-03-10T12:00:30.000Z', now)).toBe('just now')
    expect(formatRelativeTime('2025-01-01T00:00:00.000Z', now)).toBe('2025-01-01')
    expect(formatRelativeTime('not a date', now)).toBe('–')
  })
})

describe('formatRunTime', () => {
  it('says a run time in words for a sentence', () => {
    expect(
      [0, 44_600, 59_400, 60_000, 240_000, 3_570_000, 3_600_000, 3_900_000, 86_400_000, 93_600_000].map(formatRunTime)
    ).toEqual(['0 s', '45 s', '59 s', '1 min', '4 min', '1 h', '1 h', '1 h 5 min', '1 d', '1 d 2 h'])
    expect(formatRunTime(-1)).toBeNull()
    expect(formatRunTime(Number.NaN)).toBeNull()
  })
})

describe('formatMoney', () => {
  it('shows cents in summaries, and a tiny amount as <$0.01, never $0.00', () => {
    expect(formatMoney(1.3149)).toBe('$1.31')
    expect(formatMoney(1234.5)).toBe('$1,234.50')
    expect(formatMoney(0.000123)).toBe('<$0.01')
    expect(formatMoney(0)).toBe('$0.00')
    expect(formatMoney(null)).toBe('–')
  })
})

describe('formatDate', () => {
  const now = Date.UTC(2026, 10, 26, 15, 0)
  it('says "Nov 26" for another day, adds the year only for another year, and the time when today', () => {
    expect(formatDate('2026-11-20T09:05:00Z', now, 'UTC')).toBe('Nov 20')
    expect(formatDate('2025-11-20T09:05:00Z', now, 'UTC')).toBe('Nov 20, 2025')
    expect(formatDate('2026-11-26T09:05:00Z', now, 'UTC')).toBe('09:05')
  })
  it('decides "today" in the given time zone', () => {
    // 23:30 UTC on the 25th is 08:30 on the 26th in Tokyo, where 10:00 UTC is still the 26th.
    const morning = Date.UTC(2026, 10, 26, 10, 0)
    expect(formatDate('2026-11-25T23:30:00Z', morning, 'Asia/Tokyo')).toBe('08:30')
    expect(formatDate('2026-11-25T23:30:00Z', morning, 'UTC')).toBe('Nov 25')
  })
  it('keeps what is not a date', () => {
    expect(formatDate('soon', now)).toBe('soon')
    expect(formatDate(undefined, now)).toBe('–')
  })
})

describe('formatDay and formatMonth', () => {
  it('say a calendar day or month in the one date form, the year only when it is not this one', () => {
    expect(formatDay('2026-11-05', '2026-11-27')).toBe('Nov 5')
    expect(formatDay('2026-11-27', '2026-11-27')).toBe('Nov 27')
    expect(formatDay('2025-12-31', '2026-01-02')).toBe('Dec 31, 2025')
    expect(formatMonth('2026-01', '2026-11-27')).toBe('Jan')
    expect(formatMonth('2025-12', '2026-11-27')).toBe('Dec 2025')
  })

  it('give back what is not a day or month as it came', () => {
    expect(formatDay('2026-13-01', '2026-11-27')).toBe('2026-13-01')
    expect(formatDay('not a day', '2026-11-27')).toBe('not a day')
    expect(formatMonth('2026-00', '2026-11-27')).toBe('2026-00')
  })
})

describe('formatElapsed', () => {
  it('says "just now" for the first moments, never "0ms", then the duration', () => {
    expect(formatElapsed(0)).toBe('just now')
    expect(formatElapsed(850)).toBe('just now')
    expect(formatElapsed(9_999)).toBe('just now')
    expect(formatElapsed(10_000)).toBe('10s')
    expect(formatElapsed(185_000)).toBe('3m 05s')
    expect(formatElapsed(Number.NaN)).toBe('–')
  })

  it('a clock a little behind (a start just ahead of now) is just now too, not a dash', () => {
    expect(formatElapsed(-500)).toBe('just now')
  })
})
