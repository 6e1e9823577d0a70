// What of a watched project the user has not seen yet: tasks the monitor saw fail and budgets it
// saw crossed since the user last looked. Old failures (there at the baseline, or acknowledged)
// do not count, so one failure does not pin the tray on "attention" for good. The book is kept in
// settings, so a restart neither forgets what is unseen nor brings back what was acknowledged.
import type { ProjectView } from '../../shared/ipc'
import type { MonitorEvent } from '../../shared/monitor'
import type { ProjectAttention } from '../../shared/settings'
import { createLatestWriter } from './latest-writer'

export type AttentionView = ProjectView['attention']

/** What `event` changes in a project's attention; null when it changes nothing. */
export function applyAttentionEvent(current: ProjectAttention | undefined, event: MonitorEvent): ProjectAttention | null {
  const base: ProjectAttention = current ?? { acknowledgedAt: null, failedTaskIds: [], budgetCrossed: false }
  switch (event.kind) {
    case 'task-added':
    case 'task-status': {
      const status = event.kind === 'task-added' ? event.status : event.to
      const listed = base.failedTaskIds.includes(event.taskId)
      if (status === 'failed' && !listed) return { ...base, failedTaskIds: [...base.failedTaskIds, event.taskId] }
      // Retried: the failure the user had not seen is over.
      if (status !== 'failed' && listed) return { ...base, failedTaskIds: base.failedTaskIds.filter((id) => id !== event.taskId) }
      return null
    }
    case 'budget':
      return event.level === 'over' && !base.budgetCrossed ? { ...base, budgetCrossed: true } : null
    default:
      return null
  }
}

export function attentionView(attention: ProjectAttention | undefined): AttentionView {
  return { failedTaskIds: attention ? [...attention.failedTaskIds] : [], budgetCrossed: attention?.budgetCrossed ?? false }
}

/** The attention of one connection's watched projects, by project id. */
export interface AttentionBook {
  /** Takes in a monitor event; true when the attention changed. */
  take(event: MonitorEvent): boolean
  /** The user saw these projects at `at`: nothing of theirs is new any more. */
  acknowledge(projectIds: readonly string[], at: Date): boolean
  /** The user opened one task: its failure is seen, the rest of the project stays. */
  acknowledgeTask(projectId: string, taskId: string): boolean
  /** The project is no longer watched. */
  forget(projectId: string): void
  view(projectId: string): AttentionView
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
  return {
    take(event) {
      const next = applyAttentionEvent(book.get(event.projectId), event)
      return next !== null && set(event.projectId, next)
    },
    acknowledge(projectIds, at) {
      let changed = false
      for (const projectId of projectIds) {
        const current = book.get(projectId)
        // Looking again at nothing new writes nothing.
        if (!current || (current.failedTaskIds.length === 0 && !current.budgetCrossed)) continue
        changed = set(projectId, { acknowledgedAt: at.toISOString(), failedTaskIds: [], budgetCrossed: false })
      }
      return changed
    },
    acknowledgeTask(projectId, taskId) {
      const current = book.get(projectId)
      if (!current || !current.failedTaskIds.includes(taskId)) return false
      return set(projectId, { ...current, failedTaskIds: current.failedTaskIds.filter((id) => id !== taskId) })
    },
    forget(projectId) {
      if (book.delete(projectId)) writer.write(Object.fromEntries(book))
    },
    view: (projectId) => attentionView(book.get(projectId)),
    settled: () => writer.settled()
  }
}
