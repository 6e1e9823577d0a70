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

/** Drops projects no longer watched (on any connection), so an unwatched project's tasks leave the menu. */
export function keepWatched(
  tasks: TrayTasks,
  watched: readonly { connectionId: string; projectId: string }[]
): TrayTasks {
  const wanted = new Set(watched.map((w) => `${w.connectionId}\u0000${w.projectId}`))
  let changed = false
  const kept: Record<string, Record<string, Readonly<Record<string, TrayTask>>>> = {}
  for (const [connectionId, byProject] of Object.entries(tasks)) {
    for (const [projectId, byTask] of Object.entries(byProject)) {
      if (wanted.has(`${connectionId}\u0000${projectId}`)) (kept[connectionId] ??= {})[projectId] = byTask
      else changed = true
    }
  }
  return changed ? kept : tasks
}

export function tasksOf(tasks: TrayTasks, connectionId: string, projectId: string): TrayTask[] {
  return Object.values(tasks[connectionId]?.[projectId] ?? {})
}
