// The Now screen's data: across every open connection and watched project, the unseen items
// (core/app/attention.ts) newest first, and the tasks running now with their progress.
import type { AttentionItem, NowView, RunningTaskView } from '../../shared/ipc'
import type { Task } from '../../shared/service'
import type { WatchedProject } from '../../shared/settings'
import { isActive } from '../../shared/status'
import { stepCount, summarizeTask } from '../../shared/task-summary'
import { projectDisplayName } from '../../shared/watched-project'
import { attentionItems } from './attention'
import type { OpenConnection } from './session'

const timeOf = (iso: string): number => {
  const t = Date.parse(iso)
  return Number.isNaN(t) ? 0 : t
}

/** Newest first; ties in a stable order by project, then task. */
export function newestFirst<T extends { at: string; projectId: string; taskId?: string }>(items: readonly T[]): T[] {
  return [...items].sort(
    (a, b) => timeOf(b.at) - timeOf(a.at) || a.projectId.localeCompare(b.projectId) || (a.taskId ?? '').localeCompare(b.taskId ?? '')
  )
}

/** A running task as the Now screen shows it: steps done of all, the current step, cost and start. */
export function runningTaskView(task: Task, key: { connectionId: string; projectId: string; projectName: string }): RunningTaskView {
  const summary = summarizeTask(task)
  return {
    ...key,
    taskId: task.id,
    name: task.name,
    status: task.status,
    stepsDone: summary.step_counts.completed ?? 0,
    stepsTotal: stepCount(summary),
    currentStep: summary.last_step?.name ?? null,
    costUsd: task.total_price,
    startedAt: task.created_at
  }
}

export async function buildNowView(connections: readonly OpenConnection[], watchedOf: (connectionId: string) => WatchedProject[]): Promise<NowView> {
  const items: AttentionItem[] = []
  const running: RunningTaskView[] = []
  for (const open of connections) {
    const connectionId = open.connection.id
    const lists: Promise<void>[] = []
    for (const watched of watchedOf(connectionId)) {
      const projectId = watched.projectId
      const key = { connectionId, projectId, projectName: projectDisplayName(watched, open.projects.get(projectId)) }
      items.push(...attentionItems(open.attention.get(projectId), key))
      // Only projects the monitor saw running are listed: the others cost no request.
      if ((open.monitor.getSummary(projectId)?.running ?? 0) === 0) continue
      lists.push(
        open.monitor.loadTasks(projectId).then(
          (tasks) => void running.push(...tasks.filter((t) => isActive(t.status)).map((t) => runningTaskView(t, key))),
          // The project's health already tells why its list could not be read.
          () => undefined
        )
      )
    }
    await Promise.all(lists)
  }
  return {
    items: newestFirst(items),
    running: [...running].sort((a, b) => timeOf(b.startedAt) - timeOf(a.startedAt) || a.taskId.localeCompare(b.taskId))
  }
}
