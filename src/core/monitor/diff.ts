// Pure diff of two polls. Trade-off of the compact snapshot: an ended task keeps only its step count and fingerprint,
// so should its steps change later (rare) the event is coarser (steps past the old count as added) and it re-baselines.
import type { CompactProjectSnapshot, MonitorEvent, ProjectSnapshot } from '../../shared/monitor'
import {
  type StepStatus,
  type Task,
  TASK_STATUSES,
  type TaskStatus,
  type TaskStep,
  type Unknown
} from '../../shared/service'
import { isActive } from '../../shared/status'
import { isDigest, type TaskDigest } from '../client/digest'
import { stepsOf } from '../client/parse'
import { recordFingerprint, stepsFingerprint } from './fingerprint'

/** A task as listed: in full, or as a digest whose ended tasks' steps are parsed only on demand. */
export type ListedTask = Task | TaskDigest

const stepCountOf = (task: ListedTask): number => (isDigest(task) ? task.stepCount : task.steps.length)
const fingerprintOf = (task: ListedTask): number =>
  isDigest(task) ? task.stepsFingerprint : stepsFingerprint(task.steps)
/** The steps themselves: for a digest's ended task, parsed now (only a change or a closer look needs them). */
const stepsOfTask = (task: ListedTask): readonly TaskStep[] => (isDigest(task) ? stepsOf(task) : task.steps)

export interface DiffResult {
  events: MonitorEvent[]
  snapshot: CompactProjectSnapshot
  /** Tasks added, or whose status, steps or price changed: their details are worth refetching. */
  changedTaskIds: string[]
}

export interface DiffOptions {
  /** A task looked at in detail: its steps are kept one by one even when it has ended. */
  detailedTaskId?: string | null
}

type StepRecord = Record<string, StepStatus | Unknown>

// No prototype, so an id like "__proto__" is an ordinary key, and V8 makes a hash table rather than a class per id set.
function idRecord<V>(): Record<string, V> {
  return Object.create(null) as Record<string, V>
}

/** One string per status for all snapshots, not one per parsed list. */
const TASK_STATUS: ReadonlyMap<string, TaskStatus> = new Map(TASK_STATUSES.map((s) => [s, s]))
const internStatus = (status: TaskStatus | Unknown): TaskStatus | Unknown => TASK_STATUS.get(status) ?? 'unknown'

export function isCompact(snapshot: ProjectSnapshot): snapshot is CompactProjectSnapshot {
  return (snapshot as Partial<CompactProjectSnapshot>).form === 'compact'
}

/** Every task keeps its steps here, so the first poll after an upgrade still reports exact step changes. */
export function compactSnapshot(snapshot: ProjectSnapshot): CompactProjectSnapshot {
  if (isCompact(snapshot)) return snapshot
  const out = emptySnapshot(snapshot.polledAt)
  for (const [taskId, task] of Object.entries(snapshot.tasks)) {
    const steps = idRecord<StepStatus | Unknown>()
    for (const [stepId, status] of Object.entries(task.steps)) steps[stepId] = status
    out.taskIds.push(taskId)
    out.statuses.push(internStatus(task.status))
    out.prices.push(task.totalPrice)
    out.stepCounts.push(Object.keys(steps).length)
    out.stepFingerprints.push(recordFingerprint(steps))
    out.steps[taskId] = steps
  }
  if (snapshot.budgetNotified !== undefined) out.budgetNotified = snapshot.budgetNotified
  return out
}

function emptySnapshot(polledAt: string): CompactProjectSnapshot {
  return {
    form: 'compact',
    polledAt,
    taskIds: [],
    statuses: [],
    prices: [],
    stepCounts: [],
    stepFingerprints: [],
    steps: idRecord<StepRecord>()
  }
}

/** What a snapshot last saw of one task. */
export interface LastSeenTask {
  status: TaskStatus | Unknown
  totalPrice: number | null
  stepCount: number
  /** Each step's status, when kept (see the trade-off above). */
  steps?: Readonly<StepRecord>
}

export function lastSeenTask(snapshot: ProjectSnapshot, taskId: string): LastSeenTask | undefined {
  if (!isCompact(snapshot)) {
    const t = Object.hasOwn(snapshot.tasks, taskId) ? snapshot.tasks[taskId] : undefined
    return t && { status: t.status, totalPrice: t.totalPrice, stepCount: Object.keys(t.steps).length, steps: t.steps }
  }
  const i = snapshot.taskIds.indexOf(taskId)
  if (i === -1) return undefined
  const seen: LastSeenTask = {
    status: snapshot.statuses[i] as TaskStatus | Unknown,
    totalPrice: snapshot.prices[i] as number | null,
    stepCount: snapshot.stepCounts[i] as number
  }
  if (Object.hasOwn(snapshot.steps, taskId)) seen.steps = snapshot.steps[taskId]
  return seen
}

export function hasTask(snapshot: ProjectSnapshot, taskId: string): boolean {
  return isCompact(snapshot) ? snapshot.taskIds.includes(taskId) : Object.hasOwn(snapshot.tasks, taskId)
}

