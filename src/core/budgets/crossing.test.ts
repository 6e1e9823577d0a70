import { describe, expect, it } from 'vitest'
import { type Budget, budgetPeriodKey } from '../../shared/budgets'
import { checkCrossing, type ToldCrossing } from './crossing'

const budget = (period: Budget['period'], over: Partial<Budget> = {}): Budget => ({
  id: 'b',
  projectId: null,
  period,
  limitUsd: 10,
  warnRatio: 0.8,
  ...over
})

/** Runs spend readings through the check, as the app does poll after poll; returns what was told. */
function run(b: Budget, readings: { at: string; spent: number }[], tz: number): string[] {
  let told: ToldCrossing | null = null
  const out: string[] = []
  for (const r of readings) {
    const key = budgetPeriodKey(r.at, tz, b.period) as string
    const check = checkCrossing(b, key, r.spent, told)
    told = check.told
    if (check.crossed) out.push(`${key} ${check.crossed}`)
  }
  return out
}

describe('a budget is told once per crossing, per period', () => {
  it('day: warning then limit once each; a new local day starts afresh (UTC+9 midnight is 15:00 UTC)', () => {
    const told = run(
      budget('day'),
      [
        { at: '2026-11-23T10:00:00Z', spent: 7 },
        { at: '2026-11-23T11:00:00Z', spent: 8 },
        { at: '2026-11-23T12:00:00Z', spent: 9 },
        { at: '2026-11-23T13:00:00Z', spent: 10 },
        { at: '2026-11-23T14:59:00Z', spent: 12 },
        { at: '2026-11-23T15:01:00Z', spent: 8.5 },
        { at: '2026-11-23T16:00:00Z', spent: 11 }
      ],
      540
    )
    expect(told).toEqual(['2026-11-23 near', '2026-11-23 over', '2026-11-24 near', '2026-11-24 over'])
  })

  it('month: across the month end in local time (UTC-8: 1 Dec 05:00 UTC is still November)', () => {
    const told = run(
      budget('month', { limitUsd: 100 }),
      [
        { at: '2026-11-20T00:00:00Z', spent: 85 },
        { at: '2026-12-01T05:00:00Z', spent: 101 },
        { at: '2026-12-01T09:00:00Z', spent: 2 },
        { at: '2026-12-02T09:00:00Z', spent: 150 }
      ],
      -480
    )
    expect(told).toEqual(['2026-11 near', '2026-11 over', '2026-12 over'])
  })

  it('total: told once for good, again only after falling back (a raised limit) and crossing again', () => {
    const b = budget('total')
    let told: ToldCrossing | null = null
    const step = (spent: number, limitUsd = 10): string | null => {
      const check = checkCrossing({ ...b, limitUsd }, 'total', spent, told)
      told = check.told
      return check.crossed
    }
    expect(step(11)).toBe('over')
    expect(step(12)).toBeNull()
    // A new limit is another budget: nothing was told of it.
    expect(step(12, 20)).toBeNull()
    expect(step(17, 20)).toBe('near')
    expect(step(21, 20)).toBe('over')
  })

  it('a changed limit is another budget: its limit is told afresh in the same period', () => {
    let told: ToldCrossing | null = null
    const step = (spent: number, limitUsd: number): string | null => {
      const check = checkCrossing(budget('day', { limitUsd }), '2026-11-23', spent, told)
      told = check.told
      return check.crossed
    }
    expect(step(11, 10)).toBe('over')
    // The user raises the limit to $12 and spending goes past it too: that is news.
    expect(step(12.5, 12)).toBe('over')
    expect(step(13, 12)).toBeNull()
  })

  it('a changed warning share is another budget: its warning is told afresh in the same period', () => {
    let told: ToldCrossing | null = null
    const step = (spent: number, warnRatio: number): string | null => {
      const check = checkCrossing(budget('day', { warnRatio }), '2026-11-23', spent, told)
      told = check.told
      return check.crossed
    }
    expect(step(8.5, 0.8)).toBe('near')
    expect(step(8.6, 0.8)).toBeNull()
    // The user lowers the warning to 50 %: spending is past it, and that is news.
    expect(step(8.6, 0.5)).toBe('near')
    expect(step(8.7, 0.5)).toBeNull()
  })
})
