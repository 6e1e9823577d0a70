import { afterEach, describe, expect, it } from 'vitest'
import {
  clockLocaleTag,
  formatAsOf,
  formatDate,
  formatDay,
  formatDuration,
  formatElapsed,
  formatInterval,
  formatMoney,
  formatMonth,
  formatRelativeTime,
  formatRunTime,
  formatTimeOfDay,
  formatTokens,
  MONEY_TICK_STEP,
  setClockLocale
} from './format'

describe('formatTokens, the one token form', () => {
  it('abbreviates thousands, millions and billions with one decimal at most', () => {
    expect(formatTokens(950)).toBe('950')
    expect(formatTokens(12_345)).toBe('12.3K')
    expect(formatTokens(12_000)).toBe('12K')
    expect(formatTokens(4_560_000)).toBe('4.6M')
    expect(formatTokens(999_960)).toBe('1M')
  })

  it('shows absent as a dash and 0 as 0', () => {
    expect(formatTokens(null)).toBe('–')
    expect(formatTokens(0)).toBe('0')
  })
})

describe('durations: one form for a step, a running task and a sentence', () => {
  it('formatDuration says a span in two units, the smaller padded, and under a second as <1 s', () => {
    expect(formatDuration(850)).toBe('<1 s')
    expect(formatDuration(0)).toBe('0 s')
    expect(formatDuration(42_000)).toBe('42 s')
    expect(formatDuration(252_000)).toBe('4 m 12 s')
    expect(formatDuration(185_000)).toBe('3 m 05 s')
    expect(formatDuration(3_720_000)).toBe('1 h 02 m')
    expect(formatDuration(2 * 86_400_000 + 3 * 3_600_000)).toBe('2 d 3 h')
    expect(formatDuration(-1)).toBe('–')
  })

  it('formatElapsed ticks in whole seconds from 0 s, never ms and never "just now"', () => {
    expect(formatElapsed(0)).toBe('0 s')
    expect(formatElapsed(999)).toBe('0 s')
    expect(formatElapsed(9_999)).toBe('9 s')
    expect(formatElapsed(252_400)).toBe('4 m 12 s')
    expect(formatElapsed(Number.NaN)).toBe('–')
  })

  it('formatElapsed takes a start just ahead of our clock as 0 s, not a dash', () => {
    expect(formatElapsed(-500)).toBe('0 s')
  })

  it('formatRunTime says a run time for a sentence in the same form, to the nearest second', () => {
    expect(
      [0, 44_600, 59_400, 60_000, 252_000, 3_570_000, 3_600_000, 3_900_000, 86_400_000, 93_600_000].map(formatRunTime)
    ).toEqual([
      '0 s',
      '45 s',
      '59 s',
      '1 m 00 s',
      '4 m 12 s',
      '59 m 30 s',
      '1 h 00 m',
      '1 h 05 m',
      '1 d 0 h',
      '1 d 2 h'
    ])
    expect(formatRunTime(-1)).toBeNull()
    expect(formatRunTime(Number.NaN)).toBeNull()
  })

  it('every duration names its units: none reads like a clock time ("05:56")', () => {
    for (const ms of [5_000, 356_000, 21_360_000, 200_000_000]) {
      for (const text of [formatDuration(ms), formatElapsed(ms), formatRunTime(ms)]) expect(text).not.toMatch(/\d:\d/)
    }
  })
})

describe('formatRelativeTime, an age', () => {
  const now = new Date('2025-03-10T12:00:00.000Z')
  it('says how long ago or how soon, in the duration units', () => {
    expect(formatRelativeTime('2025-03-10T11:59:55.000Z', now)).toBe('just now')
    expect(formatRelativeTime('2025-03-10T11:59:30.000Z', now)).toBe('30 s ago')
    expect(formatRelativeTime('2025-03-10T11:57:00.000Z', now)).toBe('3 m ago')
    expect(formatRelativeTime('2025-03-10T09:00:00.000Z', now)).toBe('3 h ago')
    expect(formatRelativeTime('2025-03-08T12:00:00.000Z', now)).toBe('2 d ago')
    expect(formatRelativeTime('2025-03-10T12:05:00.000Z', now)).toBe('in 5 m')
    expect(formatRelativeTime('2025-03-10T12:00:30.000Z', now)).toBe('just now')
    expect(formatRelativeTime('not a date', now)).toBe('–')
  })

  it('from a week on, says the day in the one date form', () => {
    expect(formatRelativeTime('2025-03-01T08:00:00.000Z', now, 'UTC')).toBe('Mar 1')
    expect(formatRelativeTime('2024-12-31T08:00:00.000Z', now, 'UTC')).toBe('Dec 31, 2024')
  })
})

describe('formatMoney, the one money form', () => {
  it('always shows cents, and a tiny amount as <$0.01, never $0.00', () => {
    expect(formatMoney(1.3149)).toBe('$1.31')
    expect(formatMoney(1234.5)).toBe('$1,234.50')
    expect(formatMoney(100)).toBe('$100.00')
    expect(formatMoney(0.5)).toBe('$0.50')
    expect(formatMoney(0.000123)).toBe('<$0.01')
    expect(formatMoney(0)).toBe('$0.00')
    expect(formatMoney(null)).toBe('–')
  })

  it('writes what a notification said with 6 decimals in cents', () => {
    expect(formatMoney(0.333118)).toBe('$0.33')
    expect(formatMoney(0.996)).toBe('$1.00')
    expect(formatMoney(-0.25)).toBe('-$0.25')
  })

  it('has an axis step that every tick can be written in exactly', () => {
    for (let i = 0; i <= 10; i++) expect(Number(formatMoney(i * MONEY_TICK_STEP).slice(1))).toBeCloseTo(i / 100, 10)
    expect(MONEY_TICK_STEP).toBe(0.01)
  })
})

