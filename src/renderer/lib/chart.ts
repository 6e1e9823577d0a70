// The cost chart's data and geometry: a run of consecutive days (missing days are 0) and bars
// scaled to the largest, so the SVG component only draws.
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

export interface Bar {
  x: number
  y: number
  width: number
  height: number
}

/** Bars filling `width` x `height`, with `gap` between them; a zero day has no height. */
export function barLayout(values: readonly number[], width: number, height: number, gap = 4): Bar[] {
  if (values.length === 0) return []
  const max = Math.max(0, ...values.map((v) => (Number.isFinite(v) ? v : 0)))
  const slot = width / values.length
  const barWidth = Math.max(1, slot - gap)
  return values.map((v, i) => {
    const value = Number.isFinite(v) && v > 0 ? v : 0
    const h = max === 0 ? 0 : (value / max) * height
    return { x: i * slot + gap / 2, y: height - h, width: barWidth, height: h }
  })
}
