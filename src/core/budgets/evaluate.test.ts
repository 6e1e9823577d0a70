// Where each budget stands (evaluate.ts): an account budget adds up the watched projects, a
// project budget reads its own project only, and a moment with no readable day has no standing.
import { describe, expect, it } from 'vitest'
import type { Budget } from '../../shared/budgets'
import type { Task } from '../../shared/service'
import { testTask } from '../../shared/test-task'
import { evaluateBudgets } from './evaluate'
import { SpendBook } from './spend-book'

const NOW = Date.parse('2026-11-27T12:00:00Z')

function task(id: string, projectId: string, price: number): Task {
  return testTask(id, { project_id: projectId, name: id, total_price: price })
}

const budget = (id: string, projectId: string | null): Budget => ({
  id,
  projectId,
  period: 'day',
  limitUsd: 10,
  warnRatio: 0.8
})

describe('where each budget stands', () => {
  const book = new SpendBook()
  book.takeTasks('p1', [task('a', 'p1', 3)], NOW)
  book.takeTasks('p2', [task('b', 'p2', 5)], NOW)
  const input = { connectionId: 'c1', projectIds: ['p1', 'p2'], book, tz: 0 }

  it('adds up the watched projects for the account, and reads one project for its own budget', () => {
    const [account, p1, p2] = evaluateBudgets({
      ...input,
      budgets: [budget('all', null), budget('one', 'p1'), budget('two', 'p2')],
      now: NOW
    })
    expect(account?.spentUsd).toBe(8)
    expect(p1?.spentUsd).toBe(3)
    expect(p2?.spentUsd).toBe(5)
    expect(account?.periodKey).toBe('2026-11-27')
  })

  it('has no standing at a moment with no readable day', () => {
    expect(evaluateBudgets({ ...input, budgets: [budget('all', null)], now: Number.NaN })).toEqual([])
  })
})
