// The Costs screen's ranges, as local days ending today: the last 7, 30 or 90 days, this month,
// last month, this year. The command takes any range (--since, --until); the window offers these.
import { addDays, type CostRange } from '../../shared/cost-range'

export const COST_RANGES = [
  { id: 'last-7', label: 'Last 7 days' },
  { id: 'last-30', label: 'Last 30 days' },
  { id: 'last-90', label: 'Last 90 days' },
  { id: 'this-month', label: 'This month' },
  { id: 'last-month', label: 'Last month' },
  { id: 'this-year', label: 'This year' }
] as const

export type CostRangeId = (typeof COST_RANGES)[number]['id']

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
    case 'last-month': {
      const lastDay = addDays(`${today.slice(0, 7)}-01`, -1)
      return { since: `${lastDay.slice(0, 7)}-01`, until: lastDay }
    }
    case 'this-year':
      return { since: `${today.slice(0, 4)}-01-01`, until: today }
  }
}
