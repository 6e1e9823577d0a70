// The Now screen's data: across every open connection and watched project, the unseen items
// (core/app/attention.ts) newest first, and the tasks running now with their progress.
import type { AttentionItem, NowView, RunningTaskView } from '../../shared/ipc'
import type { Task, TaskStep } from '../../shared/service'
import type { WatchedProject } from '../../shared/settings'
import { isActive } from '../../shared/status'
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
    (a, b) =>
      timeOf(b.at) - timeOf(a.at) ||
      a.projectId.localeCompare(b.projectId) ||
      (a.taskId ?? '').localeCompare(b.taskId ?? '')
  )
}

/** The running step (newest when several run), else the last updated, with its 1-based number in start order. */
export function currentStep(steps: readonly TaskStep[]): RunningTaskView['currentStep'] {
  const ordered = inStartOrder(steps)
  let index = -1
  for (let i = 0; i < ordered.length; i++) {
    if (ordered[i]!.status === 'in_progress') index = i
  }
  if (index === -1) {
    for (let i = 0; i < ordered.length; i++) {
      if (index === -1 || timeOf(ordered[i]!.updated_at) >= timeOf(ordered[index]!.updated_at)) index = i
    }
  }
  const step = ordered[index]
  return step === undefined ? null : { name: step.name, number: index + 1, startedAt: step.created_at }
}

/** The failed step (last when several failed), else the last started, with its 1-based number in start order. */
export function failedStep(steps: readonly TaskStep[]): { name: string; number: number } | null {
  const ordered = inStartOrder(steps)
  let index = -1
  for (let i = 0; i < ordered.length; i++) if (ordered[i]!.status === 'failed') index = i
  if (index === -1) index = ordered.length - 1
  const step = ordered[index]
  return step === undefined ? null : { name: step.name, number: index + 1 }
}

const inStartOrder = (steps: readonly TaskStep[]): TaskStep[] =>
  [...steps].sort((a, b) => timeOf(a.created_at) - timeOf(b.created_at))

/** A running task as the Now screen shows it: the step it is on, cost and start. */
export function runningTaskView(
  task: Task,
  key: { connectionId: string; projectId: string; projectName: string }
): RunningTaskView {
  return {
    ...key,
    taskId: task.id,
    name: task.name,
    status: task.status,
    currentStep: currentStep(Array.isArray(task.steps) ? task.steps : []),
    costUsd: task.total_price,
    startedAt: task.created_at
  }
}

export async function buildNowView(
  connections: readonly OpenConnection[],
  watchedOf: (connectionId: string) => WatchedProject[]
): Promise<NowView> {
  const items: AttentionItem[] = []
  const runningTasks: RunningTaskView[] = []
  for (const open of connections) {
    const connectionId = open.connection.id
    const lists: Promise<void>[] = []
    for (const watched of watchedOf(connectionId)) {
      const projectId = watched.projectId
      const key = { connectionId, projectId, projectName: projectDisplayName(watched, open.projects.get(projectId)) }
      const unseen = attentionItems(open.attention.get(projectId), key)
      items.push(...unseen)
      const failed = unseen.filter((item) => item.kind === 'failed')
      const isRunning = (open.monitor.getSummary(projectId)?.running ?? 0) > 0
      // Only projects with something running or an unseen failure cost a request (a kept list costs none).
      if (!isRunning && failed.length === 0) continue
      lists.push(
        open.monitor.loadTasks(projectId).then(
          (tasks) => {
            if (isRunning)
              runningTasks.push(...tasks.filter((t) => isActive(t.status)).map((t) => runningTaskView(t, key)))
            for (const item of failed) {
              const task = tasks.find((t) => t.id === item.taskId)
              const step = task && Array.isArray(task.steps) ? failedStep(task.steps) : null
              if (step) item.failedStep = step
            }
          },
          // The project's health already tells why its list could not be read.
          () => undefined
        )
      )
    }
    await Promise.all(lists)
  }
  return {
    items: newestFirst(items),
    running: [...runningTasks].sort(
      (a, b) => timeOf(b.startedAt) - timeOf(a.startedAt) || a.taskId.localeCompare(b.taskId)
    )
  }
}
