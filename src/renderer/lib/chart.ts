// A bar chart's data and geometry, so the Svelte component only draws.
import { scaleBand, scaleLinear } from 'd3-scale'
import type { DayCost } from '../../shared/cost'

/** The `count` days ending at `endKey` ("YYYY-MM-DD"), oldest first, with 0 for days without cost. */
export function lastDays(days: readonly DayCost[], endKey: string, count: number): DayCost[] {
  const byDate = new Map(days.map((d) => [d.date, d]))
  const end = Date.parse(`${endKey}T00:00:00.000Z`)
  if (Number.isNaN(end) || count <= 0) return []
  const out: DayCost[] = []
  for (let i = count - 1; i >= 0; i--) {
    const date = new Date(end - i * 86_400_000).toISOString().slice(0, 10)
    out.push(byDate.get(date) ?? { date, costUsd: 0, taskCount: 0 })
  }
  return out
}

/** One series: a value per category, in the categories' order (stacked in the series' order). */
export interface ChartSeries {
  name: string
  values: readonly number[]
}

export interface ChartBar {
  category: number
  series: number
  value: number
  x: number
  y: number
  width: number
  height: number
}

export interface ChartLayout {
  /** The plot's box inside the chart. */
  plot: { left: number; top: number; right: number; bottom: number }
  /** Y axis ticks: value and pixel position. */
  yTicks: { value: number; y: number }[]
  /** The top of the y axis (a round value at or above the highest stack). */
  yMax: number
  bars: ChartBar[]
  /** Centre of each category's band, and whether its label is drawn. */
  xLabels: { x: number; shown: boolean }[]
  /** The highest stack (sum of the series) of one category. */
  maxTotal: number
}

const finite = (v: number | undefined): number => (v !== undefined && Number.isFinite(v) && v > 0 ? v : 0)

/**
 * `labelWidth` bounds a y tick label (the plot starts after it); x labels are thinned to `minLabelGap` px apart.
 * `minTickStep` (a power of ten: money's cent) keeps the ticks on its multiples, so each can be written exactly.
 */
export function chartLayout(input: {
  count: number
  series: readonly ChartSeries[]
  width: number
  height: number
  labelWidth: number
  xAxisHeight?: number
  minLabelGap?: number
  ticks?: number
  minTickStep?: number
}): ChartLayout {
  const count = Math.max(0, Math.floor(input.count))
  const plot = {
    left: input.labelWidth + 6,
    top: 8,
    right: Math.max(input.labelWidth + 7, input.width - 4),
    bottom: Math.max(9, input.height - (input.xAxisHeight ?? 20))
  }
  const totals = Array.from({ length: count }, (_, i) =>
    input.series.reduce((s, serie) => s + finite(serie.values[i]), 0)
  )
  const maxTotal = Math.max(0, ...totals)
  const tickCount = input.ticks ?? 4
  // A top of at least `tickCount` steps makes d3's tick step at least one step (it rounds to 1, 2 or 5 × 10ⁿ).
  const top = Math.max(maxTotal > 0 ? maxTotal : 1, (input.minTickStep ?? 0) * tickCount)
  const y = scaleLinear().domain([0, top]).nice(tickCount).range([plot.bottom, plot.top])
  const yMax = y.domain()[1] ?? 1
  const x = scaleBand<number>()
    .domain(Array.from({ length: count }, (_, i) => i))
    .range([plot.left, plot.right])
    .paddingInner(0.2)
    .paddingOuter(0.1)
  const band = x.bandwidth()
  const bars: ChartBar[] = []
  for (let c = 0; c < count; c++) {
    let base = 0
    input.series.forEach((serie, s) => {
      const value = finite(serie.values[c])
      const top = y(base + value)
      bars.push({ category: c, series: s, value, x: x(c) ?? 0, y: top, width: band, height: y(base) - top })
      base += value
    })
  }
  const every = Math.max(1, Math.ceil((input.minLabelGap ?? 44) / Math.max(1, x.step())))
  return {
    plot,
    yTicks: y.ticks(tickCount).map((value) => ({ value, y: y(value) })),
    yMax,
    bars,
    // The newest category always has its label; the others every `every`, counted back from it.
    xLabels: Array.from({ length: count }, (_, i) => ({
      x: (x(i) ?? 0) + band / 2,
      shown: (count - 1 - i) % every === 0
    })),
    maxTotal
  }
}
