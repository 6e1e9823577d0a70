// The service has no "get task" endpoint: a task is found through its project's task list, the
// project given by --project or else looked for among the watched projects.
import type { Task } from '../../shared/service'
import { CliError, notFoundError } from '../cli-error'
import type { Connected, Context } from '../context'
import { EXIT } from '../exit-codes'
import { watchedProjects } from './watch-list'

export async function findTask(ctx: Context, c: Connected, taskId: string, projectId?: string): Promise<Task> {
  if (projectId !== undefined) {
    const task = (await c.client.listTasks(projectId)).find((t) => t.id === taskId)
    if (!task) throw missingTask(ctx, taskId, `Task ${taskId} is not among the tasks of project ${projectId}.`)
    return task
  }
  const found = await searchWatched(ctx, c, taskId)
  if (found) return found
  throw missingTask(ctx, taskId, `Task ${taskId} is not in any watched project: give its project with --project ID.`)
}

/** Not found (4), unless a task record was skipped as unreadable and may be this one: then invalid response (6). */
export function missingTask(ctx: Context, taskId: string, notFound: string): CliError {
  const skipped = ctx.skipped.filter((i) => i.resource === 'task')
  if (skipped.some((i) => i.id === taskId)) {
    return new CliError(
      EXIT.invalidResponse,
      `Task ${taskId} could not be read: the service sent it in a form agent-tray cannot read (see the warning).`
    )
  }
  if (skipped.some((i) => i.id === undefined)) {
    return new CliError(
      EXIT.invalidResponse,
      `${notFound} It may be one of the ${skipped.length} the service sent that could not be read (see the warnings).`
    )
  }
  return notFoundError(notFound)
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
