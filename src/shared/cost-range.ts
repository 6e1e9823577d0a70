// One rule for a cost report's range of local days, so the command, the window's request and the Costs screen agree.

/** The default range: the last 30 days, today included. */
export const DEFAULT_RANGE_DAYS = 30
/** The longest range a report covers (ten years of days). */
export const MAX_RANGE_DAYS = 3_660

/** Inclusive local days, "YYYY-MM-DD". */
export interface CostRange {
  since: string
  until: string
}

export type CostRangeField = keyof CostRange

/** What each surface calls the two days in its messages: the flags, the request's fields, the form's words. */
export type CostRangeNames = Record<CostRangeField, string>

export const REQUEST_RANGE_NAMES: CostRangeNames = { since: 'since', until: 'until' }
export const COMMAND_RANGE_NAMES: CostRangeNames = { since: '--since', until: '--until' }
/** The Costs screen's words (its From and To fields). */
export const WINDOW_RANGE_NAMES: CostRangeNames = { since: 'the first day', until: 'the last day' }

/** A problem with a range as asked: the field it is on, and what is wrong, without the field's name. */
export interface CostRangeProblem {
  field: CostRangeField
  problem: string
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/** A calendar day as typed ("2026-03-01"); null when it is not one. */
export function parseDay(text: string): string | null {
  const day = text.trim()
  const m = DAY.exec(day)
  if (!m) return null
  const [year, month, date] = [Number(m[1]), Number(m[2]), Number(m[3])]
  // By arithmetic, not Date.UTC, which reads years 0 to 99 as 1900 to 1999 (a date input holds
  // "0002-03-10" while its year is being typed).
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
  return length !== undefined && date >= 1 && date <= length ? day : null
}

/** The day `n` days after (or before) `day`. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + n * 86_400_000).toISOString().slice(0, 10)
}

/** Days from since to until, inclusive. */
export function rangeDays(range: CostRange): number {
  return Math.round((Date.parse(`${range.until}T00:00:00Z`) - Date.parse(`${range.since}T00:00:00Z`)) / 86_400_000) + 1
}

/** What is wrong with the range, or null; `today` null checks only what the days say on their own (no clock). */
export function costRangeProblem(
  asked: { since?: string | undefined; until?: string | undefined },
  today: string | null,
  names: CostRangeNames = REQUEST_RANGE_NAMES
): CostRangeProblem | null {
  const example = today ?? '2026-03-01'
  const until = asked.until === undefined ? today : parseDay(asked.until)
  if (asked.until !== undefined && until === null)
    return { field: 'until', problem: `must be a date as YYYY-MM-DD, such as ${example}` }
  // An omitted since (DEFAULT_RANGE_DAYS before until) is never wrong on its own: only until can be.
  const since = asked.since === undefined ? null : parseDay(asked.since)
  if (asked.since !== undefined && since === null)
    return {
      field: 'since',
      problem: `must be a date as YYYY-MM-DD, such as ${addDays(example, -(DEFAULT_RANGE_DAYS - 1))}`
    }
  if (today !== null && since !== null && since > today)
    return { field: 'since', problem: `must not be after today (${today})` }
  if (today !== null && until !== null && until > today)
    return { field: 'until', problem: `must not be after today (${today})` }
  if (since === null || until === null) return null
  if (since > until) return { field: 'until', problem: `must not be before ${names.since} (${since})` }
  if (rangeDays({ since, until }) > MAX_RANGE_DAYS) {
    return {
      field: 'since',
      problem: `must be ${addDays(until, -(MAX_RANGE_DAYS - 1))} or later: a range covers at most ${MAX_RANGE_DAYS} days`
    }
  }
  return null
}

/** A problem as one sentence that names its field, e.g. "--until must not be after today (2026-03-31)." */
export function costRangeMessage(problem: CostRangeProblem, names: CostRangeNames): string {
  const subject = names[problem.field]
  return `${subject.charAt(0).toUpperCase()}${subject.slice(1)} ${problem.problem}.`
}

/** The range asked for, with the defaults (the last 30 days up to today); the problem when it is not a range. */
export function resolveRange(
  asked: { since?: string | undefined; until?: string | undefined },
  today: string,
  names: CostRangeNames = REQUEST_RANGE_NAMES
): { ok: true; range: CostRange } | { ok: false; problem: CostRangeProblem; error: string } {
  const problem = costRangeProblem(asked, today, names)
  if (problem !== null) return { ok: false, problem, error: costRangeMessage(problem, names) }
  const until = asked.until === undefined ? today : parseDay(asked.until)!
  const since = asked.since === undefined ? addDays(until, -(DEFAULT_RANGE_DAYS - 1)) : parseDay(asked.since)!
  return { ok: true, range: { since, until } }
}
