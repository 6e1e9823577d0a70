// Only what a task list shows, filters, searches and sorts by: 10,000 tasks cross to the window as summaries, and a
// full task comes on its own.
import type { StepStatus, Task, TaskStatus, Unknown } from './service'

/** How many steps have each status; a status no step has is left out. */
export type StepCounts = Partial<Record<StepStatus | Unknown, number>>

export interface TaskSummary {
  id: string
  name: string
  /** Searched, not shown in the list. */
  description: string
  status: TaskStatus | Unknown
  status_raw?: string
  created_at: string
  updated_at: string
  branch: string
  /** USD. null when the server sent none. */
  total_price: number | null
  step_counts: StepCounts
  /** The most recently updated step, when there is one: a running task changes through its steps. */
  last_step?: LastStep
  /** Set on a running task that costs more than usual: the median cost of the project's completed tasks (USD). */
  usual_cost_usd?: number
}

export interface LastStep {
  name: string
  status: StepStatus | Unknown
  status_raw?: string
  updated_at: string
}

export function summarizeTask(task: Task): TaskSummary {
  const step_counts: StepCounts = {}
  let last: Task['steps'][number] | undefined
  let lastAt = Number.NEGATIVE_INFINITY
  for (const step of Array.isArray(task.steps) ? task.steps : []) {
    step_counts[step.status] = (step_counts[step.status] ?? 0) + 1
    const at = Date.parse(step.updated_at)
    // An unreadable time still beats no step at all, but never a readable one.
    if (last === undefined || (!Number.isNaN(at) && (Number.isNaN(lastAt) || at >= lastAt))) {
      last = step
      lastAt = at
    }
  }
  const summary: TaskSummary = {
    id: task.id,
    name: task.name,
    description: task.description,
    status: task.status,
    created_at: task.created_at,
    updated_at: task.updated_at,
    branch: task.branch,
    total_price: task.total_price,
    step_counts
  }
  if (task.status_raw !== undefined) summary.status_raw = task.status_raw
  if (last !== undefined) {
    summary.last_step = { name: last.name, status: last.status, updated_at: last.updated_at }
    if (last.status_raw !== undefined) summary.last_step.status_raw = last.status_raw
  }
  return summary
}

/** All steps of the summary, whatever their status. */
export function stepCount(summary: Pick<TaskSummary, 'step_counts'>): number {
  let n = 0
  for (const count of Object.values(summary.step_counts)) n += count ?? 0
  return n
}
