import { describe, expect, it } from 'vitest'
import type { LastStep, TaskSummary } from '../../shared/task-summary'
import { countByFilter, filterTasks, indexTasks, lastActivity } from './tasks'

function task(id: string, over: Partial<TaskSummary> = {}): TaskSummary {
  return {
    id,
    name: `Task ${id}`,
    description: '',
    status: 'completed',
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    branch: 'main',
    total_price: 0,
    step_counts: {},
    ...over
  }
}

function step(updated_at: string): LastStep {
  return { name: 's', status: 'completed', updated_at }
}

describe('lastActivity', () => {
  it('takes the latest of the task and its steps', () => {
    const t = task('a', { updated_at: '2025-01-02T00:00:00.000Z', last_step: step('2025-01-03T00:00:00.000Z') })
    expect(lastActivity(t).iso).toBe('2025-01-03T00:00:00.000Z')
    expect(lastActivity(task('b', { updated_at: 'garbage' })).iso).toBe('2025-01-01T00:00:00.000Z')
  })
})

describe('indexTasks and filterTasks', () => {
  const tasks = [
    task('old', { updated_at: '2025-01-01T00:00:00.000Z', name: 'Build login page', status: 'completed' }),
    task('new', { updated_at: '2025-01-05T00:00:00.000Z', name: 'Fix footer', status: 'failed' }),
    task('mid', {
      updated_at: '2025-01-02T00:00:00.000Z',
      name: 'Add dark mode',
      description: 'Login screen too',
      status: 'in_progress',
      last_step: step('2025-01-09T00:00:00.000Z')
    })
  ]
  const indexed = indexTasks(tasks)

  it('sorts newest activity first', () => {
    expect(indexed.map((t) => t.task.id)).toEqual(['mid', 'new', 'old'])
  })

  it('filters by status and by every word of the search, case-insensitively', () => {
    expect(filterTasks(indexed, 'failed', '').map((t) => t.task.id)).toEqual(['new'])
    expect(filterTasks(indexed, 'all', 'LOGIN').map((t) => t.task.id)).toEqual(['mid', 'old'])
    expect(filterTasks(indexed, 'all', 'login page').map((t) => t.task.id)).toEqual(['old'])
    expect(filterTasks(indexed, 'running', 'footer')).toEqual([])
    expect(filterTasks(indexed, 'running', '').map((t) => t.task.id)).toEqual(['mid'])
    expect(filterTasks(indexed, 'all', '  ')).toHaveLength(3)
  })

  // Speed targets live in npm run bench, not in timed tests: this checks the answer at that size.
  it('indexes and filters 10,000 tasks', () => {
    const many = Array.from({ length: 10_000 }, (_, i) =>
      task(`t${i}`, { updated_at: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(), name: `Task number ${i}` })
    )
    const big = indexTasks(many)
    const hits = filterTasks(big, 'all', 'number 99')
    expect(big[0]?.task.id).toBe('t9999')
    expect(hits.length).toBe(many.filter((_, i) => String(i).includes('99')).length)
    expect(hits.every((t) => t.task.name.includes('99'))).toBe(true)
  })
})

describe('countByFilter', () => {
  it('counts what each chip shows: running is to do and in progress, unknown statuses only under all', () => {
    const counts = countByFilter([
      task('a', { status: 'failed' }),
      task('b', { status: 'failed' }),
      task('c', { status: 'unknown', status_raw: 'paused' }),
      task('d', { status: 'todo' }),
      task('e', { status: 'in_progress' }),
      task('f', { status: 'completed' })
    ])
    expect(counts).toEqual({ all: 6, running: 2, failed: 2 })
  })

  it('the running chip lists to do and in progress tasks', () => {
    const indexed = indexTasks([
      task('t', { status: 'todo' }),
      task('p', { status: 'in_progress' }),
      task('c', { status: 'cancelled' })
    ])
    expect(
      filterTasks(indexed, 'running', '')
        .map((t) => t.task.id)
        .sort()
    ).toEqual(['p', 't'])
  })
})
