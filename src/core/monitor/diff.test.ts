import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { STEP_STATUSES, type Task, TASK_STATUSES, type TaskStep } from '../../shared/service'
import { parseTaskDigests } from '../client/parse'
import { diffProject, hasTask, lastSeenTask, type ListedTask } from './diff'
import { stepsFingerprint } from './fingerprint'

const ids = { connectionId: 'c1', projectId: 'p1' }
const T0 = '2025-03-10T10:00:00.000Z'
const T1 = '2025-03-10T10:00:05.000Z'

function step(id: string, status: TaskStep['status']): TaskStep {
  return {
    id,
    task_id: 't',
    name: `step ${id}`,
    description: '',
    status,
    type: null,
    metadata: {},
    created_at: T0,
    updated_at: T0
  }
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
    const result = diffProject(
      undefined,
      [task('a', { status: 'completed', steps: [step('s1', 'completed')] })],
      T0,
      ids
    )
    expect(result.events).toEqual([])
    expect(result.changedTaskIds).toEqual([])
    expect(result.snapshot).toEqual({
      form: 'compact',
      polledAt: T0,
      taskIds: ['a'],
      statuses: ['completed'],
      prices: [null],
      stepCounts: [1],
      stepFingerprints: [stepsFingerprint([{ id: 's1', status: 'completed' }])],
      // An ended task keeps no step one by one.
      steps: {}
    })
  })

  it('reports nothing when nothing changed', () => {
    const tasks = [task('a', { steps: [step('s1', 'pending')], total_price: 0.1 })]
    const { snapshot } = diffProject(undefined, tasks, T0, ids)
    expect(diffProject(snapshot, tasks, T1, ids).events).toEqual([])
  })

  it('reports new tasks, status changes, steps and price changes', () => {
    const { snapshot } = diffProject(
      undefined,
      [task('a', { steps: [step('s1', 'pending')], total_price: 0.1 })],
      T0,
      ids
    )
    const result = diffProject(
      snapshot,
      [
        task('a', {
          status: 'in_progress',
          steps: [step('s1', 'completed'), step('s2', 'in_progress')],
          total_price: 0.25
        }),
        task('b', { status: 'completed' })
      ],
      T1,
      ids
    )
    const base = { connectionId: 'c1', projectId: 'p1', at: T1 }
    // A task's status events carry its times and price as the service sent them, for the notification's words.
    const facts = (price: number | null) => ({
      createdAt: task('x').created_at,
      updatedAt: task('x').updated_at,
      totalPrice: price
    })
    expect(result.events).toEqual([
      {
        ...base,
        kind: 'task-status',
        taskId: 'a',
        taskName: 'Task a',
        from: 'todo',
        to: 'in_progress',
        ...facts(0.25)
      },
      {
        ...base,
        kind: 'step-status',
        taskId: 'a',
        stepId: 's1',
        stepName: 'step s1',
        from: 'pending',
        to: 'completed'
      },
      { ...base, kind: 'step-added', taskId: 'a', stepId: 's2', stepName: 'step s2', status: 'in_progress' },
      { ...base, kind: 'task-price', taskId: 'a', taskName: 'Task a', from: 0.1, to: 0.25 },
      { ...base, kind: 'task-added', taskId: 'b', taskName: 'Task b', status: 'completed', ...facts(null) }
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
    expect(result.snapshot).toMatchObject({
      polledAt: T1,
      taskIds: [],
      steps: {},
      budgetNotified: { budgetUsd: 5, level: 'near' }
    })
  })
})

describe('diffProject: ids that name Object.prototype members', () => {
  it('treats "constructor", "toString" and "__proto__" as ordinary task and step ids', () => {
    const tasks = [
      task('constructor', { steps: [step('__proto__', 'pending'), step('toString', 'pending')] }),
      task('__proto__', { status: 'in_progress' })
    ]
    const base = diffProject(undefined, tasks, T0, ids)
    expect([...base.snapshot.taskIds].sort()).toEqual(['__proto__', 'constructor'])
    expect(lastSeenTask(base.snapshot, 'constructor')?.steps).toEqual(
      JSON.parse('{"__proto__":"pending","toString":"pending"}')
    )
    // Round trip through JSON, as the persisted state does, then nothing new is seen.
    const saved = JSON.parse(JSON.stringify(base.snapshot)) as typeof base.snapshot
    expect(diffProject(saved, tasks, T1, ids).events).toEqual([])
    expect(diffProject(base.snapshot, tasks, T1, ids).events).toEqual([])

    const next = diffProject(undefined, [task('toString')], T0, ids)
    const added = diffProject(
      next.snapshot,
      [task('toString'), task('constructor', { steps: [step('valueOf', 'pending')] })],
      T1,
      ids
    )
    expect(added.events.map((e) => e.kind)).toEqual(['task-added'])
  })
})

