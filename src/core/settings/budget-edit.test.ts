import { describe, expect, it } from 'vitest'
import { DEFAULT_WARN_RATIO, MAX_BUDGETS_PER_CONNECTION } from '../../shared/budgets'
import type { Settings } from '../../shared/settings'
import { removeBudget, saveBudget, setProjectTotalBudget } from './budget-edit'
import { addConnection, SettingsEditError, watchProject } from './edit'
import { defaultSettings, settingsSchema } from './schema'

const NOW = new Date('2025-01-02T03:04:05.000Z')

/** Two accounts; p1 and p2 watched on the first, nothing on the second. */
function draft(): Settings {
  const s = defaultSettings()
  addConnection(s, { baseUrl: 'https://a.example' }, 'a')
  addConnection(s, { baseUrl: 'https://b.example' }, 'b')
  watchProject(s, 'a', 'p1', NOW)
  watchProject(s, 'a', 'p2', NOW)
  return s
}

function ids(prefix = 'new') {
  let n = 0
  return () => `${prefix}-${++n}`
}

describe('saveBudget', () => {
  it('adds a budget with a new id, for the account or a project watched there', () => {
    const s = draft()
    const newId = ids()
    const account = saveBudget(s, 'a', { projectId: null, period: 'month', limitUsd: 50, warnRatio: 0.8 }, newId)
    const project = saveBudget(s, 'a', { projectId: 'p1', period: 'day', limitUsd: 5, warnRatio: 0.5 }, newId)
    expect(account).toEqual({ id: 'new-1', projectId: null, period: 'month', limitUsd: 50, warnRatio: 0.8 })
    expect(project).toEqual({ id: 'new-2', projectId: 'p1', period: 'day', limitUsd: 5, warnRatio: 0.5 })
    expect(s.budgets.a).toEqual([account, project])
    expect(s.budgets.b).toBeUndefined()
    expect(settingsSchema.safeParse(s).success).toBe(true)
  })

  it('keeps an id the caller gives a new budget', () => {
    const s = draft()
    const saved = saveBudget(
      s,
      'a',
      { id: 'mine', projectId: null, period: 'total', limitUsd: 1, warnRatio: 0.8 },
      ids()
    )
    expect(saved.id).toBe('mine')
    expect(s.budgets.a).toEqual([saved])
  })

  it('a second budget for the same scope and period replaces the first, keeping its id', () => {
    const s = draft()
    const first = saveBudget(s, 'a', { projectId: 'p1', period: 'month', limitUsd: 10, warnRatio: 0.8 }, ids('x'))
    const other = saveBudget(s, 'a', { projectId: 'p2', period: 'month', limitUsd: 7, warnRatio: 0.8 }, ids('y'))
    const again = saveBudget(s, 'a', { projectId: 'p1', period: 'month', limitUsd: 20, warnRatio: 0.6 }, ids('z'))
    expect(again).toEqual({ id: first.id, projectId: 'p1', period: 'month', limitUsd: 20, warnRatio: 0.6 })
    // The replaced one is gone, the other stays; the saved one comes last.
    expect(s.budgets.a).toEqual([other, again])
    // The same with an id the caller made up: the slot's budget keeps its own.
    const third = saveBudget(
      s,
      'a',
      { id: 'made-up', projectId: 'p2', period: 'month', limitUsd: 8, warnRatio: 0.8 },
      ids('w')
    )
    expect(third.id).toBe(other.id)
    expect(s.budgets.a).toEqual([again, third])
  })

  it('a budget edited by its id may move to a free slot, keeping its id; a taken slot is refused', () => {
    const s = draft()
    const day = saveBudget(s, 'a', { projectId: 'p1', period: 'day', limitUsd: 3, warnRatio: 0.8 }, ids('d'))
    const month = saveBudget(s, 'a', { projectId: 'p1', period: 'month', limitUsd: 30, warnRatio: 0.8 }, ids('m'))
    const moved = saveBudget(
      s,
      'a',
      { id: day.id, projectId: 'p2', period: 'day', limitUsd: 4, warnRatio: 0.8 },
      ids('n')
    )
    expect(moved).toEqual({ id: day.id, projectId: 'p2', period: 'day', limitUsd: 4, warnRatio: 0.8 })
    expect(s.budgets.a).toEqual([month, moved])
    const before = structuredClone(s.budgets)
    expect(() =>
      saveBudget(s, 'a', { id: moved.id, projectId: 'p1', period: 'month', limitUsd: 4, warnRatio: 0.8 }, ids())
    ).toThrow('There is already a budget for that scope and period.')
    expect(s.budgets).toEqual(before)
  })

  it('refuses, changing nothing: an unknown account, a project not watched there, an invalid amount or share', () => {
    const s = draft()
    const before = structuredClone(s)
    const save = (connectionId: string, input: Parameters<typeof saveBudget>[2]) => () =>
      saveBudget(s, connectionId, input, ids())
    expect(save('zz', { projectId: null, period: 'day', limitUsd: 1, warnRatio: 0.8 })).toThrow(
      new SettingsEditError('No connection zz')
    )
    // p1 is watched on a, not on b.
    expect(save('b', { projectId: 'p1', period: 'day', limitUsd: 1, warnRatio: 0.8 })).toThrow(
      'Project p1 is not watched on this account.'
    )
    expect(save('a', { projectId: 'p9', period: 'day', limitUsd: 1, warnRatio: 0.8 })).toThrow(
      'Project p9 is not watched on this account.'
    )
    // An account a file lists without any watched projects (no list at all).
    delete s.watched.b
    delete before.watched.b
    expect(save('b', { projectId: 'p1', period: 'day', limitUsd: 1, warnRatio: 0.8 })).toThrow(
      'Project p1 is not watched on this account.'
    )
    // Every problem is named, in one message.
    expect(save('a', { projectId: null, period: 'day', limitUsd: -1, warnRatio: 2 })).toThrow(
      'The limit must be an amount in USD, not negative. The warning must be between 5 % and 99 % of the limit.'
    )
    expect(s).toEqual(before)
  })

  it(`refuses a budget past the ${MAX_BUDGETS_PER_CONNECTION} an account may have, but still replaces one`, () => {
    const s = draft()
    s.budgets.a = Array.from({ length: MAX_BUDGETS_PER_CONNECTION }, (_, i) => ({
      id: `b${i}`,
      projectId: i === 0 ? 'p1' : `q${i}`,
      period: 'day' as const,
      limitUsd: 1,
      warnRatio: 0.8
    }))
    expect(() => saveBudget(s, 'a', { projectId: null, period: 'day', limitUsd: 1, warnRatio: 0.8 }, ids())).toThrow(
      `An account may have at most ${MAX_BUDGETS_PER_CONNECTION} budgets.`
    )
    expect(s.budgets.a).toHaveLength(MAX_BUDGETS_PER_CONNECTION)
    const replaced = saveBudget(
      s,
      'a',
      { id: 'b0', projectId: 'p1', period: 'day', limitUsd: 2, warnRatio: 0.8 },
      ids()
    )
    expect(replaced.id).toBe('b0')
    expect(s.budgets.a).toHaveLength(MAX_BUDGETS_PER_CONNECTION)
    expect(s.budgets.a?.at(-1)).toEqual(replaced)
  })
})

