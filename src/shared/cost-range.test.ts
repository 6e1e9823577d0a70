import { describe, expect, it } from 'vitest'
import {
  COMMAND_RANGE_NAMES,
  costRangeProblem,
  MAX_RANGE_DAYS,
  parseDay,
  rangeDays,
  REQUEST_RANGE_NAMES,
  resolveRange,
  WINDOW_RANGE_NAMES
} from './cost-range'

const TODAY = '2026-03-31'

describe('parseDay', () => {
  it('takes calendar days as YYYY-MM-DD only', () => {
    expect(parseDay('2026-02-28')).toBe('2026-02-28')
    expect(parseDay(' 2024-02-29 ')).toBe('2024-02-29')
    expect(parseDay('2000-02-29')).toBe('2000-02-29')
    expect(parseDay('0002-03-10')).toBe('0002-03-10')
    expect(parseDay('2026-12-31')).toBe('2026-12-31')
    for (const bad of [
      '2026-02-29',
      '1900-02-29',
      '2026-02-30',
      '2026-04-31',
      '2026-00-10',
      '2026-13-01',
      '2026-01-00',
      '2026-3-1',
      '1 March',
      '',
      '2026-03-01T00:00'
    ])
      expect(parseDay(bad)).toBeNull()
  })
})

describe('resolveRange', () => {
  it('defaults to the last 30 days up to today; an omitted since is 29 days before until', () => {
    expect(resolveRange({}, TODAY)).toEqual({ ok: true, range: { since: '2026-03-02', until: TODAY } })
    expect(resolveRange({ until: '2026-03-10' }, TODAY)).toEqual({
      ok: true,
      range: { since: '2026-02-09', until: '2026-03-10' }
    })
    expect(resolveRange({ since: '2026-03-20' }, TODAY)).toEqual({
      ok: true,
      range: { since: '2026-03-20', until: TODAY }
    })
  })

  it('takes a one-day range, today included, and the longest range there is', () => {
    expect(resolveRange({ since: TODAY, until: TODAY }, TODAY)).toEqual({
      ok: true,
      range: { since: TODAY, until: TODAY }
    })
    const longest = resolveRange({ since: '2016-03-24', until: TODAY }, TODAY)
    expect(longest).toEqual({ ok: true, range: { since: '2016-03-24', until: TODAY } })
    expect(rangeDays({ since: '2016-03-24', until: TODAY })).toBe(MAX_RANGE_DAYS)
  })

  it('says what is wrong, on which field, in each surface’s words', () => {
    expect(resolveRange({ since: '2026-02-30' }, TODAY, COMMAND_RANGE_NAMES)).toEqual({
      ok: false,
      problem: { field: 'since', problem: 'must be a date as YYYY-MM-DD, such as 2026-03-02' },
      error: '--since must be a date as YYYY-MM-DD, such as 2026-03-02.'
    })
    expect(resolveRange({ since: '2026-03-10', until: '2026-03-01' }, TODAY, COMMAND_RANGE_NAMES)).toMatchObject({
      ok: false,
      error: '--until must not be before --since (2026-03-10).'
    })
    expect(resolveRange({ since: '2026-03-10', until: '2026-03-01' }, TODAY, WINDOW_RANGE_NAMES)).toMatchObject({
      ok: false,
      problem: { field: 'until' },
      error: 'The last day must not be before the first day (2026-03-10).'
    })
    expect(resolveRange({ since: '2026-03-01', until: '2026-04-01' }, TODAY, WINDOW_RANGE_NAMES)).toMatchObject({
      ok: false,
      problem: { field: 'until' },
      error: 'The last day must not be after today (2026-03-31).'
    })
    // A last day after today is its own problem, not that of the first day it implies.
    expect(resolveRange({ until: '2026-05-01' }, TODAY, COMMAND_RANGE_NAMES)).toMatchObject({
      ok: false,
      problem: { field: 'until' },
      error: '--until must not be after today (2026-03-31).'
    })
    // A first day after today is the first day's problem, not "the last day is before it".
    expect(resolveRange({ since: '2026-04-02' }, TODAY, WINDOW_RANGE_NAMES)).toMatchObject({
      ok: false,
      problem: { field: 'since' },
      error: 'The first day must not be after today (2026-03-31).'
    })
    expect(resolveRange({ since: '2016-03-23', until: TODAY }, TODAY, COMMAND_RANGE_NAMES)).toMatchObject({
      ok: false,
      problem: { field: 'since' },
      error: `--since must be 2016-03-24 or later: a range covers at most ${MAX_RANGE_DAYS} days.`
    })
  })
})

describe('costRangeProblem without today (the request schema)', () => {
  it('checks each given day and the two together, and leaves the future to whoever knows today', () => {
    expect(costRangeProblem({}, null)).toBeNull()
    expect(costRangeProblem({ since: '2099-01-01' }, null)).toBeNull()
    expect(costRangeProblem({ since: '2099-01-01', until: '2099-01-02' }, null)).toBeNull()
    expect(costRangeProblem({ until: 'tomorrow' }, null, REQUEST_RANGE_NAMES)).toEqual({
      field: 'until',
      problem: 'must be a date as YYYY-MM-DD, such as 2026-03-01'
    })
    expect(costRangeProblem({ since: '2026-03-10', until: '2026-03-09' }, null)).toEqual({
      field: 'until',
      problem: 'must not be before since (2026-03-10)'
    })
    expect(costRangeProblem({ since: '2000-01-01', until: '2026-03-09' }, null)).toEqual({
      field: 'since',
      problem: `must be 2016-03-02 or later: a range covers at most ${MAX_RANGE_DAYS} days`
    })
  })
})
