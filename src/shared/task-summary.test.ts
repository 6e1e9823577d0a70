import { describe, expect, it } from 'vitest'
import type { Task, TaskStep } from './service'
import { stepCount, summarizeTask } from './task-summary'

function task(over: Partial<Task> = {}): Task {
  return {
    id: 't1',
    project_id: 'p1',
    name: 'Add a settings page',
    description: 'Settings',
    status: 'in_progress',
    text_requirement: 'A long requirement '.repeat(50),
    files_requirement: [{ file_type: 'image', url: 'https://example.com/a.png' }],
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:05:00.000Z',
    steps: [],
    branch: 'agent/t1',
    total_price: 0.25,
    ...over
  }
}

function step(id: string, status: TaskStep['status'], updated_at: string, over: Partial<TaskStep> = {}): TaskStep {
  return {
    id,
    task_id: 't1',
    name: `Step ${id}`,
    description: '',
    status,
    type: null,
    metadata: { tool: 'read_file_from_sandbox', path: 'a'.repeat(500) },
    created_at: updated_at,
    updated_at,
    ...over
  }
}

describe('summarizeTask', () => {
  it('keeps what the list shows and drops steps, requirements and the project id', () => {
    const summary = summarizeTask(task())
    // No status_raw at all when the server's word was a known one (the summary goes over IPC as it is).
    expect(summary).toStrictEqual({
      id: 't1',
      name: 'Add a settings page',
      description: 'Settings',
      status: 'in_progress',
      created_at: '2025-01-01T00:00:00.000Z',
      updated_at: '2025-01-01T00:05:00.000Z',
      branch: 'agent/t1',
      total_price: 0.25,
      step_counts: {}
    })
    expect(JSON.stringify(summary)).not.toContain('requirement')
  })

  it('counts steps by status and names the most recently updated one', () => {
    const summary = summarizeTask(
      task({
        steps: [
          step('a', 'completed', '2025-01-01T00:01:00.000Z'),
          step('b', 'in_progress', '2025-01-01T00:09:00.000Z'),
          step('c', 'completed', '2025-01-01T00:03:00.000Z'),
          step('d', 'unknown', '2025-01-01T00:02:00.000Z', { status_raw: 'paused' })
        ]
      })
    )
    expect(summary.step_counts).toEqual({ completed: 2, in_progress: 1, unknown: 1 })
    expect(stepCount(summary)).toBe(4)
    expect(summary.last_step).toStrictEqual({
      name: 'Step b',
      status: 'in_progress',
      updated_at: '2025-01-01T00:09:00.000Z'
    })
  })

  it('names the later listed of steps updated at the same time', () => {
    const at = '2025-01-01T00:01:00.000Z'
    const summary = summarizeTask(task({ steps: [step('a', 'completed', at), step('b', 'in_progress', at)] }))
    expect(summary.last_step?.name).toBe('Step b')
  })

  it('keeps the server word of an unknown status', () => {
    const summary = summarizeTask(
      task({
        status: 'unknown',
        status_raw: 'paused',
        steps: [step('a', 'unknown', '2025-01-01T00:01:00.000Z', { status_raw: 'held' })]
      })
    )
    expect(summary.status_raw).toBe('paused')
    expect(summary.last_step?.status_raw).toBe('held')
  })

  it('prefers a step with a readable time over one without', () => {
    const readable = summarizeTask(
      task({
        steps: [
          step('a', 'completed', 'not a time'),
          step('b', 'completed', '2025-01-01T00:01:00.000Z'),
          step('c', 'failed', 'nope')
        ]
      })
    )
    expect(readable.last_step?.name).toBe('Step b')
    const none = summarizeTask(task({ steps: [step('a', 'completed', 'not a time')] }))
    expect(none.last_step?.name).toBe('Step a')
  })

  it('tolerates a task whose steps are missing', () => {
    const summary = summarizeTask(task({ steps: undefined as unknown as TaskStep[] }))
    expect(summary.step_counts).toEqual({})
    expect(summary.last_step).toBeUndefined()
  })

  it('is much smaller than the task it summarises', () => {
    const full = task({
      steps: Array.from({ length: 20 }, (_, i) => step(String(i), 'completed', '2025-01-01T00:01:00.000Z'))
    })
    expect(JSON.stringify(summarizeTask(full)).length * 10).toBeLessThan(JSON.stringify(full).length)
  })
})
