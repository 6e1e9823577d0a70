import { describe, expect, it } from 'vitest'
import { barLayout, lastDays } from './chart'

describe('lastDays', () => {
  it('fills the days without cost, across a month end', () => {
    const days = lastDays(
      [
        { date: '2025-02-27', costUsd: 1.5, taskCount: 2 },
        { date: '2025-03-01', costUsd: 0.25, taskCount: 1 },
        { date: '2025-01-01', costUsd: 9, taskCount: 1 }
      ],
      '2025-03-01',
      4
    )
    expect(days).toEqual([
      { date: '2025-02-26', costUsd: 0, taskCount: 0 },
      { date: '2025-02-27', costUsd: 1.5, taskCount: 2 },
      { date: '2025-02-28', costUsd: 0, taskCount: 0 },
      { date: '2025-03-01', costUsd: 0.25, taskCount: 1 }
    ])
    expect(lastDays([], 'garbage', 3)).toEqual([])
  })
})

describe('barLayout', () => {
  it('scales bars to the largest value and fills the width', () => {
    const bars = barLayout([1, 0, 2], 300, 100, 10)
    expect(bars).toEqual([
      { x: 5, y: 50, width: 90, height: 50 },
      { x: 105, y: 100, width: 90, height: 0 },
      { x: 205, y: 0, width: 90, height: 100 }
    ])
  })

  it('draws nothing tall when every day is zero or nonsense', () => {
    expect(barLayout([0, Number.NaN, -3], 90, 50).every((b) => b.height === 0)).toBe(true)
    expect(barLayout([], 90, 50)).toEqual([])
  })
})