describe('formatDate', () => {
  const now = Date.UTC(2026, 10, 26, 15, 0)
  it('says "Nov 26" for another day, adds the year only for another year', () => {
    expect(formatDate('2026-11-20T09:05:00Z', now, 'UTC')).toBe('Nov 20')
    expect(formatDate('2025-11-20T09:05:00Z', now, 'UTC')).toBe('Nov 20, 2025')
  })
  it("says the time of day today in the locale's own hour cycle, never a fixed 24-hour clock", () => {
    expect(formatDate('2026-11-26T14:05:00Z', now, 'UTC', 'en-US')).toBe('today 2:05 PM')
    expect(formatDate('2026-11-26T14:05:00Z', now, 'UTC', 'de-DE')).toBe('today 14:05')
    // The user's own choice of clock rides on the locale (the -u-hc- extension).
    expect(formatDate('2026-11-26T14:05:00Z', now, 'UTC', 'en-US-u-hc-h23')).toBe('today 14:05')
    expect(formatDate('2026-11-26T14:05:00Z', now, 'UTC', 'de-DE-u-hc-h12')).toMatch(/^today 2:05\sPM$/)
  })
  it("uses the default locale when given none (the system's in the command, the window's in Chromium)", () => {
    const clock = new Intl.DateTimeFormat(undefined, { timeZone: 'UTC', hour: 'numeric', minute: '2-digit' })
    expect(formatDate('2026-11-26T14:05:00Z', now, 'UTC')).toBe(`today ${clock.format(Date.UTC(2026, 10, 26, 14, 5))}`)
  })
  it('never gives a bare time that reads as a duration', () => {
    for (const locale of ['en-US', 'en-GB', 'de-DE', 'ja-JP'])
      expect(formatDate('2026-11-26T05:56:00Z', now, 'UTC', locale)).toMatch(/^today /)
  })
  it('decides "today" in the given time zone', () => {
    // 23:30 UTC on the 25th is 08:30 on the 26th in Tokyo, where 10:00 UTC is still the 26th.
    const morning = Date.UTC(2026, 10, 26, 10, 0)
    expect(formatDate('2026-11-25T23:30:00Z', morning, 'Asia/Tokyo', 'en-GB')).toMatch(/^today 0?8:30$/)
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

describe('the clock locale', () => {
  const now = Date.parse('2026-11-27T14:05:00Z')
  afterEach(() => setClockLocale(null))

  it("is the OS's locale as a tag, with a forced hour cycle kept", () => {
    expect(clockLocaleTag('en_GB.UTF-8', null)).toBe('en-GB')
    expect(clockLocaleTag('en-US', 'h23')).toBe('en-US-u-hc-h23')
    expect(clockLocaleTag('not a locale!', null)).toBeUndefined()
  })

  it('sets what clock times use when no locale is given', () => {
    setClockLocale('en-GB')
    expect(formatDate('2026-11-27T14:05:00Z', now, 'UTC')).toBe('today 14:05')
    setClockLocale('en-US')
    expect(formatDate('2026-11-27T14:05:00Z', now, 'UTC')).toBe('today 2:05 PM')
    expect(formatDate('2026-11-27T14:05:00Z', now, 'UTC', 'en-GB')).toBe('today 14:05')
  })
})

describe('formatInterval', () => {
  it('says a period in its whole unit', () => {
    expect(formatInterval(5_000)).toBe('5 s')
    expect(formatInterval(60_000)).toBe('1 m')
    expect(formatInterval(300_000)).toBe('5 m')
    expect(formatInterval(3_600_000)).toBe('1 h')
    expect(formatInterval(86_400_000)).toBe('24 h')
    expect(formatInterval(90_000)).toBe('1 m 30 s')
  })
})

describe('formatTimeOfDay, a quiet hour', () => {
  afterEach(() => setClockLocale(null))

  it("reads on the locale's own clock, never a fixed 24-hour one", () => {
    expect(formatTimeOfDay('22:30', 'en-US')).toBe('10:30 PM')
    expect(formatTimeOfDay('00:00', 'en-US')).toBe('12:00 AM')
    expect(formatTimeOfDay('22:30', 'de-DE')).toBe('22:30')
    expect(formatTimeOfDay('07:00', 'en-US-u-hc-h23')).toMatch(/^0?7:00$/)
    setClockLocale('en-GB')
    expect(formatTimeOfDay('06:30')).toMatch(/^0?6:30$/)
  })

  it('leaves what is not a time as it is', () => {
    expect(formatTimeOfDay('soon', 'en-US')).toBe('soon')
  })
})

describe('formatAsOf', () => {
  const now = Date.parse('2026-11-27T14:05:00Z')
  it('is the clock alone today, the day otherwise', () => {
    expect(formatAsOf('2026-11-27T07:20:00Z', now, 'UTC', 'en-GB')).toMatch(/^0?7:20$/)
    expect(formatAsOf('2026-11-26T07:20:00Z', now, 'UTC', 'en-GB')).toBe('Nov 26')
  })
})
