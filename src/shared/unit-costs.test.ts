import { describe, expect, it } from 'vitest'
import { formatAmount } from './format'
import {
  accountUnits,
  type CostedTask,
  MAX_UNIT_BUDGETS_PER_ACCOUNT,
  parseUnitLimit,
  spentIn,
  taskPeriodKey,
  type UnitBudget,
  unitBudgetListProblem,
  unitBudgetProblems,
  unitBudgetStatuses,
  unitSpend
} from './unit-costs'

// UTC+2: 23:30 UTC on the 30th is already the 1st of the next month locally.
const TZ = 120
const NOW = Date.parse('2026-11-23T10:00:00Z')
const task = (createdAt: string | null, costs: CostedTask['costs'], updatedAt: string | null = null): CostedTask => ({
  createdAt,
  updatedAt,
  costs
})
const acu = (amount: number) => ({ amount, unit: 'ACU' })

describe('which period an agent task counts in', () => {
  it('is the local day and month it was created, else its last update, always in total', () => {
    const t = task('2026-10-31T23:30:00Z', [])
    expect(taskPeriodKey(t, TZ, 'day')).toBe('2026-11-01')
    expect(taskPeriodKey(t, TZ, 'month')).toBe('2026-11')
    expect(taskPeriodKey(task(null, [], '2026-11-02T00:00:00Z'), TZ, 'day')).toBe('2026-11-02')
    expect(taskPeriodKey(task('not a time', [], '2026-11-02T00:00:00Z'), TZ, 'month')).toBe('2026-11')
    expect(taskPeriodKey(task(null, []), TZ, 'day')).toBeNull()
    expect(taskPeriodKey(task(null, []), TZ, 'total')).toBe('total')
  })

  it('adds one unit up per period and never adds two units together', () => {
    const tasks = [
      task('2026-11-23T08:00:00Z', [acu(2.5), { amount: 3, unit: 'premium requests' }]),
      task('2026-11-02T08:00:00Z', [acu(10)]),
      task('2026-10-20T08:00:00Z', [acu(30), { amount: Number.NaN, unit: 'ACU' }]),
      task('2026-11-23T09:00:00Z', [
        { amount: 0.1, unit: 'ACU' },
        { amount: 0.2, unit: 'ACU' }
      ])
    ]
    expect(spentIn(tasks, 'ACU', 'month', '2026-11', TZ)).toBe(12.8)
    expect(spentIn(tasks, 'ACU', 'total', 'total', TZ)).toBe(42.8)
    expect(unitSpend(tasks, NOW, TZ)).toEqual([
      { unit: 'ACU', today: 2.8, thisMonth: 12.8, total: 42.8, tasks: 4 },
      { unit: 'premium requests', today: 3, thisMonth: 3, total: 3, tasks: 1 }
    ])
    expect(unitSpend([], NOW, TZ)).toEqual([])
  })
})

const budget = (over: Partial<UnitBudget> = {}): UnitBudget => ({
  id: 'u1',
  unit: 'ACU',
  period: 'month',
  limit: 100,
  warnRatio: 0.8,
  ...over
})

describe('a per-unit budget', () => {
  it('names each wrong field, the unit among the account’s when they are given', () => {
    expect(unitBudgetProblems(budget())).toEqual({})
    expect(unitBudgetProblems(budget(), ['ACU'])).toEqual({})
    expect(unitBudgetProblems(budget(), ['AI credits']).unit).toMatch(/one this account reports: AI credits/)
    expect(unitBudgetProblems(budget(), []).unit).toMatch(/no cost unit yet/)
    expect(
      Object.keys(
        unitBudgetProblems(budget({ unit: ' ', limit: -1, period: 'week' as UnitBudget['period'], warnRatio: 1 }))
      )
    ).toEqual(['unit', 'limit', 'period', 'warnRatio'])
    expect(unitBudgetProblems(budget({ unit: 'a\nb' })).unit).toMatch(/one short line/)
    expect(unitBudgetProblems(budget({ limit: 2_000_000 })).limit).toBe('The limit must be at most 1,000,000 ACU.')
    expect(unitBudgetProblems(budget({ limit: Number.NaN })).limit).toMatch(/an amount/)
  })

  it('is one per unit and period, within the bound', () => {
    expect(
      unitBudgetListProblem([budget(), budget({ id: 'u2', period: 'day' }), budget({ id: 'u3', unit: 'USD' })])
    ).toBeNull()
    expect(unitBudgetListProblem([budget(), budget({ id: 'u2' })])).toMatch(/already a budget for that unit/)
    expect(unitBudgetListProblem([budget(), budget({ period: 'day' })])).toMatch(/id u1/)
    const many = Array.from({ length: MAX_UNIT_BUDGETS_PER_ACCOUNT + 1 }, (_, i) =>
      budget({ id: `u${i}`, unit: `u${i}` })
    )
    expect(unitBudgetListProblem(many)).toMatch(/at most 30/)
  })

  it('reads a limit as typed, with or without its unit', () => {
    expect(parseUnitLimit('100', 'ACU')).toEqual({ ok: true, value: 100 })
    expect(parseUnitLimit(' 100 acu ', 'ACU')).toEqual({ ok: true, value: 100 })
    expect(parseUnitLimit('1,500.5 premium requests', 'premium requests')).toEqual({ ok: true, value: 1500.5 })
    expect(parseUnitLimit('$25', 'USD')).toEqual({ ok: true, value: 25 })
    expect(parseUnitLimit('', 'ACU')).toEqual({ ok: true, value: null })
    expect(parseUnitLimit('-3', 'ACU')).toEqual({
      ok: false,
      error: 'Enter an amount of ACU up to 1,000,000 ACU, like 100.'
    })
    expect(parseUnitLimit('lots', 'ACU').ok).toBe(false)
  })

  it('stands against what the account spent in its unit in the current period', () => {
    const tasks = [task('2026-11-20T08:00:00Z', [acu(85)]), task('2026-10-20T08:00:00Z', [acu(50)])]
    const statuses = unitBudgetStatuses(
      [budget(), budget({ id: 'u2', period: 'total' }), budget({ id: 'u3', period: 'day', limit: 0 })],
      tasks,
      NOW,
      TZ
    )
    expect(statuses.map((s) => [s.periodKey, s.spent, s.state])).toEqual([
      ['2026-11', 85, 'near'],
      ['total', 135, 'over'],
      ['2026-11-23', 0, 'ok']
    ])
  })

  it('may be in the units the service declares or its tasks reported', () => {
    expect(accountUnits(['ACU'], [task(null, [{ amount: 1, unit: 'USD' }, acu(1)])])).toEqual(['ACU', 'USD'])
    expect(accountUnits(undefined, [])).toEqual([])
  })
})

describe('an amount in its unit', () => {
  it('is money in USD, else the amount and the unit named', () => {
    expect(formatAmount(42.5, 'ACU')).toBe('42.5 ACU')
    expect(formatAmount(1234.567, 'AI credits')).toBe('1,234.57 AI credits')
    expect(formatAmount(0.001, 'ACU')).toBe('<0.01 ACU')
    expect(formatAmount(0, 'ACU')).toBe('0 ACU')
    expect(formatAmount(2.5, 'USD')).toBe('$2.50')
    expect(formatAmount(Number.NaN, 'ACU')).toBe('– ACU')
  })
})