describe('diffProject: compact last seen state', () => {
  const steps = (...statuses: TaskStep['status'][]) => statuses.map((s, i) => step(`s${i + 1}`, s))

  it('keeps each step only for active and detailed tasks, a count and fingerprint for every task', () => {
    const tasks = [
      task('run', { status: 'in_progress', steps: steps('completed', 'in_progress') }),
      task('done', { status: 'completed', steps: steps('completed', 'completed') }),
      task('seen', { status: 'failed', steps: steps('failed') })
    ]
    const { snapshot } = diffProject(undefined, tasks, T0, ids, { detailedTaskId: 'seen' })
    expect(Object.keys(snapshot.steps).sort()).toEqual(['run', 'seen'])
    expect(snapshot.stepCounts).toEqual([2, 2, 1])
    expect(snapshot.stepFingerprints).toEqual(tasks.map((t) => stepsFingerprint(t.steps)))
    expect(new Set(snapshot.stepFingerprints).size).toBe(3)
  })

  it('reports exact step events for an active task, also in the poll where it ends', () => {
    const before = diffProject(
      undefined,
      [task('a', { status: 'in_progress', steps: steps('completed', 'in_progress', 'pending') })],
      T0,
      ids
    )
    const running = diffProject(
      before.snapshot,
      [task('a', { status: 'in_progress', steps: steps('completed', 'completed', 'in_progress') })],
      T1,
      ids
    )
    expect(running.events.map((e) => (e.kind === 'step-status' ? `${e.stepId}:${e.from}>${e.to}` : e.kind))).toEqual([
      's2:in_progress>completed',
      's3:pending>in_progress'
    ])
    const ended = diffProject(
      running.snapshot,
      [task('a', { status: 'failed', steps: steps('completed', 'completed', 'failed', 'cancelled') })],
      T1,
      ids
    )
    expect(
      ended.events.map((e) =>
        e.kind === 'step-status' ? `${e.stepId}:${e.from}>${e.to}` : e.kind === 'step-added' ? `+${e.stepId}` : e.kind
      )
    ).toEqual(['task-status', 's3:in_progress>failed', '+s4'])
    expect(ended.snapshot.steps).toEqual({})
  })

  it('tells that an ended task got more steps from the count, and re-baselines', () => {
    const done = task('a', { status: 'completed', steps: steps('completed', 'completed') })
    const { snapshot } = diffProject(undefined, [done], T0, ids)
    const grown = task('a', { status: 'completed', steps: steps('completed', 'completed', 'pending', 'completed') })
    const result = diffProject(snapshot, [grown], T1, ids)
    expect(result.events).toEqual([
      {
        connectionId: 'c1',
        projectId: 'p1',
        at: T1,
        kind: 'step-added',
        taskId: 'a',
        stepId: 's3',
        stepName: 'step s3',
        status: 'pending'
      },
      {
        connectionId: 'c1',
        projectId: 'p1',
        at: T1,
        kind: 'step-added',
        taskId: 'a',
        stepId: 's4',
        stepName: 'step s4',
        status: 'completed'
      }
    ])
    expect(result.changedTaskIds).toEqual(['a'])
    expect(diffProject(result.snapshot, [grown], T1, ids).events).toEqual([])
  })

  it("tells that an ended task's step changed from the fingerprint (which step: the last, from unknown), and re-baselines", () => {
    const { snapshot } = diffProject(
      undefined,
      [task('a', { status: 'failed', steps: steps('completed', 'pending') })],
      T0,
      ids
    )
    const changed = task('a', { status: 'failed', steps: steps('completed', 'cancelled') })
    const result = diffProject(snapshot, [changed], T1, ids)
    expect(result.events).toEqual([
      {
        connectionId: 'c1',
        projectId: 'p1',
        at: T1,
        kind: 'step-status',
        taskId: 'a',
        stepId: 's2',
        stepName: 'step s2',
        from: 'unknown',
        to: 'cancelled'
      }
    ])
    expect(diffProject(result.snapshot, [changed], T1, ids).events).toEqual([])
    // Same ids and statuses in another order is a change too.
    const reordered = task('a', { status: 'failed', steps: [step('s2', 'cancelled'), step('s1', 'completed')] })
    expect(diffProject(result.snapshot, [reordered], T1, ids).events.map((e) => e.kind)).toEqual(['step-status'])
  })

  it('reads the full form an older build saved, comparing its steps one by one', () => {
    const previous = {
      polledAt: T0,
      tasks: {
        a: {
          status: 'completed' as const,
          name: 'Task a',
          updatedAt: T0,
          totalPrice: 1,
          steps: { s1: 'completed' as const, s2: 'pending' as const }
        }
      }
    }
    const result = diffProject(
      previous,
      [task('a', { status: 'completed', total_price: 1, steps: steps('completed', 'cancelled') })],
      T1,
      ids
    )
    expect(result.events).toEqual([
      {
        connectionId: 'c1',
        projectId: 'p1',
        at: T1,
        kind: 'step-status',
        taskId: 'a',
        stepId: 's2',
        stepName: 'step s2',
        from: 'pending',
        to: 'cancelled'
      }
    ])
    expect(result.snapshot.form).toBe('compact')
    expect(result.snapshot.steps).toEqual({})
  })

  it('finds tasks whose list order changed', () => {
    const a = task('a', { status: 'completed' })
    const b = task('b', { status: 'in_progress' })
    const { snapshot } = diffProject(undefined, [a, b], T0, ids)
    const result = diffProject(snapshot, [{ ...b, status: 'completed' }, a], T1, ids)
    expect(result.events.map((e) => (e.kind === 'task-status' ? `${e.taskId}:${e.to}` : e.kind))).toEqual([
      'b:completed'
    ])
  })
})

