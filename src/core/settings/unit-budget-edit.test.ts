import { describe, expect, it } from 'vitest'
import type { Settings } from '../../shared/settings'
import { MAX_UNIT_BUDGETS_PER_ACCOUNT, type UnitBudget } from '../../shared/unit-costs'
import { addConnection, removeConnection, SettingsEditError } from './edit'
import { defaultSettings, settingsSchema, settingsSchemaAt } from './schema'
import { removeUnitBudget, saveUnitBudget } from './unit-budget-edit'

function draft(): Settings {
  const s = defaultSettings()
  addConnection(s, { baseUrl: 'https://api.devin.ai', service: 'devin' }, 'd')
  return s
}
const ids = () => {
  let n = 0
  return () => `u-${++n}`
}
const acu = { unit: 'ACU', period: 'month' as const, limit: 100, warnRatio: 0.8 }

describe('saveUnitBudget', () => {
  it('adds a budget in one of the account’s units, and replaces the one of its unit and period', () => {
    const s = draft()
    const newId = ids()
    const first = saveUnitBudget(s, 'd', acu, ['ACU'], newId)
    expect(first).toEqual({ id: 'u-1', ...acu })
    saveUnitBudget(s, 'd', { ...acu, period: 'day', limit: 10 }, ['ACU'], newId)
    const replaced = saveUnitBudget(s, 'd', { ...acu, limit: 50 }, ['ACU'], newId)
    expect(replaced.id).toBe('u-1')
    expect(s.unitBudgets.d?.map((b) => [b.id, b.period, b.limit])).toEqual([
      ['u-2', 'day', 10],
      ['u-1', 'month', 50]
    ])
    expect(() => settingsSchema.parse(s)).not.toThrow()
  })

  it('refuses a unit the account does not report, a wrong field, an unknown account, and more than the bound', () => {
    const s = draft()
    expect(() => saveUnitBudget(s, 'd', { ...acu, unit: 'USD' }, ['ACU'], ids())).toThrow(
      new SettingsEditError('The unit must be one this account reports: ACU.')
    )
    expect(() => saveUnitBudget(s, 'd', { ...acu, limit: -1 }, ['ACU'], ids())).toThrow(/not negative/)
    expect(() => saveUnitBudget(s, 'x', acu, ['ACU'], ids())).toThrow(/No connection x/)
    const units = Array.from({ length: MAX_UNIT_BUDGETS_PER_ACCOUNT + 1 }, (_, i) => `unit ${i}`)
    const newId = ids()
    for (const unit of units.slice(0, -1)) saveUnitBudget(s, 'd', { ...acu, unit }, units, newId)
    expect(() => saveUnitBudget(s, 'd', { ...acu, unit: units.at(-1)! }, units, newId)).toThrow(/at most 30/)
    expect(s.unitBudgets.d).toHaveLength(MAX_UNIT_BUDGETS_PER_ACCOUNT)
  })

  it('removes one, and all of them with their account', () => {
    const s = draft()
    const saved = saveUnitBudget(s, 'd', acu, ['ACU'], ids())
    expect(removeUnitBudget(s, 'd', 'other')).toBe(false)
    expect(removeUnitBudget(s, 'd', saved.id)).toBe(true)
    saveUnitBudget(s, 'd', acu, ['ACU'], ids())
    removeConnection(s, 'd')
    expect(s.unitBudgets).toEqual({})
  })
})

describe('per-unit budgets in the settings file', () => {
  const good: UnitBudget = { id: 'u1', ...acu }
  it('an older file without them reads as none', () => {
    expect(settingsSchemaAt(new Date(0), true).parse({}).unitBudgets).toEqual({})
  })

  it('a damaged entry costs only itself; a repeated slot keeps the first; nothing else is lost', () => {
    const read = settingsSchemaAt(new Date(0), true).parse({
      connections: [{ id: 'd', baseUrl: 'https://api.devin.ai', service: 'devin' }],
      budgets: { d: [{ id: 'b1', projectId: null, period: 'day', limitUsd: 5, warnRatio: 0.8 }] },
      unitBudgets: {
        d: [good, { ...good, id: 'u2' }, { ...good, id: 'u3', limit: 'lots' }, { ...good, id: 'u4', period: 'day' }],
        e: 'not a list'
      }
    })
    expect(read.unitBudgets).toEqual({ d: [good, { ...good, id: 'u4', period: 'day' }], e: [] })
    expect(read.budgets.d).toHaveLength(1)
    expect(read.connections).toHaveLength(1)
  })

  it('a strict check refuses a second budget of one unit and period', () => {
    expect(() => settingsSchema.parse({ unitBudgets: { d: [good, { ...good, id: 'u2' }] } })).toThrow(
      /already a budget for that unit/
    )
  })
})
