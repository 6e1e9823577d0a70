// The tasks the tray menu lists. The app state only carries counts per project, so the tray keeps
// its own small view of task names and statuses, fed by the monitor's events.
import type { MonitorEvent } from '../../shared/monitor'
import type { TaskStatus, Unknown } from '../../shared/service'

export interface TrayTask {
  taskId: string
  name: string
  status: TaskStatus | Unknown
}

/** connection id -> project id -> task id -> task. Immutable: each update returns a new value. */
export type TrayTasks = Readonly<Record<string, Readonly<Record<string, Readonly<Record<string, TrayTask>>>>>>

export function applyMonitorEvent(tasks: TrayTasks, event: MonitorEvent): TrayTasks {
  if (event.kind !== 'task-added' && event.kind !== 'task-status') return tasks
  const status = event.kind === 'task-added' ? event.status : event.to
  const byProject = tasks[event.connectionId] ?? {}
  const byTask = byProject[event.projectId] ?? {}
  const prev = byTask[event.taskId]
  if (prev && prev.status === status && prev.name === event.taskName) return tasks
  return {
    ...tasks,
    [event.connectionId]: {
      ...byProject,
      [event.projectId]: { ...byTask, [event.taskId]: { taskId: event.taskId, name: event.taskName, status } }
    }
  }
}

/** Drops projects no longer watched, so an unwatched project's tasks leave the menu. */
export function keepWatched(tasks: TrayTasks, connectionId: string, projectIds: readonly string[]): TrayTasks {
  const byProject = tasks[connectionId]
  if (!byProject) return tasks
  const kept = Object.fromEntries(Object.entries(byProject).filter(([id]) => projectIds.includes(id)))
  if (Object.keys(kept).length === Object.keys(byProject).length) return tasks
  return { ...tasks, [connectionId]: kept }
}

export function tasksOf(tasks: TrayTasks, connectionId: string | null, projectId: string): TrayTask[] {
  if (connectionId === null) return []
  return Object.values(tasks[connectionId]?.[projectId] ?? {})
}
