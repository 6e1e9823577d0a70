// The Costs screen's ranges end today; a custom one is checked by the same rule as the command's and the request's.
import { addDays, type CostRange, type CostRangeField, resolveRange, WINDOW_RANGE_NAMES } from '../../shared/cost-range'
import type { FieldErrors } from './forms'

/** `chip` is what the range's chip says; `label` its name in full (the chip's accessible name). */
export const COST_RANGES = [
  { id: 'last-7', chip: '7d', label: 'Last 7 days' },
  { id: 'last-30', chip: '30d', label: 'Last 30 days' },
  { id: 'last-90', chip: '90d', label: 'Last 90 days' },
  { id: 'this-month', chip: 'Month', label: 'This month' }
] as const

export type CostRangeId = (typeof COST_RANGES)[number]['id']

/** What the user chose: a preset, or days of their own. */
export type CostRangeChoice = { id: CostRangeId } | { id: 'custom'; range: CostRange }

/** The range `id` stands for when today is `today` ("YYYY-MM-DD"). */
export function costRange(id: CostRangeId, today: string): CostRange {
  switch (id) {
    case 'last-7':
      return { since: addDays(today, -6), until: today }
    case 'last-30':
      return { since: addDays(today, -29), until: today }
    case 'last-90':
      return { since: addDays(today, -89), until: today }
    case 'this-month':
      return { since: `${today.slice(0, 7)}-01`, until: today }
  }
}

/** The days a choice stands for today. */
export function chosenRange(choice: CostRangeChoice, today: string): CostRange {
  return choice.id === 'custom' ? choice.range : costRange(choice.id, today)
}

/** The custom range's fields as the form holds them ('' while not a whole date), each problem on its field. */
export function checkCustomRange(
  typed: CostRange,
  today: string
): { ok: true; range: CostRange } | { ok: false; errors: FieldErrors<CostRangeField> } {
  const errors: FieldErrors<CostRangeField> = {}
  if (typed.since === '') errors.since = 'Enter the first day as a whole date.'
  if (typed.until === '') errors.until = 'Enter the last day as a whole date.'
  if (errors.since || errors.until) return { ok: false, errors }
  const resolved = resolveRange(typed, today, WINDOW_RANGE_NAMES)
  return resolved.ok ? resolved : { ok: false, errors: { [resolved.problem.field]: resolved.error } }
}
