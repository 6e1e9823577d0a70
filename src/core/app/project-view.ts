// What the window shows of one watched project: the monitor's tasks boiled down to counts,
// latest activity and cost (the numbers come from shared/cost so every screen agrees).
import { costOnDay, localDateKey, projectCost, type TzOffset, type UsagesByTask } from '../../shared/cost'
import type { ProjectView } from '../../shared/ipc'
import type { ProjectHealth } from '../../shared/monitor'
import type { Project, Task } from '../../shared/service'
import type { WatchedProject } from '../../shared/settings'
import { isActive } from '../../shared/status'

export interface ProjectViewInput {
  watched: WatchedProject
  project: Project | null
  /** null until the monitor's first successful poll. */
  tasks: readonly Task[] | null
  health: ProjectHealth
  now: number
  /** Minutes east of UTC (or a function of the instant), for "today". */
  tz: TzOffset
  usagesByTask?: UsagesByTask
}

export function buildProjectView(input: ProjectViewInput): ProjectView {
  const tasks = input.tasks ?? []
  let running = 0
  let failed = 0
  for (const task of tasks) {
    if (isActive(task.status)) running++
    if (task.status === 'failed') failed++
  }
  const today = localDateKey(input.now, input.tz)
  return {
    watched: input.watched,
    project: input.project,
    health: input.health,
    counts: { running, failed, total: tasks.length },
    lastActivityAt: lastActivity(tasks),
    costTodayUsd: costOnDay(tasks, today, input.tz, input.usagesByTask),
    costTotalUsd: projectCost(tasks, input.usagesByTask).totalUsd
  }
}

/** The latest updated_at of any task or step; null without a readable one. */
export function lastActivity(tasks: readonly Task[]): string | null {
  let best: number | null = null
  let bestText: string | null = null
  const consider = (iso: string): void => {
    const ms = Date.parse(iso)
    if (!Number.isFinite(ms) || (best !== null && ms <= best)) return
    best = ms
    bestText = new Date(ms).toISOString()
  }
  for (const task of tasks) {
    consider(task.updated_at)
    for (const step of task.steps) consider(step.updated_at)
  }
  return bestText
}

/** Minutes east of UTC on this machine at a given instant (Date's offset is west-positive). */
export const localTz: TzOffset = (at) => -at.getTimezoneOffset()
