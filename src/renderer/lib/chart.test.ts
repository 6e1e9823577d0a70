import { describe, expect, it } from 'vitest'
import { formatMoney, MONEY_TICK_STEP } from '../../shared/format'
import { chartLayout, lastDays } from './chart'

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

describe('chartLayout', () => {
  const base = { width: 400, height: 180, labelWidth: 40 }

  it('puts round ticks on the y axis, from 0 to at least the highest bar', () => {
    const layout = chartLayout({ ...base, count: 3, series: [{ name: 'cost', values: [0.37, 0, 1.23] }] })
    expect(layout.yTicks.map((t) => t.value)).toEqual([0, 0.5, 1, 1.5])
    expect(layout.yMax).toBe(1.5)
    expect(layout.yTicks[0]!.y).toBe(layout.plot.bottom)
    expect(layout.yTicks.at(-1)!.y).toBe(layout.plot.top)
  })

  it('draws bars in proportion, a zero day flat, in order across the plot', () => {
    const layout = chartLayout({ ...base, count: 3, series: [{ name: 'cost', values: [1, 0, 2] }] })
    const [a, b, c] = layout.bars
    expect(b!.height).toBe(0)
    expect(c!.height / a!.height).toBeCloseTo(2, 6)
    expect(a!.y + a!.height).toBe(layout.plot.bottom)
    expect(a!.x).toBeGreaterThanOrEqual(layout.plot.left)
    expect(c!.x + c!.width).toBeLessThanOrEqual(layout.plot.right)
    expect(a!.x).toBeLessThan(b!.x)
  })

  it('stacks series in order, each on the one before', () => {
    const layout = chartLayout({
      ...base,
      count: 2,
      series: [
        { name: 'A', values: [1, 2] },
        { name: 'B', values: [3, Number.NaN] }
      ]
    })
    const [a0, b0, a1, b1] = layout.bars
    expect(b0!.y + b0!.height).toBeCloseTo(a0!.y, 6)
    expect(b0!.height / a0!.height).toBeCloseTo(3, 6)
    expect(b1!.height).toBe(0)
    expect(a1!.series).toBe(0)
    expect(layout.maxTotal).toBe(4)
  })

  it('thins the category labels to fit, keeping the newest', () => {
    const narrow = chartLayout({ ...base, width: 300, count: 14, series: [{ name: 'c', values: [] }] })
    const shown = narrow.xLabels.map((l, i) => (l.shown ? i : -1)).filter((i) => i >= 0)
    expect(shown.at(-1)).toBe(13)
    expect(shown.length).toBeLessThan(14)
    const gaps = shown.slice(1).map((v, i) => narrow.xLabels[v]!.x - narrow.xLabels[shown[i]!]!.x)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(44)
    const wide = chartLayout({ ...base, width: 1000, count: 14, series: [{ name: 'c', values: [] }] })
    expect(wide.xLabels.every((l) => l.shown)).toBe(true)
  })

  it('with a cent as the least step, every money tick is a whole number of cents, however small the bars', () => {
    for (const top of [0.0004, 0.003, 0.012, 0.02, 0.37, 7.3, 1234]) {
      const layout = chartLayout({
        ...base,
        count: 2,
        series: [{ name: 'cost', values: [top, top / 3] }],
        minTickStep: MONEY_TICK_STEP
      })
      expect(layout.yTicks.length, `ticks for ${top}`).toBeGreaterThan(1)
      for (const { value } of layout.yTicks) {
        expect(Math.abs(value * 100 - Math.round(value * 100)), `${value} for ${top}`).toBeLessThan(1e-6)
        expect(formatMoney(value)).toMatch(/^\$[\d,]+\.\d{2}$/)
      }
      expect(new Set(layout.yTicks.map((t) => formatMoney(t.value))).size).toBe(layout.yTicks.length)
    }
  })

  it('nothing to draw: one axis from 0 to 1, no bars', () => {
    const layout = chartLayout({ ...base, count: 0, series: [] })
    expect(layout.bars).toEqual([])
    expect(layout.yMax).toBe(1)
  })
})
