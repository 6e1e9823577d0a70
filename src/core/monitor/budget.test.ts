import { describe, expect, it } from 'vitest'
import type { Task } from '../../shared/service'
import { checkBudget } from './budget'

const base = { connectionId: 'c', projectId: 'p', at: '2025-03-10T10:00:00.000Z' }
const task = (id: string, total_price: number | null): Task => ({
  id,
  project_id: 'p',
  name: id,
  description: '',
  status: 'completed',
  text_requirement: '',
  files_requirement: [],
  created_at: base.at,
  updated_at: base.at,
  steps: [],
  branch: '',
  total_price
})

describe('checkBudget', () => {
  it('announces reaching the budget once, never being near it, and again for a new budget', () => {
    const near = checkBudget(null, [task('a', 4), task('b', 5)], 10, base)
    expect(near).toEqual({ event: null, budgetNotified: null })
    const over = checkBudget(near.budgetNotified, [task('a', 4), task('b', 7)], 10, base)
    expect(over.event).toEqual({ ...base, kind: 'budget', level: 'over', spentUsd: 11, budgetUsd: 10 })
    expect(over.budgetNotified).toEqual({ budgetUsd: 10, level: 'over' })
    expect(checkBudget(over.budgetNotified, [task('a', 4), task('b', 8)], 10, base).event).toBeNull()
    // A new, larger budget: near it is still no news; reaching it is.
    expect(checkBudget(over.budgetNotified, [task('a', 4), task('b', 7)], 12, base)).toEqual({ event: null, budgetNotified: null })
    expect(checkBudget(over.budgetNotified, [task('a', 4), task('b', 9)], 12, base).event).toMatchObject({ level: 'over', budgetUsd: 12 })
    // Spending back under (a refund, a corrected price) re-arms it.
    const under = checkBudget(over.budgetNotified, [task('a', 4)], 10, base)
    expect(under.budgetNotified).toBeNull()
    expect(checkBudget(under.budgetNotified, [task('a', 10)], 10, base).event).toMatchObject({ level: 'over' })
    expect(checkBudget(over.budgetNotified, [task('a', 4)], null, base)).toEqual({ event: null, budgetNotified: null })
  })

  it("a 'near' remembered by an older version does not hide the crossing", () => {
    expect(checkBudget({ budgetUsd: 10, level: 'near' }, [task('a', 10)], 10, base).event).toMatchObject({ level: 'over' })
  })
})
