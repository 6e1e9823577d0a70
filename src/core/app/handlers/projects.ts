// Projects, on the connection a request names, else the one watching the project, else the active one.
import { deepLinkUrl } from '../../../shared/deep-link'
import { checkPublishHostname, publishingDomainProblem } from '../../../shared/hostname'
import type { Handlers } from '../../../shared/ipc'
import type { Project } from '../../../shared/service'
import type { WatchedProject } from '../../../shared/settings'
import { newWatchedProject } from '../../../shared/watched-project'
import { isServiceError, ServiceError } from '../../client/service-error'
import { setProjectTotalBudget } from '../../settings/budget-edit'
import { unwatchProject } from '../../settings/edit'
import { invalidArgument } from '../app-error'
import type { AppContext } from '../context'
import type { OpenConnection } from '../session'
import { newBudgetId } from './budgets'

type ProjectHandlers = Pick<
  Handlers,
  | 'project:get'
  | 'project:create'
  | 'project:update'
  | 'project:watch'
  | 'project:unwatch'
  | 'project:set-watch-options'
  | 'project:publish'
  | 'product:projects'
>

export function projectHandlers(ctx: AppContext): ProjectHandlers {
  const { session } = ctx
  const watchedOf = (connectionId: string): WatchedProject[] => ctx.settings().watched[connectionId] ?? []
  const isWatched = (open: OpenConnection, projectId: string): boolean =>
    watchedOf(open.connection.id).some((w) => w.projectId === projectId)

  /** A project just fetched: kept when it is watched (its name may have changed). */
  function seen(open: OpenConnection, project: Project): Project {
    if (session.get(open.connection.id) === open && isWatched(open, project.id)) session.rememberProject(open, project)
    return project
  }

  async function addWatched(open: OpenConnection, project: Project): Promise<WatchedProject> {
    const connectionId = open.connection.id
    const existing = watchedOf(connectionId).find((w) => w.projectId === project.id)
    if (existing) return existing
    const watched = newWatchedProject(project.id, new Date(ctx.clock.now()), {
      name: project.name,
      softwareProductId: project.software_product_id
    })
    await ctx.update((draft) => {
      const list = (draft.watched[connectionId] ??= [])
      if (!list.some((w) => w.projectId === project.id)) list.push(watched)
    })
    session.watch(open, watched, project)
    return watched
  }

  return {
    'project:get': async ({ connectionId, projectId }) => {
      const open = session.resolve({ connectionId, projectId })
      return seen(open, await open.client.getProject(projectId))
    },
    'project:create': async ({ connectionId, project, watch, returnToApp }) => {
      const open = session.resolve({ connectionId })
      let created = await open.client.createProject(project)
      // The link needs the project's id, so it is set right after: the prebuilt interface then
      // sends the user back to this app, on this project.
      if (returnToApp && !project.return_url)
        created = await open.client.updateProject(created.id, { return_url: deepLinkUrl(created.id) })
      if (watch) await addWatched(open, created)
      return created
    },
    'project:update': async ({ connectionId, projectId, update }) => {
      const open = session.resolve({ connectionId, projectId })
      return seen(open, await open.client.updateProject(projectId, update))
    },
    'project:watch': async ({ connectionId, projectId }) => {
      const open = session.resolve({ connectionId })
      let project: Project
      try {
        project = await open.client.getProject(projectId)
      } catch (error) {
        if (isServiceError(error) && error.kind === 'not_found') {
          throw new ServiceError(
            'not_found',
            `There is no project "${projectId}" on ${open.connection.name}: check the id.`,
            { status: 404 }
          )
        }
        throw error
      }
      return addWatched(open, project)
    },
    'project:unwatch': async ({ connectionId: named, projectId }) => {
      // Works on a closed connection too (no key, or a refused address): only settings change.
      const settings = ctx.settings()
      const connectionId =
        named ??
        settings.connections.find((c) => (settings.watched[c.id] ?? []).some((w) => w.projectId === projectId))?.id ??
        settings.activeConnectionId
      if (connectionId === null) throw invalidArgument('No service connection is set up yet: add one in Settings.')
      await ctx.update((draft) => {
        unwatchProject(draft, connectionId, projectId)
      })
      session.unwatch(connectionId, projectId)
      ctx.changed()
    },
    'project:set-watch-options': async ({ connectionId: named, projectId, muted, budgetUsd }) => {
      const open = session.resolve({ connectionId: named, projectId })
      const connectionId = open.connection.id
      if (!isWatched(open, projectId)) throw invalidArgument(`Project "${projectId}" is not watched.`)
      const saved = await ctx.update((draft) => {
        const w = draft.watched[connectionId]?.find((x) => x.projectId === projectId)
        if (!w) return
        if (muted !== undefined) w.muted = muted
        if (budgetUsd !== undefined)
          setProjectTotalBudget(draft, connectionId, projectId, budgetUsd, () => newBudgetId(ctx.random))
      })
      const watched = saved.watched[connectionId]?.find((w) => w.projectId === projectId)
      if (!watched) throw invalidArgument(`Project "${projectId}" is not watched.`)
      if (budgetUsd !== undefined && session.get(connectionId) === open) ctx.checkBudgets(open)
      ctx.changed()
      return watched
    },
    'project:publish': async ({ connectionId, projectId, hostname }) => {
      const open = session.resolve({ connectionId, projectId })
      // From the settings, not the open connection: a domain learnt since it opened counts at once.
      const domain =
        ctx.settings().connections.find((c) => c.id === open.connection.id)?.publishingDomain ??
        open.connection.publishingDomain
      if (domain !== '') {
        const reasons = checkPublishHostname(hostname, domain)
        if (reasons.length > 0) throw invalidArgument(reasons.join(' '))
      }
      const result = await open.client.publish(projectId, hostname)
      // The publishing domain is not public: the first success tells it, so later names are checked.
      const learned = hostname.toLowerCase().split('.').slice(1).join('.')
      if (domain === '' && result.status === 'success' && publishingDomainProblem(learned) === null) {
        await ctx.update((draft) => {
          const c = draft.connections.find((x) => x.id === open.connection.id)
          if (c && c.publishingDomain === '') c.publishingDomain = learned
        })
        ctx.changed()
      }
      return result
    },
    'product:projects': async ({ connectionId, productId, order }) =>
      session.resolve({ connectionId }).client.listProductProjects(productId, order)
  }
}