/** Finds a task of the previous snapshot: at the same position first (lists rarely reorder), else by id. */
class PreviousTasks {
  private byId: Map<string, number> | null = null
  constructor(private readonly snapshot: CompactProjectSnapshot) {}

  indexOf(taskId: string, hint: number): number | undefined {
    if (this.snapshot.taskIds[hint] === taskId) return hint
    if (!this.byId) {
      const byId = new Map<string, number>()
      this.snapshot.taskIds.forEach((id, i) => byId.set(id, i))
      this.byId = byId
    }
    return this.byId.get(taskId)
  }
}

/** Without a previous snapshot this is the baseline: no events. A task gone from the list is dropped silently (the
 * interface has no "deleted" to report). */
export function diffProject(
  previousSnapshot: ProjectSnapshot | undefined,
  tasks: readonly ListedTask[],
  at: string,
  ids: { connectionId: string; projectId: string },
  options: DiffOptions = {}
): DiffResult {
  const base = { connectionId: ids.connectionId, projectId: ids.projectId, at }
  const events: MonitorEvent[] = []
  const changed = new Set<string>()
  const previous = previousSnapshot && compactSnapshot(previousSnapshot)
  const lookup = previous && new PreviousTasks(previous)
  const next = emptySnapshot(at)

  for (let i = 0; i < tasks.length; i++) {
    const task = tasks[i] as ListedTask
    const status = internStatus(task.status)
    const price = task.total_price
    const stepCount = stepCountOf(task)
    const fingerprint = fingerprintOf(task)
    next.taskIds.push(task.id)
    next.statuses.push(status)
    next.prices.push(price)
    next.stepCounts.push(stepCount)
    next.stepFingerprints.push(fingerprint)
    if (isActive(status) || task.id === options.detailedTaskId) {
      const steps = idRecord<StepStatus | Unknown>()
      for (const step of stepsOfTask(task)) steps[step.id] = step.status
      next.steps[task.id] = steps
    }
    if (!previous || !lookup) continue

    const j = lookup.indexOf(task.id, i)
    if (j === undefined) {
      events.push({ ...base, kind: 'task-added', taskId: task.id, taskName: task.name, status, ...taskFacts(task) })
      changed.add(task.id)
      continue
    }
    const was = previous.statuses[j] as TaskStatus | Unknown
    if (was !== status) {
      events.push({
        ...base,
        kind: 'task-status',
        taskId: task.id,
        taskName: task.name,
        from: was,
        to: status,
        ...taskFacts(task)
      })
      changed.add(task.id)
    }
    const steps = Object.hasOwn(previous.steps, task.id) ? previous.steps[task.id] : undefined
    if (steps) {
      if (stepEvents(steps, task, base, events)) changed.add(task.id)
    } else if (previous.stepCounts[j] !== stepCount || previous.stepFingerprints[j] !== fingerprint) {
      coarseStepEvents(previous.stepCounts[j] as number, task, base, events)
      changed.add(task.id)
    }
    const wasPrice = previous.prices[j] as number | null
    if (wasPrice !== price) {
      events.push({ ...base, kind: 'task-price', taskId: task.id, taskName: task.name, from: wasPrice, to: price })
      changed.add(task.id)
    }
  }

  if (previous?.budgetNotified) next.budgetNotified = previous.budgetNotified
  return { events, snapshot: next, changedTaskIds: [...changed] }
}

type Base = { connectionId: string; projectId: string; at: string }

/** What a notification tells beside the status: when the task began and last changed, its price. */
function taskFacts(task: ListedTask): { createdAt: string; updatedAt: string; totalPrice: number | null } {
  return { createdAt: task.created_at, updatedAt: task.updated_at, totalPrice: task.total_price }
}

/** Exact: every step added or changed. True when there was any. */
function stepEvents(before: StepRecord, task: ListedTask, base: Base, events: MonitorEvent[]): boolean {
  const told = events.length
  for (const step of stepsOfTask(task)) {
    const was = Object.hasOwn(before, step.id) ? before[step.id] : undefined
    if (was === undefined) events.push(stepAdded(base, task, step))
    else if (was !== step.status) events.push(stepChanged(base, task, step, was))
  }
  return events.length > told
}

/** From a fingerprint alone: the steps past the old count as added, else the last step as changed. */
function coarseStepEvents(countBefore: number, task: ListedTask, base: Base, events: MonitorEvent[]): void {
  const steps = stepsOfTask(task)
  if (steps.length > countBefore) {
    for (const step of steps.slice(countBefore)) events.push(stepAdded(base, task, step))
    return
  }
  const last = steps[steps.length - 1]
  if (last) events.push(stepChanged(base, task, last, 'unknown'))
}

/** The two step events, built once for the exact diff and the coarse one. */
function stepAdded(base: Base, task: ListedTask, step: TaskStep): MonitorEvent {
  return {
    ...base,
    kind: 'step-added',
    taskId: task.id,
    stepId: step.id,
    stepName: step.name,
    status: step.status
  }
}

function stepChanged(base: Base, task: ListedTask, step: TaskStep, from: StepStatus | Unknown): MonitorEvent {
  return {
    ...base,
    kind: 'step-status',
    taskId: task.id,
    stepId: step.id,
    stepName: step.name,
    from,
    to: step.status
  }
}
