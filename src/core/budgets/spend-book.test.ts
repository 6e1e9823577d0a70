// What the budgets read of a project's task lists (spend-book.ts): the spend of a day, a month and
// in total, the running tasks and their pace, and the latest completed costs (the "usual").
import { describe, expect, it } from 'vitest'
import type { Task } from '../../shared/service'
import { testTask } from '../../shared/test-task'
import { MAX_COMPLETED_KEPT, SpendBook } from './spend-book'

const NOW = Date.parse('2026-11-27T12:00:00Z')
const MIN = 60_000
const DAY = 86_400_000
const iso = (ms: number): string => new Date(ms).toISOString()

function task(id: string, over: Partial<Omit<Task, 'steps'>> = {}): Task {
  return testTask(id, { created_at: iso(NOW - 2 * 3_600_000), updated_at: iso(NOW - 3_600_000), ...over })
}

describe('the spend book of a project', () => {
  it('counts a task completed an hour ago in the day, the month and the total', () => {
    const book = new SpendBook()
    book.takeTasks('p1', [task('t1', { total_price: 2.5 })], NOW)
    expect(book.spent('p1', 'day', '2026-11-27', 0)).toEqual({ costUsd: 2.5, estimatedUsd: 2.5 })
    expect(book.spent('p1', 'month', '2026-11', 0)).toEqual({ costUsd: 2.5, estimatedUsd: 2.5 })
    expect(book.spent('p1', 'total', '', 0)).toEqual({ costUsd: 2.5, estimatedUsd: 0 })
    expect(book.spent('p1', 'day', '2026-11-26', 0).costUsd).toBe(0)
  })

  it('knows nothing of a project before its first list, and spends nothing there', () => {
    const book = new SpendBook()
    expect(book.has('p1')).toBe(false)
    expect(book.spent('p1', 'total', '', 0)).toEqual({ costUsd: 0, estimatedUsd: 0 })
    expect(book.running('p1')).toEqual([])
    expect(book.completedCosts('p1')).toEqual([])
    book.takeTasks('p1', [], NOW)
    expect(book.has('p1')).toBe(true)
    expect(book.has('p2')).toBe(false)
  })

  it('keeps a task that still runs however long ago it last changed', () => {
    const book = new SpendBook()
    book.takeTasks(
      'p1',
      [task('old', { status: 'in_progress', updated_at: iso(NOW - 50 * DAY), created_at: iso(NOW - 51 * DAY) })],
      NOW
    )
    expect(book.running('p1').map((t) => t.id)).toEqual(['old'])
  })

  it('takes the usual cost from the latest completed tasks only, and from completed ones only', () => {
    const book = new SpendBook()
    const tasks = Array.from({ length: MAX_COMPLETED_KEPT + 1 }, (_, i) => task(`t${i}`, { total_price: i }))
    book.takeTasks('p1', [...tasks, task('run', { status: 'in_progress', total_price: 99 })], NOW)
    const kept = book.completedCosts('p1')
    expect(kept).toHaveLength(MAX_COMPLETED_KEPT)
    expect(kept[0]).toBe(1)
    expect(kept.at(-1)).toBe(MAX_COMPLETED_KEPT)
  })

  it('reads the pace afresh for a task that stopped and runs again, not from before it stopped', () => {
    const book = new SpendBook()
    const running = (price: number): Omit<Task, 'steps'> =>
      task('t1', { status: 'in_progress', total_price: price, created_at: iso(NOW - DAY), updated_at: iso(NOW) })
    book.takeTasks('p1', [running(1)], NOW)
    book.takeTasks('p1', [running(2)], NOW + 5 * MIN)
    // $1 in 5 minutes: $12 an hour.
    expect(book.projectRate('p1', NOW + 5 * MIN)).toBe(12)
    // Gone from the list (deleted, or the list moved on), then running again later at $3.
    book.takeTasks('p1', [], NOW + 6 * MIN)
    book.takeTasks('p1', [running(3)], NOW + 7 * MIN)
    // One sight since it came back: too little to say a pace (not $2 over the 7 minutes).
    expect(book.projectRate('p1', NOW + 7 * MIN)).toBe(0)
  })

  it('reads the pace afresh for a task that left the list while another kept running', () => {
    const book = new SpendBook()
    const running = (id: string, price: number): Omit<Task, 'steps'> =>
      task(id, { status: 'in_progress', total_price: price, created_at: iso(NOW - DAY), updated_at: iso(NOW) })
    book.takeTasks('p1', [running('t1', 1), running('t2', 1)], NOW)
    book.takeTasks('p1', [running('t1', 2), running('t2', 1)], NOW + 5 * MIN)
    expect(book.projectRate('p1', NOW + 5 * MIN)).toBe(12)
    // t1 gone from the list while t2 still runs, then back at $3.
    book.takeTasks('p1', [running('t2', 1)], NOW + 6 * MIN)
    book.takeTasks('p1', [running('t1', 3), running('t2', 1)], NOW + 7 * MIN)
    // t1 seen once since it came back, t2 unchanged: no pace (not $2 over t1's 7 minutes).
    expect(book.projectRate('p1', NOW + 7 * MIN)).toBe(0)
  })

  it('forgets a project never listed as nothing, keeping the pace of the others', () => {
    const book = new SpendBook()
    const running = (price: number): Omit<Task, 'steps'> =>
      task('t1', { status: 'in_progress', total_price: price, created_at: iso(NOW - DAY), updated_at: iso(NOW) })
    book.takeTasks('p1', [running(1)], NOW)
    book.takeTasks('p1', [running(2)], NOW + 5 * MIN)
    book.forget('p2')
    expect(book.has('p2')).toBe(false)
    expect(book.projectRate('p1', NOW + 5 * MIN)).toBe(12)
  })

  it('forgets a project no longer watched, and the pace of its running tasks', () => {
    const book = new SpendBook()
    const running = (price: number): Omit<Task, 'steps'> =>
      task('t1', { status: 'in_progress', total_price: price, created_at: iso(NOW - DAY), updated_at: iso(NOW) })
    book.takeTasks('p1', [running(1)], NOW)
    book.forget('p1')
    expect(book.has('p1')).toBe(false)
    book.takeTasks('p1', [running(2)], NOW + 5 * MIN)
    expect(book.projectRate('p1', NOW + 5 * MIN)).toBe(0)
  })
})
