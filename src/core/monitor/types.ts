// What the monitor needs of the service, what it tells, and how it is set up.
import type { MonitorEvent, ProjectSnapshot } from '../../shared/monitor'
import type { StepsAndUsages, Task } from '../../shared/service'
import type { PollingPrefs } from '../../shared/settings'
import type { TaskDigestsIfChanged } from '../client/digest'
import type { Clock } from '../util/clock'
import type { ScheduleOptions } from './scheduler'

/** A conditional task list: `changed: false` when the server answered 304 to the ETag sent. */
export type TasksIfChanged = { changed: true; tasks: Task[]; etag: string | null } | { changed: false }

/** What the monitor needs of the service; the service client satisfies it as is. */
export interface TaskSource {
  listTasks(projectId: string, signal?: AbortSignal): Promise<Task[]>
  /** Optional: the list only if it changed since `etag` (null: unconditionally, asking for an ETag). */
  listTasksIfChanged?(projectId: string, etag: string | null, signal?: AbortSignal): Promise<TasksIfChanged>
  /** Optional: digests for projects whose full list nobody needs (ended tasks' steps fingerprinted, not built). */
  listTaskDigestsIfChanged?(projectId: string, etag: string | null, signal?: AbortSignal): Promise<TaskDigestsIfChanged>
  getStepsAndUsages(taskId: string, signal?: AbortSignal): Promise<StepsAndUsages>
}

/** The changes of one polling round, for the notification policy to coalesce. */
export interface MonitorCycle {
  events: MonitorEvent[]
  /** The changes happened while the app was closed: announce them as one summary. */
  away: boolean
}

export interface MonitorEvents {
  /** Every change, as it is seen. */
  event: MonitorEvent
  /** The changes of a round of polls, once the round is over. */
  cycle: MonitorCycle
  /** The last seen state of this connection, whenever it changed: persist it as is. */
  state: Record<string, ProjectSnapshot>
  /** A project's list was read (after every successful poll that was not a 304); getTasks has it if kept. Its tasks' own fields, steps left out. */
  tasks: { projectId: string; tasks: readonly Omit<Task, 'steps'>[] }
  /** Fresh steps and usages of a task. */
  details: { taskId: string; details: StepsAndUsages }
}

export interface MonitorOptions {
  connectionId: string
  source: TaskSource
  /** Project ids to watch from the start. */
  projects?: ReadonlyArray<string | { projectId: string }>
  polling?: PollingPrefs
  /** This connection's part of the persisted LastSeenState. */
  initialState?: Record<string, ProjectSnapshot>
  clock?: Clock
  /** [0, 1), for jitter. */
  random?: () => number
  /** How many tasks' steps and usages to keep. */
  detailsCacheSize?: number
  /** How many projects' full task lists to keep besides the focused one's (recently loaded ones). */
  keptTaskLists?: number
  schedule?: Partial<ScheduleOptions>
}
