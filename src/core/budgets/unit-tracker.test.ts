import { describe, expect, it } from 'vitest'
import type { BudgetState } from '../../shared/cost'
import type { UnitBudget, UnitBudgetStatus } from '../../shared/unit-costs'
import { createUnitBudgetTracker, type UnitToldMemory } from './unit-tracker'

const AT = Date.parse('2026-03-10T12:00:00Z')
const budget = (over: Partial<UnitBudget> = {}): UnitBudget => ({
  id: 'u1',
  unit: 'ACU',
  period: 'month',
  limit: 100,
  warnRatio: 0.8,
  ...over
})
const status = (spent: number, state: BudgetState, over: Partial<UnitBudget> = {}, periodKey = '2026-03') => ({
  budget: budget(over),
  periodKey,
  spent,
  state
})

function tracker(memory: UnitToldMemory = {}) {
  const writes: UnitToldMemory[] = []
  const t = createUnitBudgetTracker({
    read: () => memory,
    write: async (m) => {
      writes.push(m)
    },
    onError: () => {}
  })
  const levels = (statuses: UnitBudgetStatus[]) => t.check('d', statuses, AT).map((e) => e.level)
  return { t, writes, levels }
}

describe('per-unit budget crossings', () => {
  it('tells each level once per period, and again once it fell back and is crossed again', async () => {
    const { t, writes, levels } = tracker()
    expect(levels([status(10, 'ok')])).toEqual([])
    expect(levels([status(85, 'near')])).toEqual(['near'])
    expect(levels([status(90, 'near')])).toEqual([])
    expect(levels([status(120, 'over')])).toEqual(['over'])
    expect(levels([status(130, 'over')])).toEqual([])
    // A new month starts afresh.
    expect(levels([status(90, 'near', {}, '2026-04')])).toEqual(['near'])
    // A changed limit is another budget.
    expect(levels([status(90, 'near', { limit: 110 }, '2026-04')])).toEqual(['near'])
    expect(levels([status(10, 'ok', { limit: 110 }, '2026-04')])).toEqual([])
    expect(levels([status(95, 'near', { limit: 110 }, '2026-04')])).toEqual(['near'])
    await t.settled()
    expect(writes.at(-1)).toEqual({ d: { u1: { periodKey: '2026-04', level: 'near', limit: 110, warnRatio: 0.8 } } })
  })

  it('says the crossing in its unit, and remembers across a restart what was told', async () => {
    const { t } = tracker()
    expect(t.check('d', [status(120, 'over')], AT)).toEqual([
      {
        kind: 'unit-budget',
        connectionId: 'd',
        projectId: null,
        at: '2026-03-10T12:00:00.000Z',
        budgetId: 'u1',
        unit: 'ACU',
        period: 'month',
        periodKey: '2026-03',
        level: 'over',
        spent: 120,
        limit: 100
      }
    ])
    const again = tracker({ d: { u1: { periodKey: '2026-03', level: 'over', limit: 100, warnRatio: 0.8 } } })
    expect(again.levels([status(120, 'over')])).toEqual([])
  })

  it('forgets a removed budget and writes nothing when nothing changed', async () => {
    const { t, writes, levels } = tracker({
      d: { u1: { periodKey: '2026-03', level: 'near', limit: 100, warnRatio: 0.8 } }
    })
    expect(levels([status(85, 'near')])).toEqual([])
    await t.settled()
    expect(writes).toEqual([])
    expect(levels([])).toEqual([])
    await t.settled()
    expect(writes).toEqual([{}])
  })
})
