import { describe, expect, it } from 'vitest'
import type { Task, TaskStep } from '../../shared/service'
import type { WatchedProject } from '../../shared/settings'
import { buildProjectView, lastActivity } from './project-view'

const watched: WatchedProject = { projectId: 'p1', name: 'Shop', muted: false, addedAt: '2026-01-01T00:00:00.000Z' }

function step(updated_at: string): TaskStep {
  return {
    id: `s-${updated_at}`,
    task_id: 't',
    name: 's',
    description: '',
    status: 'completed',
    type: null,
    metadata: {},
    created_at: updated_at,
    updated_at
  }
}

function task(
  id: string,
  status: Task['status'],
  created_at: string,
  total_price: number | null,
  steps: TaskStep[] = []
): Task {
  return {
    id,
    project_id: 'p1',
    name: id,
    description: '',
    status,
    text_requirement: '',
    files_requirement: [],
    created_at,
    updated_at: created_at,
    steps,
    branch: 'main',
    total_price
  }
}

describe('buildProjectView', () => {
  it('counts running and failed tasks and sums cost for today and in total', () => {
    const tasks = [
      task('a', 'in_progress', '2026-01-05T08:00:00.000Z', 1.25),
      task('b', 'todo', '2026-01-05T09:00:00.000Z', 0),
      task('c', 'failed', '2026-01-04T10:00:00.000Z', 2.5),
      task('d', 'completed', '2026-01-03T10:00:00.000Z', 0.125, [step('2026-01-05T09:30:00.000Z')])
    ]
    const view = buildProjectView({
      connectionId: 'c1',
      watched,
      project: null,
      tasks,
      health: { state: 'ok', polledAt: '2026-01-05T10:00:00.000Z' },
      now: Date.parse('2026-01-05T10:00:00.000Z'),
      tz: 0
    })
    expect(view.counts).toEqual({ running: 2, failed: 1, total: 4 })
    expect(view.costTodayUsd).toBe(1.25)
    expect(view.costTotalUsd).toBe(3.875)
    expect(view.lastActivityAt).toBe('2026-01-05T09:30:00.000Z')
    expect(view.watched).toBe(watched)
  })

  it('uses the local day: a task created late UTC is "today" further east', () => {
    const tasks = [task('a', 'completed', '2026-01-04T23:30:00.000Z', 3)]
    const at = Date.parse('2026-01-05T01:00:00.000Z')
    expect(
      buildProjectView({
        connectionId: 'c1',
        watched,
        project: null,
        tasks,
        health: { state: 'unknown' },
        now: at,
        tz: 0
      }).costTodayUsd
    ).toBe(0)
    expect(
      buildProjectView({
        connectionId: 'c1',
        watched,
        project: null,
        tasks,
        health: { state: 'unknown' },
        now: at,
        tz: 120
      }).costTodayUsd
    ).toBe(3)
  })

  it('is empty before the first poll', () => {
    const view = buildProjectView({
      connectionId: 'c1',
      watched,
      project: null,
      tasks: null,
      health: { state: 'unknown' },
      now: 0,
      tz: 0
    })
    expect(view).toMatchObject({
      counts: { running: 0, failed: 0, total: 0 },
      lastActivityAt: null,
      costTodayUsd: 0,
      costTotalUsd: 0
    })
  })
})

describe('lastActivity', () => {
  it('ignores unreadable times', () => {
    expect(lastActivity([task('a', 'todo', 'not a date', null)])).toBeNull()
  })
})
