// What each measure hands back to run.ts: its headline figures, the targets they are checked
// against, and whatever else helps read them.

export interface Check {
  figure: string
  value: number
  op: '<=' | '>=' | '<'
  limit: number
  met: boolean
}

export interface MeasureResult {
  /** The headline figures, under the names of the results file. */
  figures: Record<string, number>
  /** Figures that are tables (e.g. scale's curve), written beside the headline figures. */
  tables?: Record<string, unknown>
  checks: Check[]
  /** Supporting figures (counts, raw samples summarised, settings used). */
  details: Record<string, unknown>
  /** Anything a reader must know: a mismatch, a missed target's cause, a skipped part. */
  notes: string[]
}

export interface BenchOptions {
  quick: boolean
  log: (line: string) => void
}

export function check(figure: string, value: number, op: Check['op'], limit: number): Check {
  const met = Number.isFinite(value) && (op === '<=' ? value <= limit : op === '>=' ? value >= limit : value < limit)
  return { figure, value, op, limit, met }
}
