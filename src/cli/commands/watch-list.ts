// `watch-list add|remove|list`: the projects watched on a connection, kept in the settings file the
// tray app reads too.
import { unwatchProject, watchProject } from '../../core/settings/edit'
import { findProjectId } from '../../shared/project-id'
import type { WatchedProject } from '../../shared/settings'
import { usageError } from '../cli-error'
import { type Context, printJson, resolveConnection, storeConnection, withClient } from '../context'
import { EXIT, type ExitCode } from '../exit-codes'
import { requireProjectsAccount } from '../services'
import { oneLine, renderTable } from '../table'

/** Adds a project to a connection's watch list (or refreshes its name); true when it was new. */
export async function addWatched(
  ctx: Context,
  connectionId: string,
  projectId: string,
  name: string
): Promise<boolean> {
  const store = await ctx.deps.settings()
  let added = false
  await store.update((draft) => {
    added = !(draft.watched[connectionId] ?? []).some((w) => w.projectId === projectId)
    watchProject(draft, connectionId, projectId, ctx.deps.now(), { name })
  })
  return added
}

export async function watchedProjects(ctx: Context, connectionId: string): Promise<WatchedProject[]> {
  return (await ctx.deps.settings()).read().watched[connectionId] ?? []
}

export async function watchListAdd(ctx: Context, inputs: string[]): Promise<ExitCode> {
  // An id, or a link or text that holds one: found here, and said when it was not given as is.
  const projectIds = inputs.map((input) => {
    const found = findProjectId(input)
    if (!found.ok) throw usageError(found.problem)
    if (found.from !== 'id' && !ctx.opts.json)
      ctx.io.stderr.write(`Found project id ${found.projectId} in the ${found.from}.\n`)
    return found.projectId
  })
  // Each project is fetched first: a typo must not end up watched (and failing) forever.
  return withClient(ctx, async ({ client, connection, stored }) => {
    const projects = []
    for (const id of projectIds) projects.push(await client.getProject(id))
    const connectionId = stored ? connection.id : (await storeConnection(ctx, connection)).id
    const entries: WatchedProject[] = []
    for (const project of projects) {
      const isNew = await addWatched(ctx, connectionId, project.id, project.name)
      if (!ctx.opts.json) {
        ctx.io.stdout.write(
          `${isNew ? 'Watching' : 'Already watching'} ${oneLine(project.id, 200)} (${oneLine(project.name)}).\n`
        )
      }
      const entry = (await watchedProjects(ctx, connectionId)).find((w) => w.projectId === project.id)
      if (entry) entries.push(entry)
    }
    if (ctx.opts.json) printJson(ctx, entries)
    return EXIT.ok
  })
}

export async function watchListRemove(ctx: Context, projectIds: string[]): Promise<ExitCode> {
  const { connection, stored } = await resolveConnection(ctx)
  requireProjectsAccount(connection, ctx.command)
  const before = stored ? await watchedProjects(ctx, connection.id) : []
  const unknown = projectIds.filter((id) => !before.some((w) => w.projectId === id))
  if (unknown.length > 0) throw usageError(`Not watched on ${connection.baseUrl}: ${unknown.join(', ')}.`)
  const store = await ctx.deps.settings()
  await store.update((draft) => {
    for (const id of projectIds) unwatchProject(draft, connection.id, id)
  })
  if (ctx.opts.json) printJson(ctx, { removed: projectIds })
  else for (const id of projectIds) ctx.io.stdout.write(`Stopped watching ${id}.\n`)
  return EXIT.ok
}

export async function watchListList(ctx: Context): Promise<ExitCode> {
  const { connection, stored } = await resolveConnection(ctx)
  requireProjectsAccount(connection, ctx.command)
  const list = stored ? await watchedProjects(ctx, connection.id) : []
  if (ctx.opts.json) printJson(ctx, list)
  else if (list.length === 0) ctx.io.stdout.write(`No watched projects on ${connection.baseUrl}.\n`)
  else {
    const rows = list.map((w) => [w.projectId, w.muted ? 'muted' : '', w.addedAt, w.name])
    ctx.io.stdout.write(renderTable(['PROJECT', 'MUTED', 'ADDED', 'NAME'], rows))
  }
  return EXIT.ok
}
