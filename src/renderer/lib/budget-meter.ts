// A budget's meter line: "$1.31 of $25 · resets in 9 h". When a period ends is local time, as the
// budgets count it (shared/cost-period).
import type { BudgetStatus } from '../../shared/budgets'
import { formatMoney } from '../../shared/format'

/** When the period that `now` is in ends (local midnight, or the 1st of next month); null for a total. */
export function periodEnd(period: BudgetStatus['budget']['period'], now: Date): Date | null {
  if (period === 'day') return new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1)
  if (period === 'month') return new Date(now.getFullYear(), now.getMonth() + 1, 1)
  return null
}

/** "in 9 h", "in 40 min", "in 5 d": rounded up, so it never says "in 0". */
export function resetsIn(end: Date, now: Date): string {
  const minutes = Math.max(1, Math.ceil((end.getTime() - now.getTime()) / 60_000))
  if (minutes < 60) return `in ${minutes} min`
  const hours = Math.ceil(minutes / 60)
  return hours < 48 ? `in ${hours} h` : `in ${Math.ceil(hours / 24)} d`
}

export function budgetMeterText(status: Pick<BudgetStatus, 'spentUsd' | 'budget'>, now: Date): string {
  const spent = `${formatMoney(status.spentUsd)} of ${formatMoney(status.budget.limitUsd)}`
  const end = periodEnd(status.budget.period, now)
  return end === null ? `${spent} in total` : `${spent} · resets ${resetsIn(end, now)}`
}
