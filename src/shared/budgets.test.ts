import { describe, expect, it } from 'vitest'
import { budgetListProblem, budgetPeriodKey, budgetProblems, parseWarnPercent, type Budget } from './budgets'

const b = (over: Partial<Budget> = {}): Budget => ({ id: 'a', projectId: null, period: 'month', limitUsd: 50, warnRatio: 0.8, ...over })

describe('the budget rule', () => {
  it('accepts a budget within bounds and names each wrong field', () => {
    expect(budgetProblems(b())).toEqual({})
    expect(Object.keys(budgetProblems(b({ limitUsd: -1, warnRatio: 1, period: 'week' as Budget['period'], projectId: ' ' })))).toEqual([
      'limitUsd',
      'period',
      'warnRatio',
      'scope'
    ])
  })

  it('allows one budget per scope and period', () => {
    expect(budgetListProblem([b(), b({ id: 'b', period: 'day' }), b({ id: 'c', projectId: 'p1' })])).toBeNull()
    expect(budgetListProblem([b(), b({ id: 'b' })])).toMatch(/already a budget/)
    expect(budgetListProblem([b(), b({ period: 'day' })])).toMatch(/id a/)
  })

  it('reads a warning in percent, empty as the default', () => {
    expect(parseWarnPercent('')).toEqual({ ok: true, value: 0.8 })
    expect(parseWarnPercent('90 %')).toEqual({ ok: true, value: 0.9 })
    expect(parseWarnPercent('100').ok).toBe(false)
    expect(parseWarnPercent('abc').ok).toBe(false)
  })

  it('keys a moment by its local period', () => {
    expect(budgetPeriodKey('2026-11-30T23:30:00Z', 60, 'day')).toBe('2026-12-01')
    expect(budgetPeriodKey('2026-11-30T23:30:00Z', 60, 'month')).toBe('2026-12')
    expect(budgetPeriodKey('2026-11-30T23:30:00Z', 60, 'total')).toBe('total')
  })
})
