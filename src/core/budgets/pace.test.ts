import { describe, expect, it } from 'vitest'
import type { UsageRecord } from '../../shared/service'
import { BurnSamples } from './burn-samples'
import { periodEnd, projectedSpend, taskBurnRate } from './pace'

const at = (iso: string): number => Date.parse(iso)
const usage = (createdAt: string, price: number): UsageRecord =>
  ({ id: createdAt, created_at: createdAt, provider: 'p', model: 'm', final_price: price }) as unknown as UsageRecord

describe('burn rate over the last 15 minutes', () => {
  const now = at('2026-11-23T12:00:00Z')

  it('counts the usage records created in the window, per hour', () => {
    const usages = [
      usage('2026-11-23T11:40:00Z', 5),
      usage('2026-11-23T11:50:00Z', 0.5),
      usage('2026-11-23T11:59:00Z', 0.25)
    ]
    // 0.75 in the last 15 minutes (the 5 at 11:40 is outside) → 3 per hour.
    expect(taskBurnRate({ createdMs: at('2026-11-23T10:00:00Z'), usages, samples: [] }, now)).toBe(3)
  })

  it('looks only as far back as the task exists', () => {
    const usages = [usage('2026-11-23T11:56:00Z', 0.5)]
    // Born 5 minutes ago: 0.5 in 5 minutes → 6 per hour.
    expect(taskBurnRate({ createdMs: at('2026-11-23T11:55:00Z'), usages, samples: [] }, now)).toBe(6)
  })

  it('falls back to total_price deltas seen over time, with the last price before the window as baseline', () => {
    const samples = [
      { atMs: at('2026-11-23T11:30:00Z'), priceUsd: 1 },
      { atMs: at('2026-11-23T11:44:00Z'), priceUsd: 2 },
      { atMs: at('2026-11-23T11:50:00Z'), priceUsd: 2.5 },
      { atMs: at('2026-11-23T12:00:00Z'), priceUsd: 3 }
    ]
    // Baseline 2 at 11:44 (before 11:45): 1 more by 12:00 over the 15-minute window → 4 per hour.
    expect(taskBurnRate({ createdMs: at('2026-11-23T11:00:00Z'), samples }, now)).toBe(4)
  })

  it('says nothing from less than a minute of looking', () => {
    expect(
      taskBurnRate(
        {
          createdMs: Number.NaN,
          samples: [
            { atMs: now - 30_000, priceUsd: 1 },
            { atMs: now, priceUsd: 2 }
          ]
        },
        now
      )
    ).toBeNull()
    expect(taskBurnRate({ createdMs: Number.NaN, samples: [] }, now)).toBeNull()
  })

  it('keeps a small bounded ring per running task and forgets ended ones', () => {
    const ring = new BurnSamples()
    for (let i = 0; i < 200; i++) ring.observe('t', i / 100, true, now - 60 * 60_000 + i * 20_000)
    expect(ring.samples('t').length).toBeLessThanOrEqual(32)
    expect(ring.samples('t').at(-1)?.priceUsd).toBe(1.99)
    // The baseline sample before the window is kept, so the rate covers the full window.
    const rate = taskBurnRate({ createdMs: Number.NaN, samples: ring.samples('t') }, now - 60 * 60_000 + 199 * 20_000)
    expect(rate).toBeGreaterThan(1.7)
    expect(rate).toBeLessThan(1.9)
    ring.observe('t', 3, false, now)
    expect(ring.size).toBe(0)
  })

  it('counts a record made as the window opens or later, up to now, not one before it or one after now', () => {
    const born = at('2026-11-23T10:00:00Z')
    const rate = (createdAt: string): number | null =>
      taskBurnRate({ createdMs: born, usages: [usage(createdAt, 1)], samples: [] }, now)
    expect(rate('2026-11-23T11:45:00Z')).toBe(0)
    expect(rate('2026-11-23T11:45:01Z')).toBe(4)
    expect(rate('2026-11-23T12:00:00Z')).toBe(4)
    expect(rate('2026-11-23T12:00:01Z')).toBe(0)
  })

  it('says nothing from records of a task less than a minute old; a minute is enough', () => {
    const usages = [usage('2026-11-23T11:59:40Z', 0.5)]
    expect(taskBurnRate({ createdMs: at('2026-11-23T11:59:30Z'), usages, samples: [] }, now)).toBeNull()
    expect(taskBurnRate({ createdMs: at('2026-11-23T11:59:00Z'), usages, samples: [] }, now)).toBe(30)
  })

  it('reads the seen prices while no record has been fetched yet (an empty list of records)', () => {
    const samples = [
      { atMs: at('2026-11-23T11:45:00Z'), priceUsd: 2 },
      { atMs: at('2026-11-23T12:00:00Z'), priceUsd: 3 }
    ]
    expect(taskBurnRate({ createdMs: at('2026-11-23T11:00:00Z'), usages: [], samples }, now)).toBe(4)
  })

  it('takes a price seen just as the window opens as the baseline, and ignores prices seen after now', () => {
    const samples = [
      { atMs: at('2026-11-23T11:30:00Z'), priceUsd: 1 },
      { atMs: at('2026-11-23T11:45:00Z'), priceUsd: 2 },
      { atMs: at('2026-11-23T12:00:00Z'), priceUsd: 3 },
      { atMs: at('2026-11-23T12:05:00Z'), priceUsd: 9 }
    ]
    // From 2 at 11:45 to 3 at 12:00: $1 in 15 minutes.
    expect(taskBurnRate({ createdMs: at('2026-11-23T11:00:00Z'), samples }, now)).toBe(4)
  })

  it('counts a task born in the window from nothing at its birth, its birth at the window opening included', () => {
    const samples = [
      { atMs: at('2026-11-23T11:55:00Z'), priceUsd: 1 },
      { atMs: at('2026-11-23T12:00:00Z'), priceUsd: 3 }
    ]
    // Born at 11:50: $3 in 10 minutes (not $2 in the 5 minutes seen).
    expect(taskBurnRate({ createdMs: at('2026-11-23T11:50:00Z'), samples }, now)).toBe(18)
    // Born as the window opened: $3 in 15 minutes.
    expect(taskBurnRate({ createdMs: at('2026-11-23T11:45:00Z'), samples }, now)).toBe(12)
    // Born a minute ago, one price seen: $1 in that minute; born in the window, nothing seen yet: no pace.
    expect(taskBurnRate({ createdMs: at('2026-11-23T11:59:00Z'), samples: [{ atMs: now, priceUsd: 1 }] }, now)).toBe(60)
    expect(taskBurnRate({ createdMs: at('2026-11-23T11:50:00Z'), samples: [] }, now)).toBeNull()
  })
})

