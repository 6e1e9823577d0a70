// What the user has not seen yet: failures, completions and budget crossings, one item each so the Now screen can ack
// them one by one. Baseline failures never count (or the tray stays on "attention"); kept in settings across restarts.
import type { AttentionItem, ProjectView } from '../../shared/ipc'
import type { MonitorEvent } from '../../shared/monitor'
import type { ProjectAttention } from '../../shared/settings'
import { createLatestWriter } from './latest-writer'

export type AttentionView = ProjectView['attention']

/** Bounds per project, so a project nobody looks at cannot grow the settings file for ever. */
export const MAX_FAILED_KEPT = 200
export const MAX_COMPLETED_KEPT = 50

export function emptyAttention(): ProjectAttention {
  return {
    acknowledgedAt: null,
    failedTaskIds: [],
    budgetCrossed: false,
    completedTaskIds: [],
    tasks: {},
    budgetCrossedAt: null
  }
}

/** Adds `taskId` last, dropping the oldest past `max` (and their names). */
function push(list: readonly string[], taskId: string, max: number): { list: string[]; dropped: string[] } {
  const next = [...list, taskId]
  const dropped = next.length > max ? next.splice(0, next.length - max) : []
  return { list: next, dropped }
}

function withoutTask(base: ProjectAttention, taskId: string): ProjectAttention {
  const { [taskId]: _gone, ...tasks } = base.tasks
  void _gone
  return {
    ...base,
    failedTaskIds: base.failedTaskIds.filter((id) => id !== taskId),
    completedTaskIds: base.completedTaskIds.filter((id) => id !== taskId),
    tasks
  }
}

/** What `event` changes in a project's attention; null when it changes nothing. */
export function applyAttentionEvent(
  current: ProjectAttention | undefined,
  event: MonitorEvent
): ProjectAttention | null {
  const base: ProjectAttention = current ?? emptyAttention()
  switch (event.kind) {
    case 'task-added':
    case 'task-status': {
      const status = event.kind === 'task-added' ? event.status : event.to
      const kind = status === 'failed' ? 'failedTaskIds' : status === 'completed' ? 'completedTaskIds' : null
      const listedAs = base.failedTaskIds.includes(event.taskId)
        ? 'failedTaskIds'
        : base.completedTaskIds.includes(event.taskId)
          ? 'completedTaskIds'
          : null
      if (kind === listedAs) return null
      // Retried, or ended another way: the item the user had not seen is over.
      const cleared = listedAs === null ? base : withoutTask(base, event.taskId)
      if (kind === null) return cleared
      const { list, dropped } = push(
        cleared[kind],
        event.taskId,
        kind === 'failedTaskIds' ? MAX_FAILED_KEPT : MAX_COMPLETED_KEPT
      )
      const tasks = { ...cleared.tasks, [event.taskId]: { name: event.taskName, at: event.at } }
      for (const id of dropped) delete tasks[id]
      return { ...cleared, [kind]: list, tasks }
    }
    case 'budget':
      return event.level === 'over' && !base.budgetCrossed
        ? { ...base, budgetCrossed: true, budgetCrossedAt: event.at }
        : null
    default:
      return null
  }
}

export function attentionView(attention: ProjectAttention | undefined): AttentionView {
  return {
    failedTaskIds: attention ? [...attention.failedTaskIds] : [],
    budgetCrossed: attention?.budgetCrossed ?? false
  }
}

/** One project's unseen items, as the Now screen lists them (newest first comes later, across projects). */
export function attentionItems(
  attention: ProjectAttention | undefined,
  key: { connectionId: string; projectId: string; projectName: string }
): AttentionItem[] {
  if (!attention) return []
  const items: AttentionItem[] = []
  const task = (kind: 'failed' | 'completed', taskId: string): AttentionItem => {
    const seen = attention.tasks[taskId]
    return { kind, ...key, taskId, taskName: seen?.name ?? '', at: seen?.at ?? attention.acknowledgedAt ?? '' }
  }
  for (const id of attention.failedTaskIds) items.push(task('failed', id))
  for (const id of attention.completedTaskIds) items.push(task('completed', id))
  if (attention.budgetCrossed)
    items.push({ kind: 'budget', ...key, at: attention.budgetCrossedAt ?? attention.acknowledgedAt ?? '' })
  return items
}

/** Which unseen item(s) of a project the user saw: one task's, the budget crossing, or all of them. */
export type AttentionTarget = { taskId: string } | { budget: true } | 'all'

/** The attention of one connection's watched projects, by project id. */
export interface AttentionBook {
  /** Takes in a monitor event; true when the attention changed. */
  take(event: MonitorEvent): boolean
  /** The user saw these projects at `at`: nothing of theirs is new any more. */
  acknowledge(projectIds: readonly string[], at: Date): boolean
  /** The user saw one item (or all) of one project; the rest stays. */
  acknowledgeItem(projectId: string, target: AttentionTarget, at: Date): boolean
  /** The user opened one task: its failure or completion is seen, the rest of the project stays. */
  acknowledgeTask(projectId: string, taskId: string): boolean
  /** The project is no longer watched. */
  forget(projectId: string): void
  view(projectId: string): AttentionView
  /** The stored record of one project (for the Now screen's items). */
  get(projectId: string): ProjectAttention | undefined
  /** Resolves once every change so far is saved (or failed to be). */
  settled(): Promise<void>
}

export function createAttentionBook(
  initial: Record<string, ProjectAttention>,
  save: (book: Record<string, ProjectAttention>) => Promise<void>,
  onError: (error: unknown) => void
): AttentionBook {
  const book = new Map<string, ProjectAttention>(Object.entries(initial))
  const writer = createLatestWriter(save, onError)
  const set = (projectId: string, next: ProjectAttention): true => {
    book.set(projectId, next)
    writer.write(Object.fromEntries(book))
    return true
  }
  const isEmpty = (a: ProjectAttention): boolean =>
    a.failedTaskIds.length === 0 && a.completedTaskIds.length === 0 && !a.budgetCrossed

  function acknowledgeItem(projectId: string, target: AttentionTarget, at: Date): boolean {
    const current = book.get(projectId)
    // Looking again at nothing new writes nothing.
    if (!current || isEmpty(current)) return false
    if (target === 'all') return set(projectId, { ...emptyAttention(), acknowledgedAt: at.toISOString() })
    if ('budget' in target)
      return current.budgetCrossed ? set(projectId, { ...current, budgetCrossed: false, budgetCrossedAt: null }) : false
    const listed = current.failedTaskIds.includes(target.taskId) || current.completedTaskIds.includes(target.taskId)
    return listed ? set(projectId, withoutTask(current, target.taskId)) : false
  }

  return {
    take(event) {
      // A budget of the whole account is no one project's: the tray follows it by its state (tray/state.ts).
      if (event.projectId === null) return false
      const next = applyAttentionEvent(book.get(event.projectId), event)
      return next !== null && set(event.projectId, next)
    },
    acknowledge(projectIds, at) {
      let changed = false
      for (const projectId of projectIds) if (acknowledgeItem(projectId, 'all', at)) changed = true
      return changed
    },
    acknowledgeItem,
    acknowledgeTask: (projectId, taskId) => acknowledgeItem(projectId, { taskId }, new Date(0)),
    forget(projectId) {
      if (book.delete(projectId)) writer.write(Object.fromEntries(book))
    },
    view: (projectId) => attentionView(book.get(projectId)),
    get: (projectId) => book.get(projectId),
    settled: () => writer.settled()
  }
}