describe('diffProject over digests', () => {
  /** Two polls of a few tasks, whose statuses, prices and steps change in between (or not). */
  const stepsArb = fc.array(
    fc.record({ id: fc.constantFrom('s1', 's2', 's3', 's4'), status: fc.constantFrom(...STEP_STATUSES) }),
    { maxLength: 4 }
  )
  const taskArb = fc.record({
    id: fc.constantFrom('a', 'b', 'c', 'd'),
    status: fc.constantFrom(...TASK_STATUSES),
    total_price: fc.constantFrom(null, 0.5, 1),
    steps: stepsArb
  })
  const listArb = fc
    .uniqueArray(taskArb, { selector: (t) => t.id, maxLength: 4 })
    .map((list) =>
      list.map((t) =>
        task(t.id, { status: t.status, total_price: t.total_price, steps: t.steps.map((s) => step(s.id, s.status)) })
      )
    )
  const asDigests = (tasks: Task[]): ListedTask[] => parseTaskDigests(JSON.parse(JSON.stringify(tasks)))

  it('gives the events, snapshot and changed tasks the full lists give, the looked-at task included', () => {
    fc.assert(
      fc.property(listArb, listArb, fc.constantFrom(null, 'a', 'b'), (before, after, detailed) => {
        const options = { detailedTaskId: detailed }
        const full = diffProject(diffProject(undefined, before, T0, ids, options).snapshot, after, T1, ids, options)
        const digest = diffProject(
          diffProject(undefined, asDigests(before), T0, ids, options).snapshot,
          asDigests(after),
          T1,
          ids,
          options
        )
        expect(digest).toStrictEqual(full)
      }),
      { numRuns: 500 }
    )
  })
})

