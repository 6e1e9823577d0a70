// One watched project as the window shows it. Figures equal shared/cost's for the full list, so every screen agrees.
import type { TzOffset, UsagesByTask } from '../../shared/cost'
import type { ProjectView } from '../../shared/ipc'
import type { ProjectHealth } from '../../shared/monitor'
import type { Project, Task } from '../../shared/service'
import type { WatchedProject } from '../../shared/settings'
import { EMPTY_SUMMARY, type ProjectSummary, summarizeTasks, summaryCost, summaryCostToday } from '../monitor/summary'

export interface ProjectViewInput {
  connectionId: string
  watched: WatchedProject
  project: Project | null
  /** The monitor's summary of the project's tasks; null until its first successful poll. */
  summary?: ProjectSummary | null
  /** A full task list instead of a summary (tests, one-off views). */
  tasks?: readonly Task[] | null
  health: ProjectHealth
  now: number
  /** Minutes east of UTC (or a function of the instant), for "today". */
  tz: TzOffset
  usagesByTask?: UsagesByTask
  /** What the user has not seen yet (core/app/attention); nothing when absent. */
  attention?: ProjectView['attention']
  /** The limit of the project's total budget, when it has one. */
  budgetUsd?: number | null
}

export function buildProjectView(input: ProjectViewInput): ProjectView {
  const summary = input.summary ?? (input.tasks ? summarizeTasks(input.tasks) : EMPTY_SUMMARY)
  return {
    connectionId: input.connectionId,
    watched: input.watched,
    project: input.project,
    health: input.health,
    counts: { running: summary.running, failed: summary.failed, total: summary.total },
    lastActivityAt: summary.lastActivityAt,
    costTodayUsd: summaryCostToday(summary, input.now, input.tz, input.usagesByTask),
    costTotalUsd: summaryCost(summary, input.usagesByTask).totalUsd,
    budgetUsd: input.budgetUsd ?? null,
    attention: input.attention ?? { failedTaskIds: [], budgetCrossed: false }
  }
}

/** The latest updated_at of any task or step; null without a readable one. */
export function lastActivity(tasks: readonly Task[]): string | null {
  return summarizeTasks(tasks).lastActivityAt
}

/** Minutes east of UTC on this machine at a given instant (Date's offset is west-positive). */
export const localTz: TzOffset = (at) => -at.getTimezoneOffset()
