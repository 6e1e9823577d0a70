// Indexed once per fetched list, so typing in the search stays fast with 10,000 tasks.
import { isActive } from '../../shared/status'
import type { TaskSummary } from '../../shared/task-summary'

/** The list's chips: running is what the agent has yet to finish (shared/status isActive), as everywhere. */
export type StatusFilter = 'all' | 'running' | 'failed'
export const STATUS_FILTERS: readonly StatusFilter[] = ['all', 'running', 'failed']

function matches(task: TaskSummary, filter: StatusFilter): boolean {
  if (filter === 'running') return isActive(task.status)
  if (filter === 'failed') return task.status === 'failed'
  return true
}

export interface IndexedTask {
  task: TaskSummary
  /** Epoch ms of the latest change to the task or one of its steps; 0 when unreadable. */
  activity: number
  activityIso: string
  /** Lowercased name, description, id and branch: made on the first search, not on opening. */
  haystack?: string
}

/** The latest of the task's own times and its last step's (a running task changes through its steps). */
export function lastActivity(task: TaskSummary): { at: number; iso: string } {
  let best = { at: parse(task.updated_at), iso: task.updated_at }
  const created = parse(task.created_at)
  if (created > best.at) best = { at: created, iso: task.created_at }
  if (task.last_step) {
    const at = parse(task.last_step.updated_at)
    if (at > best.at) best = { at, iso: task.last_step.updated_at }
  }
  return best
}

function parse(iso: string): number {
  const t = Date.parse(iso)
  return Number.isNaN(t) ? 0 : t
}

/** Newest activity first; ties keep a stable order by id. */
export function indexTasks(tasks: readonly TaskSummary[]): IndexedTask[] {
  return tasks
    .map((task) => {
      const { at, iso } = lastActivity(task)
      return { task, activity: at, activityIso: iso }
    })
    .sort((a, b) => b.activity - a.activity || a.task.id.localeCompare(b.task.id))
}

export function filterTasks(indexed: readonly IndexedTask[], status: StatusFilter, query: string): IndexedTask[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '')
  if (status === 'all' && words.length === 0) return indexed as IndexedTask[]
  return indexed.filter((t) => {
    if (!matches(t.task, status)) return false
    if (words.length === 0) return true
    const haystack = (t.haystack ??= [t.task.name, t.task.description, t.task.id, t.task.branch]
      .join('\n')
      .toLowerCase())
    return words.every((w) => haystack.includes(w))
  })
}

/** How many tasks each chip shows. */
export function countByFilter(tasks: readonly TaskSummary[]): Record<StatusFilter, number> {
  const counts: Record<StatusFilter, number> = { all: tasks.length, running: 0, failed: 0 }
  for (const task of tasks) {
    if (matches(task, 'running')) counts.running += 1
    if (matches(task, 'failed')) counts.failed += 1
  }
  return counts
}
