// Steps are built only for tasks still todo or in progress; an ended task's stay as JSON.parse left them (stepsOf
// parses them if a change needs them), since the monitor only compares their count, fingerprint and latest activity.
import type { Task, TaskStep } from '../../shared/service'
import { FINGERPRINT_START, foldStep } from '../monitor/fingerprint'
import { isoMs } from '../util/iso-time'
import type { TaskHead } from './fast'

export interface TaskDigest extends TaskHead {
  /** Its steps, parsed: always from a full list; from a digest list only while the task is active. */
  steps: TaskStep[] | null
  stepCount: number
  /** monitor/fingerprint.ts's stepsFingerprint of the steps. */
  stepsFingerprint: number
  /** The latest updated_at of its steps, epoch ms; -Infinity without a readable one. */
  stepsActivityMs: number
  /** The steps as the service sent them while `steps` is null (already checked: invalid ones were reported then). */
  rawSteps: readonly unknown[] | null
}

/** A conditional digest list: `changed: false` when the server answered 304 to the ETag sent. */
export type TaskDigestsIfChanged = { changed: true; tasks: TaskDigest[]; etag: string | null } | { changed: false }

export function isDigest(task: Task | TaskDigest): task is TaskDigest {
  return (task as Partial<TaskDigest>).stepsFingerprint !== undefined
}

/** Counts, fingerprint and latest activity of steps, folded one step at a time. */
export class StepsFold {
  count = 0
  fingerprint = FINGERPRINT_START
  activityMs = Number.NEGATIVE_INFINITY

  add(id: string, status: string, updatedAt: string): void {
    this.count++
    this.fingerprint = foldStep(this.fingerprint, id, status)
    const ms = isoMs(updatedAt)
    if (ms > this.activityMs) this.activityMs = ms
  }
}

/** The digest of a task whose steps are parsed. */
export function digestTask(task: Task): TaskDigest {
  const { steps, ...head } = task
  return digestOf(head, steps, null, foldAll(steps))
}

export function foldAll(steps: readonly TaskStep[]): StepsFold {
  const fold = new StepsFold()
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i] as TaskStep
    fold.add(s.id, s.status, s.updated_at)
  }
  return fold
}

/** Field by field, not by spreading `head`: a spread took as long as folding the task's steps. */
export function digestOf(
  head: TaskHead,
  steps: TaskStep[] | null,
  rawSteps: readonly unknown[] | null,
  fold: StepsFold
): TaskDigest {
  return {
    id: head.id,
    project_id: head.project_id,
    name: head.name,
    description: head.description,
    status: head.status,
    text_requirement: head.text_requirement,
    files_requirement: head.files_requirement,
    created_at: head.created_at,
    updated_at: head.updated_at,
    branch: head.branch,
    total_price: head.total_price,
    steps,
    stepCount: fold.count,
    stepsFingerprint: fold.fingerprint,
    stepsActivityMs: fold.activityMs,
    rawSteps
  }
}
