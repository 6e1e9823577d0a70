import { describe, expect, it } from 'vitest'
import {
  type Budget,
  budgetLevel,
  budgetListProblem,
  budgetPeriodKey,
  budgetProblems,
  MAX_BUDGETS_PER_CONNECTION,
  parseWarnPercent,
  periodTitle,
  periodWords
} from './budgets'

const b = (over: Partial<Budget> = {}): Budget => ({
  id: 'a',
  projectId: null,
  period: 'month',
  limitUsd: 50,
  warnRatio: 0.8,
  ...over
})

describe('the budget rule', () => {
  it('accepts a budget within bounds and names each wrong field', () => {
    expect(budgetProblems(b())).toEqual({})
    expect(
      Object.keys(budgetProblems(b({ limitUsd: -1, warnRatio: 1, period: 'week' as Budget['period'], projectId: ' ' })))
    ).toEqual(['limitUsd', 'period', 'warnRatio', 'scope'])
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

  it('says what is wrong in words the form shows', () => {
    expect(
      budgetProblems(b({ limitUsd: -1, warnRatio: 0.8, period: 'week' as Budget['period'], projectId: '' }))
    ).toEqual({
      limitUsd: expect.stringMatching(/^The limit .+\.$/),
      period: 'The period must be day, month or total.',
      scope: 'The project is missing.'
    })
    expect(budgetProblems(b({ warnRatio: 0.01 })).warnRatio).toBe(
      'The warning must be between 5 % and 99 % of the limit.'
    )
  })

  it('takes a warning from 5 % to 99 % of the limit, and nothing that is not a number', () => {
    for (const warnRatio of [0.05, 0.99]) expect(budgetProblems(b({ warnRatio })), String(warnRatio)).toEqual({})
    for (const warnRatio of [0.0499, 0.9901, Number.NaN, Number.POSITIVE_INFINITY, '0.8' as unknown as number]) {
      expect(Object.keys(budgetProblems(b({ warnRatio }))), String(warnRatio)).toEqual(['warnRatio'])
    }
    // A project id that is no string (a damaged file) is no project.
    expect(Object.keys(budgetProblems(b({ projectId: 7 as unknown as string })))).toEqual(['scope'])
    expect(budgetProblems(b({ projectId: 'p1' }))).toEqual({})
  })

  it('keeps at most the bound of budgets per account', () => {
    const many = (n: number) => Array.from({ length: n }, (_, i) => b({ id: `b${i}`, projectId: `p${i}` }))
    expect(budgetListProblem(many(MAX_BUDGETS_PER_CONNECTION))).toBeNull()
    expect(budgetListProblem(many(MAX_BUDGETS_PER_CONNECTION + 1))).toBe(
      `An account may have at most ${MAX_BUDGETS_PER_CONNECTION} budgets.`
    )
  })

  it('reads a warning as typed: a number of percent, with or without the sign, from 5 to 99', () => {
    expect(parseWarnPercent(' 85% ')).toEqual({ ok: true, value: 0.85 })
    expect(parseWarnPercent('5')).toEqual({ ok: true, value: 0.05 })
    expect(parseWarnPercent('99')).toEqual({ ok: true, value: 0.99 })
    expect(parseWarnPercent('62.25')).toEqual({ ok: true, value: 0.6225 })
    for (const bad of ['4.9', '99.1', '80%%', '%80', '80 % x', 'x80', '80x', '8.', '8.x', '-80', '+80', '80e0', '0x50'])
      expect(parseWarnPercent(bad).ok, bad).toBe(false)
    expect(parseWarnPercent('4')).toEqual({
      ok: false,
      error: 'Enter a warning between 5 and 99 percent, or leave it empty for 80.'
    })
  })

  it('tells where spending stands against a budget by its own warning share', () => {
    const budget = b({ limitUsd: 50, warnRatio: 0.5 })
    expect([24.99, 25, 49.99, 50].map((spent) => budgetLevel(spent, budget))).toEqual(['ok', 'near', 'near', 'over'])
  })

  it('says a period as a notification and the window do', () => {
    expect(['day', 'month', 'total'].map((p) => periodWords(p as Budget['period']))).toEqual([
      'today',
      'this month',
      'in total'
    ])
    expect(['day', 'month', 'total'].map((p) => periodTitle(p as Budget['period']))).toEqual([
      'Daily',
      'Monthly',
      'Total'
    ])
  })
})
