import { describe, expect, it } from 'vitest'
import type { Budget } from '../../shared/budgets'
import { budgetMeterText, periodEnd, resetsIn } from './budget-meter'

const budget = (period: Budget['period'], limitUsd = 25): Budget => ({
  id: 'b',
  projectId: null,
  period,
  limitUsd,
  warnRatio: 0.8
})

describe('budget meter', () => {
  // Local times: the budgets count days and months in local time.
  const afternoon = new Date(2026, 10, 26, 15, 0)

  it('says what is spent of the limit in cents and when a daily budget resets', () => {
    expect(budgetMeterText({ spentUsd: 1.3149, budget: budget('day') }, afternoon)).toBe(
      '$1.31 of $25.00 · resets in 9 h'
    )
  })
  it('ends a month on the 1st of the next, and a total never', () => {
    expect(periodEnd('month', new Date(2026, 11, 31, 12))).toEqual(new Date(2027, 0, 1))
    expect(budgetMeterText({ spentUsd: 0.001, budget: budget('total', 10) }, afternoon)).toBe(
      '<$0.01 of $10.00 in total'
    )
  })
  it('rounds up, so a budget a minute from its end never resets "in 0"', () => {
    expect(resetsIn(new Date(2026, 10, 27), new Date(2026, 10, 26, 23, 59, 30))).toBe('in 1 min')
    expect(resetsIn(new Date(2026, 11, 1), afternoon)).toBe('in 5 d')
  })
})
