// The one rule for a budget in USD: none (null), or an amount from 0 to BUDGET_MAX_USD.
import { formatMoney } from './format'

export const BUDGET_MAX_USD = 1_000_000

export function budgetProblem(value: number | null): string | null {
  if (value === null) return null
  if (!Number.isFinite(value) || value < 0) return 'must be an amount in USD, not negative'
  if (value > BUDGET_MAX_USD) return `must be at most ${formatMoney(BUDGET_MAX_USD)}`
  return null
}

/** A budget as typed ("25", "$2.50"); empty means no budget. */
export function parseBudgetText(text: string): { ok: true; value: number | null } | { ok: false; error: string } {
  const trimmed = text.trim().replace(/^\$/, '')
  if (trimmed === '') return { ok: true, value: null }
  const value = /^\d+(?:\.\d*)?$|^\.\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN
  if (budgetProblem(value) !== null) {
    return {
      ok: false,
      error: `Enter an amount in USD up to ${formatMoney(BUDGET_MAX_USD)}, like 25 or 2.50, or leave it empty.`
    }
  }
  return { ok: true, value }
}