describe('removeBudget', () => {
  it('removes the budget with that id and says whether there was one', () => {
    const s = draft()
    const newId = ids()
    const one = saveBudget(s, 'a', { projectId: null, period: 'day', limitUsd: 1, warnRatio: 0.8 }, newId)
    const two = saveBudget(s, 'a', { projectId: null, period: 'month', limitUsd: 9, warnRatio: 0.8 }, newId)
    expect(removeBudget(s, 'a', one.id)).toBe(true)
    expect(s.budgets.a).toEqual([two])
    expect(removeBudget(s, 'a', one.id)).toBe(false)
    expect(s.budgets.a).toEqual([two])
    expect(removeBudget(s, 'b', two.id)).toBe(false)
    expect(s.budgets.a).toEqual([two])
    expect(s.budgets.b).toEqual([])
  })
})

describe('setProjectTotalBudget', () => {
  it("sets a project's total budget at the default warning, changes its amount keeping its id and warning, and null removes it", () => {
    const s = draft()
    setProjectTotalBudget(s, 'a', 'p1', 25, ids('t'))
    expect(s.budgets.a).toEqual([
      { id: 't-1', projectId: 'p1', period: 'total', limitUsd: 25, warnRatio: DEFAULT_WARN_RATIO }
    ])
    // A warning set elsewhere (the budgets screen) stays when the amount changes.
    s.budgets.a![0]!.warnRatio = 0.5
    const month = saveBudget(s, 'a', { projectId: 'p1', period: 'month', limitUsd: 5, warnRatio: 0.8 }, ids('m'))
    setProjectTotalBudget(s, 'a', 'p1', 40, ids('u'))
    expect(s.budgets.a).toEqual([month, { id: 't-1', projectId: 'p1', period: 'total', limitUsd: 40, warnRatio: 0.5 }])
    setProjectTotalBudget(s, 'a', 'p1', null, ids())
    expect(s.budgets.a).toEqual([month])
    // Removing one that is not there changes nothing.
    setProjectTotalBudget(s, 'a', 'p2', null, ids())
    expect(s.budgets.a).toEqual([month])
  })

  it('refuses an amount or a project the budget rule refuses', () => {
    const s = draft()
    expect(() => setProjectTotalBudget(s, 'a', 'p1', -5, ids())).toThrow(SettingsEditError)
    expect(() => setProjectTotalBudget(s, 'a', 'p9', 5, ids())).toThrow('Project p9 is not watched on this account.')
    expect(s.budgets.a).toBeUndefined()
  })
})
