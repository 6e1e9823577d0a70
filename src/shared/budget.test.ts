// A budget in USD as typed: the form's reading of it, at the edges rules.test.ts does not reach.
import { describe, expect, it } from 'vitest'
import { BUDGET_MAX_USD, budgetProblem, parseBudgetText } from './budget'

describe('parseBudgetText', () => {
  it('takes a leading point and any number of decimals', () => {
    expect(parseBudgetText('.5')).toEqual({ ok: true, value: 0.5 })
    expect(parseBudgetText('$.55')).toEqual({ ok: true, value: 0.55 })
    expect(parseBudgetText('3.')).toEqual({ ok: true, value: 3 })
  })

  it('takes a dollar sign only in front, and nothing but digits and one point', () => {
    for (const bad of ['2$5', '25$', '+.5', '.5e3', '.', '$$5', '1.2.3'])
      expect(parseBudgetText(bad).ok, bad).toBe(false)
  })

  it('says how to type it', () => {
    expect(parseBudgetText('abc')).toEqual({
      ok: false,
      error: 'Enter an amount in USD up to $1,000,000.00, like 25 or 2.50, or leave it empty.'
    })
  })
})

describe('budgetProblem', () => {
  it('says the bound as money, with cents', () => {
    expect(budgetProblem(BUDGET_MAX_USD + 1)).toBe('must be at most $1,000,000.00')
  })
})
