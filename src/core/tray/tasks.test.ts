import { describe, expect, it } from 'vitest'
import type { MonitorEvent } from '../../shared/monitor'
import { applyMonitorEvent, keepWatched, tasksOf } from './tasks'

const base = { connectionId: 'c', projectId: 'p', at: '2026-01-01T00:00:00.000Z' }

describe('tray tasks', () => {
  it('learns tasks from added and status events', () => {
    let t = applyMonitorEvent({}, { ...base, kind: 'task-added', taskId: 't1', taskName: 'One', status: 'todo' })
    t = applyMonitorEvent(t, {
      ...base,
      kind: 'task-status',
      taskId: 't1',
      taskName: 'One',
      from: 'todo',
      to: 'failed'
    })
    expect(tasksOf(t, 'c', 'p')).toEqual([{ taskId: 't1', name: 'One', status: 'failed' }])
    expect(tasksOf(t, 'other', 'p')).toEqual([])
  })

  it('ignores other events and unchanged tasks without copying', () => {
    const t = applyMonitorEvent({}, { ...base, kind: 'task-added', taskId: 't1', taskName: 'One', status: 'todo' })
    const price: MonitorEvent = { ...base, kind: 'task-price', taskId: 't1', taskName: 'One', from: 0, to: 1 }
    expect(applyMonitorEvent(t, price)).toBe(t)
    expect(applyMonitorEvent(t, { ...base, kind: 'task-added', taskId: 't1', taskName: 'One', status: 'todo' })).toBe(t)
  })

  it('forgets projects that are no longer watched', () => {
    let t = applyMonitorEvent({}, { ...base, kind: 'task-added', taskId: 't1', taskName: 'One', status: 'todo' })
    t = applyMonitorEvent(t, {
      ...base,
      projectId: 'q',
      kind: 'task-added',
      taskId: 't2',
      taskName: 'Two',
      status: 'todo'
    })
    t = applyMonitorEvent(t, {
      ...base,
      connectionId: 'd',
      projectId: 'q',
      kind: 'task-added',
      taskId: 't3',
      taskName: 'Three',
      status: 'todo'
    })
    const kept = keepWatched(t, [{ connectionId: 'c', projectId: 'q' }])
    expect(tasksOf(kept, 'c', 'p')).toEqual([])
    expect(tasksOf(kept, 'c', 'q')).toHaveLength(1)
    // The same project id on another connection is another project.
    expect(tasksOf(kept, 'd', 'q')).toEqual([])
    expect(keepWatched(kept, [{ connectionId: 'c', projectId: 'q' }])).toBe(kept)
  })
})
