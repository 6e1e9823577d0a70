import { describe, expect, it } from 'vitest'
import type { Task, TaskStep } from '../../shared/service'
import { diffProject } from './diff'

const ids = { connectionId: 'c1', projectId: 'p1' }
const T0 = '2025-03-10T10:00:00.000Z'
const T1 = '2025-03-10T10:00:05.000Z'

function step(id: string, status: TaskStep['status']): TaskStep {
  return { id, task_id: 't', name: `step ${id}`, description: '', status, type: null, metadata: {}, created_at: T0, updated_at: T0 }
}

function task(id: string, over: Partial<Task> = {}): Task {
  return {
    id,
    project_id: 'p1',
    name: `Task ${id}`,
    description: '',
    status: 'todo',
    text_requirement: '',
    files_requirement: [],
    created_at: T0,
    updated_at: T0,
    steps: [],
    branch: 'main',
    total_price: null,
    ...over
  }
}

describe('diffProject', () => {
  it('sets a baseline on the first poll and reports nothing', () => {
    const result = diffProject(undefined, [task('a', { status: 'completed', steps: [step('s1', 'completed')] })], T0, ids)
    expect(result.events).toEqual([])
    expect(result.changedTaskIds).toEqual([])
    expect(result.snapshot).toEqual({
      polledAt: T0,
      tasks: { a: { status: 'completed', name: 'Task a', updatedAt: T0, totalPrice: null, steps: { s1: 'completed' } } }
    })
  })

  it('reports nothing when nothing changed', () => {
    const tasks = [task('a', { steps: [step('s1', 'pending')], total_price: 0.1 })]
    const { snapshot } = diffProject(undefined, tasks, T0, ids)
    expect(diffProject(snapshot, tasks, T1, ids).events).toEqual([])
  })

  it('reports new tasks, status changes, steps and price changes', () => {
    const { snapshot } = diffProject(undefined, [task('a', { steps: [step('s1', 'pending')], total_price: 0.1 })], T0, ids)
    const result = diffProject(
      snapshot,
      [
        task('a', { status: 'in_progress', steps: [step('s1', 'completed'), step('s2', 'in_progress')], total_price: 0.25 }),
        task('b', { status: 'completed' })
      ],
      T1,
      ids
    )
    const base = { connectionId: 'c1', projectId: 'p1', at: T1 }
    expect(result.events).toEqual([
      { ...base, kind: 'task-status', taskId: 'a', taskName: 'Task a', from: 'todo', to: 'in_progress' },
      { ...base, kind: 'step-status', taskId: 'a', stepId: 's1', stepName: 'step s1', from: 'pending', to: 'completed' },
      { ...base, kind: 'step-added', taskId: 'a', stepId: 's2', stepName: 'step s2', status: 'in_progress' },
      { ...base, kind: 'task-price', taskId: 'a', taskName: 'Task a', from: 0.1, to: 0.25 },
      { ...base, kind: 'task-added', taskId: 'b', taskName: 'Task b', status: 'completed' }
    ])
    expect(result.changedTaskIds).toEqual(['a', 'b'])
  })

  it('drops vanished tasks and keeps the announced budget level', () => {
    const previous = {
      polledAt: T0,
      tasks: { gone: { status: 'todo' as const, name: 'x', updatedAt: T0, totalPrice: null, steps: {} } },
      budgetNotified: { budgetUsd: 5, level: 'near' as const }
    }
    const result = diffProject(previous, [], T1, ids)
    expect(result.events).toEqual([])
    expect(result.snapshot).toEqual({ polledAt: T1, tasks: {}, budgetNotified: { budgetUsd: 5, level: 'near' } })
  })
})

describe('diffProject: ids that name Object.prototype members', () => {
  it('treats "constructor", "toString" and "__proto__" as ordinary task and step ids', () => {
    const tasks = [
      task('constructor', { steps: [step('__proto__', 'pending'), step('toString', 'pending')] }),
      task('__proto__', { status: 'in_progress' })
    ]
    const base = diffProject(undefined, tasks, T0, ids)
    expect(Object.keys(base.snapshot.tasks).sort()).toEqual(['__proto__', 'constructor'])
    expect(base.snapshot.tasks['constructor' as string]?.steps).toEqual(JSON.parse('{"__proto__":"pending","toString":"pending"}'))
    // Round trip through JSON, as the persisted state does, then nothing new is seen.
    const saved = JSON.parse(JSON.stringify(base.snapshot)) as typeof base.snapshot
    expect(diffProject(saved, tasks, T1, ids).events).toEqual([])
    expect(diffProject(base.snapshot, tasks, T1, ids).events).toEqual([])

    const next = diffProject(undefined, [task('toString')], T0, ids)
    const added = diffProject(next.snapshot, [task('toString'), task('constructor', { steps: [step('valueOf', 'pending')] })], T1, ids)
    expect(added.events.map((e) => e.kind)).toEqual(['task-added'])
  })
})
