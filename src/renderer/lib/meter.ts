// How much of a meter's track is filled. The colour (ok, near, over) is shared/cost.ts's
// budgetState, the one owner of the thresholds.

/** The filled part, 0–100, for drawing: never past the track. */
export function meterPercent(value: number, max: number): number {
  if (!(max > 0) || !Number.isFinite(value)) return value > 0 ? 100 : 0
  return Math.min(100, Math.max(0, (value / max) * 100))
}

/** The track's full scale: the limit, or more once spending (or where it heads) went past it, so the limit stays marked. */
export function meterScale(max: number, ...values: readonly (number | null | undefined)[]): number {
  const seen = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v))
  return Math.max(max, ...seen) || 1
}
