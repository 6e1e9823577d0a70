// The service has no "get task" endpoint: a task is found through its project's task list, the
// project given by --project or else looked for among the watched projects.
import type { Task } from '../../shared/service'
import type { Connected, Context } from '../context'
import { notFoundError } from '../errors'
import { watchedProjects } from './watch-list'

export async function findTask(ctx: Context, c: Connected, taskId: string, projectId?: string): Promise<Task> {
  if (projectId !== undefined) {
    const task = (await c.client.listTasks(projectId)).find((t) => t.id === taskId)
    if (!task) throw notFoundError(`Task ${taskId} is not among the tasks of project ${projectId}.`)
    return task
  }
  const found = await searchWatched(ctx, c, taskId)
  if (found) return found
  throw notFoundError(`Task ${taskId} is not in any watched project: give its project with --project ID.`)
}

/** The task among the watched projects' tasks; undefined when none has it (or none is watched). */
export async function searchWatched(ctx: Context, c: Connected, taskId: string): Promise<Task | undefined> {
  const watched = c.stored ? await watchedProjects(ctx, c.connection.id) : []
  for (const w of watched) {
    const task = (await c.client.listTasks(w.projectId)).find((t) => t.id === taskId)
    if (task) return task
  }
  return undefined
}
