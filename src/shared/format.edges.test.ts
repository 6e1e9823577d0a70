// The edges of shared/format.ts's forms: where one form hands over to the next.
import { describe, expect, it } from 'vitest'
import { formatDuration, formatTokens, formatUsd, formatUsdFixed, usdColumnDecimals } from './format'

describe('money at its edges', () => {
  it('shows cents from what rounds to a dollar, and every digit below it', () => {
    expect(formatUsd(0.996)).toBe('$1.00')
    expect(formatUsd(0.994)).toBe('$0.994')
    expect(formatUsd(1.004)).toBe('$1.00')
    expect(formatUsd(1234567.5)).toBe('$1,234,567.50')
    expect(formatUsd(-1234)).toBe('-$1,234.00')
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
    expect(formatTokens(1000)).toBe('1k')
    expect(formatTokens(-1500)).toBe('-1.5k')
    expect(formatTokens(2.5e9)).toBe('2.5B')
    // No unit past billions: a thousand billion stays in billions.
    expect(formatTokens(1e12)).toBe('1000B')
  })
})

describe('durations at their edges', () => {
  it('hands over to the next unit exactly at it', () => {
    expect(formatDuration(0)).toBe('0ms')
    expect(formatDuration(999)).toBe('999ms')
    expect(formatDuration(1000)).toBe('1s')
    expect(formatDuration(60_000)).toBe('1m 00s')
    expect(formatDuration(3_600_000)).toBe('1h 00m')
    expect(formatDuration(86_400_000)).toBe('1d 0h')
  })
})
