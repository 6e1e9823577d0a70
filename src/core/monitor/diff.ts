// What changed in a project between two polls. Pure: the previous snapshot and the fresh task
// list in, the events and the next snapshot out.
import type { MonitorEvent, ProjectSnapshot, TaskSnapshot } from '../../shared/monitor'
import type { Task } from '../../shared/service'

export interface DiffResult {
  events: MonitorEvent[]
  snapshot: ProjectSnapshot
  /** Tasks added, or whose status, steps or price changed: their details are worth refetching. */
  changedTaskIds: string[]
}

/**
 * A record keyed by ids: without a prototype, so an id like "constructor" or "__proto__" is an
 * ordinary key, and (in V8) a hash table from the start rather than one hidden class per id set,
 * which for thousands of tasks costs far more memory and time.
 */
function idRecord<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>
}

export function snapshotTask(task: Task): TaskSnapshot {
  const steps = idRecord<TaskSnapshot['steps'][string]>()
  for (const step of task.steps) steps[step.id] = step.status
  return { status: task.status, name: task.name, updatedAt: task.updated_at, totalPrice: task.total_price, steps }
}

/**
 * Without a previous snapshot this is the baseline: no events, only the snapshot. A task gone from
 * the list is dropped from the snapshot silently (the interface has no "deleted" to report).
 */
export function diffProject(
  previous: ProjectSnapshot | undefined,
  tasks: readonly Task[],
  at: string,
  ids: { connectionId: string; projectId: string }
): DiffResult {
  const base = { connectionId: ids.connectionId, projectId: ids.projectId, at }
  const events: MonitorEvent[] = []
  const changed = new Set<string>()
  const next = idRecord<TaskSnapshot>()

  for (const task of tasks) {
    const now = snapshotTask(task)
    next[task.id] = now
    if (!previous) continue
    const before = Object.hasOwn(previous.tasks, task.id) ? previous.tasks[task.id] : undefined
    if (!before) {
      events.push({ ...base, kind: 'task-added', taskId: task.id, taskName: task.name, status: task.status })
      changed.add(task.id)
      continue
    }
    if (before.status !== now.status) {
      events.push({ ...base, kind: 'task-status', taskId: task.id, taskName: task.name, from: before.status, to: now.status })
      changed.add(task.id)
    }
    for (const step of task.steps) {
      const was = Object.hasOwn(before.steps, step.id) ? before.steps[step.id] : undefined
      if (was === undefined) {
        events.push({ ...base, kind: 'step-added', taskId: task.id, stepId: step.id, stepName: step.name, status: step.status })
        changed.add(task.id)
      } else if (was !== step.status) {
        events.push({ ...base, kind: 'step-status', taskId: task.id, stepId: step.id, stepName: step.name, from: was, to: step.status })
        changed.add(task.id)
      }
    }
    if (before.totalPrice !== now.totalPrice) {
      events.push({ ...base, kind: 'task-price', taskId: task.id, taskName: task.name, from: before.totalPrice, to: now.totalPrice })
      changed.add(task.id)
    }
  }

  const snapshot: ProjectSnapshot = { polledAt: at, tasks: next }
  if (previous?.budgetNotified) snapshot.budgetNotified = previous.budgetNotified
  return { events, snapshot, changedTaskIds: [...changed] }
}
