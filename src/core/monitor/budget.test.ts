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
  it('announces a crossing once, and again for a new budget', () => {
    const first = checkBudget(null, [task('a', 4), task('b', 5)], 10, base)
    expect(first.event).toEqual({ ...base, kind: 'budget', level: 'near', spentUsd: 9, budgetUsd: 10 })
    expect(first.budgetNotified).toEqual({ budgetUsd: 10, level: 'near' })
    expect(checkBudget(first.budgetNotified, [task('a', 4), task('b', 5)], 10, base).event).toBeNull()
    const over = checkBudget(first.budgetNotified, [task('a', 4), task('b', 7)], 10, base)
    expect(over.event).toMatchObject({ level: 'over', spentUsd: 11 })
    // A new, larger budget: near it again is news.
    expect(checkBudget(over.budgetNotified, [task('a', 4), task('b', 7)], 12, base).event).toMatchObject({ level: 'near' })
    expect(checkBudget(over.budgetNotified, [task('a', 4)], null, base)).toEqual({ event: null, budgetNotified: null })
  })
})
