// The one format for a time of day (quiet hours): "HH:MM", 24-hour, local time.

const TIME_OF_DAY = /^(?:[01]\d|2[0-3]):[0-5]\d$/

export const TIME_OF_DAY_PROBLEM = 'must be a time "HH:MM" (00:00 to 23:59)'

export function isTimeOfDay(text: string): boolean {
  return TIME_OF_DAY.test(text)
}

/** Minutes since midnight, or null for anything that is not "HH:MM". */
export function minutesOfDay(text: string): number | null {
  if (!isTimeOfDay(text)) return null
  return Number(text.slice(0, 2)) * 60 + Number(text.slice(3, 5))
}

/** The times a quiet hour may be chosen at: every half hour, from midnight. */
export const TIME_OF_DAY_STEP_MINUTES = 30

/** Every "HH:MM" a step apart from midnight, with `keep` among them in order when it is a time off the step. */
export function timesOfDay(keep?: string): string[] {
  const times: string[] = []
  for (let m = 0; m < 24 * 60; m += TIME_OF_DAY_STEP_MINUTES)
    times.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`)
  if (keep !== undefined && isTimeOfDay(keep) && !times.includes(keep)) {
    times.push(keep)
    times.sort()
  }
  return times
}
