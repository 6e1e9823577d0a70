// The prices of a running task as the monitor saw them (burn-samples.ts): what the pace is read
// from where no usage records are known. A few samples per task, only as far back as the window.
import { describe, expect, it } from 'vitest'
import { BurnSamples, MAX_SAMPLES_PER_TASK } from './burn-samples'
import { BURN_WINDOW_MS, taskBurnRate } from './pace'

const T0 = Date.parse('2026-11-27T12:00:00Z')
const MIN = 60_000

/** The pace read from what was seen of 't' (its creation unknown), as the budgets read it. */
const pace = (ring: BurnSamples, now: number): number | null =>
  taskBurnRate({ createdMs: Number.NaN, samples: ring.samples('t') }, now)

describe('the prices seen of a running task', () => {
  it('starts with the first price seen, and keeps the first and the latest sight of an unchanged price', () => {
    const ring = new BurnSamples()
    ring.observe('t', 1, true, T0)
    expect(ring.samples('t')).toEqual([{ atMs: T0, priceUsd: 1 }])
    ring.observe('t', 2, true, T0 + MIN)
    ring.observe('t', 2, true, T0 + 2 * MIN)
    ring.observe('t', 2, true, T0 + 3 * MIN)
    expect(ring.samples('t')).toEqual([
      { atMs: T0, priceUsd: 1 },
      { atMs: T0 + MIN, priceUsd: 2 },
      { atMs: T0 + 3 * MIN, priceUsd: 2 }
    ])
  })

  it('keeps what it saw through a poll without a price, and forgets the task once it stops', () => {
    const ring = new BurnSamples()
    ring.observe('t', 1, true, T0)
    ring.observe('t', null, true, T0 + MIN)
    ring.observe('t', Number.NaN, true, T0 + 2 * MIN)
    expect(ring.samples('t')).toEqual([{ atMs: T0, priceUsd: 1 }])
    ring.observe('t', 3, false, T0 + 3 * MIN)
    expect(ring.samples('t')).toEqual([])
    expect(ring.size).toBe(0)
  })

  it('drops what is older than the window but one baseline, a sight exactly at its start being that baseline', () => {
    const ring = new BurnSamples()
    for (const [m, price] of [
      [0, 1],
      [10, 2],
      [15, 3],
      [30, 4]
    ] as const)
      ring.observe('t', price, true, T0 + m * MIN)
    expect(BURN_WINDOW_MS).toBe(15 * MIN)
    expect(ring.samples('t').map((s) => s.priceUsd)).toEqual([3, 4])
  })

  it('keeps at most its bound of samples, the newest', () => {
    const ring = new BurnSamples()
    for (let i = 0; i < 100; i++) ring.observe('t', i, true, T0 + i * 1000)
    expect(ring.samples('t')).toHaveLength(MAX_SAMPLES_PER_TASK)
    expect(ring.samples('t').at(-1)).toEqual({ atMs: T0 + 99_000, priceUsd: 99 })
  })

  it('reads a pace of nothing, not an unknown one, from a price seen twice unchanged', () => {
    const ring = new BurnSamples()
    ring.observe('t', 1, true, T0)
    ring.observe('t', 1, true, T0 + 5 * MIN)
    expect(pace(ring, T0 + 5 * MIN)).toBe(0)
  })

  it('keeps the first price seen as the baseline through many polls of an unchanged price', () => {
    const ring = new BurnSamples()
    ring.observe('t', 1, true, T0)
    ring.observe('t', 2, true, T0 + MIN)
    ring.observe('t', 3, true, T0 + 2 * MIN)
    // Unchanged at $3 for 6 minutes, polled every 5 s: more polls than the ring holds.
    const polls = (6 * MIN) / 5000
    expect(polls).toBeGreaterThan(MAX_SAMPLES_PER_TASK)
    for (let i = 1; i <= polls; i++) ring.observe('t', 3, true, T0 + 2 * MIN + i * 5000)
    // $2 since the first sight, 8 minutes ago: $15 an hour (not $1 since the second sight).
    expect(pace(ring, T0 + 8 * MIN)).toBe(15)
  })

  it('reads no pace from a price that stopped rising and held for the whole window', () => {
    const ring = new BurnSamples()
    ring.observe('t', 1, true, T0)
    ring.observe('t', 2, true, T0 + MIN)
    ring.observe('t', 3, true, T0 + 2 * MIN)
    for (let m = 3; m <= 17; m++) ring.observe('t', 3, true, T0 + m * MIN)
    // $3 since 2 min, the window's start: nothing spent in it.
    expect(pace(ring, T0 + 17 * MIN)).toBe(0)
  })

  it('counts the rise of a price corrected down from where it fell to', () => {
    const ring = new BurnSamples()
    ring.observe('t', 2, true, T0)
    ring.observe('t', 1, true, T0 + 5 * MIN)
    ring.observe('t', 2, true, T0 + 10 * MIN)
    ring.observe('t', 2, true, T0 + 20 * MIN)
    // From $1 at the window's start to $2: $1 in 15 minutes.
    expect(pace(ring, T0 + 20 * MIN)).toBe(4)
  })
})
