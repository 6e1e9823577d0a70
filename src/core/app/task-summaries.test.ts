import { describe, expect, it } from 'vitest'
import type { Task } from '../../shared/service'
import { summarizeTask } from '../../shared/task-summary'
import { summariesOf } from './task-summaries'

function task(id: string, status: Task['status']): Task {
  return {
    id,
    project_id: 'p',
    name: `Task ${id}`,
    description: '',
    status,
    text_requirement: 'Build it',
    files_requirement: [],
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    steps: [],
    branch: 'main',
    total_price: 1
  }
}

describe('summariesOf', () => {
  it('summarises each task of the list, in order', () => {
    const tasks = [task('a', 'completed'), task('b', 'failed')]
    expect(summariesOf(tasks)).toEqual(tasks.map(summarizeTask))
  })

  it('makes the summaries once per list, and anew for a new list', () => {
    const first = [task('a', 'in_progress')]
    const again = summariesOf(first)
    expect(summariesOf(first)).toBe(again)
    const polled = [task('a', 'completed')]
    expect(summariesOf(polled)).not.toBe(again)
    expect(summariesOf(polled)[0]?.status).toBe('completed')
  })
})
