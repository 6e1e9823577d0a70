// Order statistics for the benchmark figures: medians and percentiles, never means of noisy runs.

/** The p-th percentile (0..100) by linear interpolation between closest ranks; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1)
  const lo = Math.floor(rank)
  const hi = Math.ceil(rank)
  const a = sorted[lo] as number
  const b = sorted[hi] as number
  return a + (b - a) * (rank - lo)
}

export function median(values: readonly number[]): number {
  return percentile(values, 50)
}

/** Rounds for display and for the results file: figures are noisy past a few digits. */
export function round(value: number, digits = 1): number {
  if (!Number.isFinite(value)) return value
  const f = 10 ** digits
  return Math.round(value * f) / f
}
