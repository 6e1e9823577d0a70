// What a cost report is made from on one connection: the tasks of its projects that can have cost
// in the range, with the usage records known for them (see usage-store.ts).
import type { TzOffset } from '../../shared/cost'
import { periodKey } from '../../shared/cost-period'
import type { CostRange } from '../../shared/cost-range'
import type { CostReportTask } from '../../shared/cost-report'
import type { Task } from '../../shared/service'
import type { UsageStore } from './usage-store'

export interface ProjectTasks {
  projectId: string
  projectName: string
  tasks: readonly Task[]
}

/** A task's calls fall between its creation and its last change, so outside that it has no cost in the range. */
export function touchesRange(task: Pick<Task, 'created_at' | 'updated_at'>, range: CostRange, tz: TzOffset): boolean {
  // A time that cannot be read excludes nothing: the task's cost is not dropped unseen.
  const created = periodKey(task.created_at, tz, 'day') ?? range.until
  const updated = periodKey(task.updated_at, tz, 'day') ?? range.since
  return created <= range.until && updated >= range.since
}

/** The tasks that can have cost in the range. */
export function tasksInRange(projects: readonly ProjectTasks[], range: CostRange, tz: TzOffset): Task[] {
  return projects.flatMap((p) => p.tasks.filter((t) => touchesRange(t, range, tz)))
}

/** The report's input: each task in range with its known records (undefined: none fetched yet). */
export function reportTasks(
  connectionId: string,
  projects: readonly ProjectTasks[],
  store: UsageStore | null,
  range: CostRange,
  tz: TzOffset
): CostReportTask[] {
  return projects.flatMap((p) =>
    p.tasks
      .filter((t) => touchesRange(t, range, tz))
      .map((task) => ({
        projectId: p.projectId,
        projectName: p.projectName,
        task,
        usages: store?.usages(connectionId, task.id)
      }))
  )
}