describe('projection at the current pace', () => {
  it('adds the hours left in the local day (UTC+2: 22:00 local leaves 2 hours)', () => {
    const now = at('2026-11-23T20:00:00Z')
    expect(periodEnd(now, 120, 'day')).toBe(at('2026-11-23T22:00:00Z'))
    expect(projectedSpend(10, 3, now, 120, 'day')).toBe(16)
  })

  it('rolls to the next day across local midnight (UTC-5: 01:00 UTC is still the evening before)', () => {
    const now = at('2026-11-24T01:00:00Z')
    expect(periodEnd(now, -300, 'day')).toBe(at('2026-11-24T05:00:00Z'))
    expect(projectedSpend(0, 1, now, -300, 'day')).toBe(4)
  })

  it('adds the hours left in the local month, across the month end', () => {
    // 30 Nov 23:00 in UTC+1 is 22:00 UTC: one hour left of November.
    const now = at('2026-11-30T22:00:00Z')
    expect(periodEnd(now, 60, 'month')).toBe(at('2026-11-30T23:00:00Z'))
    expect(projectedSpend(100, 2, now, 60, 'month')).toBe(102)
    // One minute later, local December has begun: 31 days left.
    const december = at('2026-11-30T23:01:00Z')
    expect(periodEnd(december, 60, 'month')).toBe(at('2026-12-31T23:00:00Z'))
  })

  it('follows a DST change inside the period (offset as a function of the instant)', () => {
    // Europe/Berlin-like: +60 before 2026-10-25T01:00Z, +120 before.
    const tz = (d: Date): number => (d.getTime() < at('2026-10-25T01:00:00Z') ? 120 : 60)
    expect(periodEnd(at('2026-10-24T12:00:00Z'), tz, 'month')).toBe(at('2026-10-31T23:00:00Z'))
    // The last day before the change ends at local midnight still at +120.
    expect(periodEnd(at('2026-10-24T12:00:00Z'), tz, 'day')).toBe(at('2026-10-24T22:00:00Z'))
  })

  it('has no end for a total budget', () => {
    expect(projectedSpend(5, 1, at('2026-11-23T12:00:00Z'), 0, 'total')).toBeNull()
  })
})