describe('lastSeenTask and hasTask', () => {
  const full = {
    polledAt: T0,
    tasks: {
      a: {
        status: 'failed' as const,
        name: 'Task a',
        updatedAt: T0,
        totalPrice: 0.5,
        steps: { s1: 'completed' as const, s2: 'failed' as const }
      }
    }
  }

  it('read the full form an older build saved', () => {
    expect(lastSeenTask(full, 'a')).toEqual({
      status: 'failed',
      totalPrice: 0.5,
      stepCount: 2,
      steps: { s1: 'completed', s2: 'failed' }
    })
    expect(hasTask(full, 'a')).toBe(true)
    for (const id of ['b', 'constructor', 'toString']) {
      expect(lastSeenTask(full, id)).toBeUndefined()
      expect(hasTask(full, id)).toBe(false)
    }
  })

  it('read the compact form: every step of an active task, only the count of an ended one', () => {
    const tasks = [
      task('run', {
        status: 'in_progress',
        total_price: 1,
        steps: [step('s1', 'completed'), step('s2', 'in_progress')]
      }),
      task('constructor', { status: 'completed', total_price: 2, steps: [step('s1', 'completed')] })
    ]
    const { snapshot } = diffProject(undefined, tasks, T0, ids)
    // As persisted: a plain object again after JSON.
    const saved = JSON.parse(JSON.stringify(snapshot)) as typeof snapshot
    for (const s of [snapshot, saved]) {
      expect(lastSeenTask(s, 'run')).toEqual({
        status: 'in_progress',
        totalPrice: 1,
        stepCount: 2,
        steps: { s1: 'completed', s2: 'in_progress' }
      })
      const ended = lastSeenTask(s, 'constructor')
      expect(ended).toEqual({ status: 'completed', totalPrice: 2, stepCount: 1 })
      expect(ended && 'steps' in ended).toBe(false)
      expect(lastSeenTask(s, 'gone')).toBeUndefined()
      expect(hasTask(s, 'constructor')).toBe(true)
      expect(hasTask(s, 'toString')).toBe(false)
    }
    // Nothing changed, after a restart too: an ended task named like a prototype member has no steps kept.
    expect(diffProject(saved, tasks, T1, ids).events).toEqual([])
  })
})

describe('diffProject: edges', () => {
  it('reads a status this build does not know as unknown', () => {
    const odd = task('a', { status: 'paused' as Task['status'] })
    expect(diffProject(undefined, [odd], T0, ids).snapshot.statuses).toEqual(['unknown'])
  })

  it('an ended task that lost all its steps tells nothing, and is re-baselined', () => {
    const { snapshot } = diffProject(
      undefined,
      [task('a', { status: 'completed', steps: [step('s1', 'completed')] })],
      T0,
      ids
    )
    const result = diffProject(snapshot, [task('a', { status: 'completed', steps: [] })], T1, ids)
    expect(result.events).toEqual([])
    expect(result.changedTaskIds).toEqual(['a'])
    expect(result.snapshot.stepCounts).toEqual([0])
  })
})

describe('diffProject: changed tasks', () => {
  it('a step added or changed alone marks its task changed (its details are worth fetching again)', () => {
    const before = diffProject(
      undefined,
      [task('a', { status: 'in_progress', steps: [step('s1', 'in_progress')] })],
      T0,
      ids
    )
    const changed = diffProject(
      before.snapshot,
      [task('a', { status: 'in_progress', steps: [step('s1', 'completed')] })],
      T1,
      ids
    )
    expect(changed.changedTaskIds).toEqual(['a'])
    const added = diffProject(
      before.snapshot,
      [task('a', { status: 'in_progress', steps: [step('s1', 'in_progress'), step('s2', 'pending')] })],
      T1,
      ids
    )
    expect(added.changedTaskIds).toEqual(['a'])
  })

  it('an ended task whose step count changed is told so even when its fingerprint did not (a 32-bit hash collides)', () => {
    // Found by search: these two step lists have the same fingerprint.
    const two = [step('s1', 'completed'), step('x69tx', 'completed')]
    const three = [step('s1', 'completed'), step('s2', 'completed'), step('y2eg1d', 'completed')]
    expect(stepsFingerprint(three)).toBe(stepsFingerprint(two))
    const before = diffProject(undefined, [task('a', { status: 'completed', steps: two })], T0, ids)
    const after = diffProject(before.snapshot, [task('a', { status: 'completed', steps: three })], T1, ids)
    expect(after.events).toMatchObject([{ kind: 'step-added', taskId: 'a', stepId: 'y2eg1d' }])
    expect(after.changedTaskIds).toEqual(['a'])
  })
})
