// The one set of bounds for polling, checked by the settings file, the window's requests and the
// Settings form alike. Below a second, a tray app would hammer the service; above the maxima, it
// would look broken.
import type { PollingPrefs } from './settings'

export const POLLING_BOUNDS = {
  activeIntervalMs: { min: 1_000, max: 3_600_000 },
  idleIntervalMs: { min: 5_000, max: 86_400_000 },
  maxConcurrency: { min: 1, max: 16 }
} as const

export type PollingField = keyof typeof POLLING_BOUNDS

/** What is wrong with each field (idle >= active included), or an empty object. */
export function pollingProblems(prefs: PollingPrefs): Partial<Record<PollingField, string>> {
  const problems: Partial<Record<PollingField, string>> = {}
  for (const field of Object.keys(POLLING_BOUNDS) as PollingField[]) {
    const value = prefs[field]
    const { min, max } = POLLING_BOUNDS[field]
    if (!Number.isInteger(value) || value < min || value > max) problems[field] = `must be a whole number from ${min} to ${max}`
  }
  if (problems.activeIntervalMs === undefined && problems.idleIntervalMs === undefined && prefs.idleIntervalMs < prefs.activeIntervalMs) {
    problems.idleIntervalMs = 'must not be shorter than activeIntervalMs'
  }
  return problems
}
