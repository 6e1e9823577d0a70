// Status order, activity and labels for tasks and steps: one place so the tray, the window and the
// command sort and word statuses the same way.
import type { StepStatus, TaskStatus, Unknown } from './service'

/** Display order: what needs attention first, unknown statuses last. */
export const TASK_STATUS_ORDER: readonly (TaskStatus | Unknown)[] = [
  'in_progress',
  'todo',
  'failed',
  'completed',
  'cancelled',
  'unknown'
]

/** Negative when `a` sorts before `b` in TASK_STATUS_ORDER. */
export function compareTaskStatus(a: TaskStatus | Unknown, b: TaskStatus | Unknown): number {
  return rank(TASK_STATUS_ORDER, a) - rank(TASK_STATUS_ORDER, b)
}

function rank<T>(order: readonly T[], value: T): number {
  const i = order.indexOf(value)
  return i === -1 ? order.length : i
}

/** A task the agent has yet to finish: it keeps its project on the fast polling interval. */
export function isActive(status: TaskStatus | Unknown): boolean {
  return status === 'todo' || status === 'in_progress'
}

/** A task that reached an end state. An unknown status is neither active nor ended. */
export function isEnded(status: TaskStatus | Unknown): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled'
}

export function isStepActive(status: StepStatus | Unknown): boolean {
  return status === 'pending' || status === 'in_progress'
}

/** Tasks and steps share every status but their first (todo, pending), and its word. */
const LABELS: Record<TaskStatus | StepStatus | Unknown, string> = {
  todo: 'To do',
  pending: 'Pending',
  in_progress: 'In progress',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  unknown: 'Unknown'
}

/** The label of a task's or step's status; for an unknown status, the server's own word when there is one. */
function statusLabel(status: TaskStatus | StepStatus | Unknown, raw?: string): string {
  if (status === 'unknown' && raw) return raw
  return LABELS[status] ?? LABELS.unknown
}
export const taskStatusLabel: (status: TaskStatus | Unknown, raw?: string) => string = statusLabel
export const stepStatusLabel: (status: StepStatus | Unknown, raw?: string) => string = statusLabel
