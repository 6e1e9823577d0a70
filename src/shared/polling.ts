// One set of polling bounds for every surface: below a second a tray app would hammer the service (its rate limits
// are not published); above the maxima it would look broken.
import type { PollingPrefs } from './settings'

export const POLLING_BOUNDS = {
  activeIntervalMs: { min: 1_000, max: 3_600_000 },
  idleIntervalMs: { min: 5_000, max: 86_400_000 },
  maxConcurrency: { min: 1, max: 16 }
} as const

export type PollingField = keyof typeof POLLING_BOUNDS

/** The command's single interval, held to the active interval's bounds; its minimum also floors the error backoff. */
export const SINGLE_INTERVAL_BOUNDS = POLLING_BOUNDS.activeIntervalMs

/** What is wrong with a value for these bounds, or null: the one wording for every polling field. */
export function boundProblem(value: number, bounds: { readonly min: number; readonly max: number }): string | null {
  return Number.isInteger(value) && value >= bounds.min && value <= bounds.max
    ? null
    : `must be a whole number from ${bounds.min} to ${bounds.max}`
}

/** What is wrong with each field (idle >= active included), or an empty object. */
export function pollingProblems(prefs: PollingPrefs): Partial<Record<PollingField, string>> {
  const problems: Partial<Record<PollingField, string>> = {}
  for (const field of Object.keys(POLLING_BOUNDS) as PollingField[]) {
    const problem = boundProblem(prefs[field], POLLING_BOUNDS[field])
    if (problem !== null) problems[field] = problem
  }
  if (
    problems.activeIntervalMs === undefined &&
    problems.idleIntervalMs === undefined &&
    prefs.idleIntervalMs < prefs.activeIntervalMs
  ) {
    problems.idleIntervalMs = 'must not be shorter than activeIntervalMs'
  }
  return problems
}
