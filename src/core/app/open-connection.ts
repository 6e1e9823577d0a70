// One open connection: client, monitor, last seen state (written before a round is told), attention, spend, projects.
import type { EventContract } from '../../shared/ipc'
import type { ProjectSnapshot } from '../../shared/monitor'
import type { Project, Task } from '../../shared/service'
import type { Connection, ProjectAttention, Settings } from '../../shared/settings'
import { SpendBook } from '../budgets/spend-book'
import { createServiceClient } from '../client'
import type { ServiceClient } from '../client/client'
import type { InvalidRecordIssue } from '../client/parse'
import { inBackgroundWindow } from '../costs/background-window'
import type { UsageFetcher } from '../costs/usage-fetcher'
import type { UsageStore } from '../costs/usage-store'
import { Monitor, type MonitorCycle, type TaskSource } from '../monitor/monitor'
import { type AgentRound } from '../providers/board'
import type { KeyCustody } from '../secrets/custody'
import type { Clock } from '../util/clock'
import type { Emitter } from '../util/emitter'
import type { Limiter } from '../util/limiter'
import { type AttentionBook, createAttentionBook } from './attention'
import { createLatestWriter, type LatestWriter } from './latest-writer'
import type { AppClientOptions, ControllerPorts } from './ports'

export interface OpenConnection {
  /** Name and publishing domain may change while it stays open; its base URL and key may not. */
  connection: Connection
  readonly client: ServiceClient
  readonly monitor: Monitor
  /** Failures and budget crossings of its projects the user has not seen yet. */
  readonly attention: AttentionBook
  /** Its projects as last fetched (GET /projects/{id}). */
  readonly projects: Map<string, Project>
  /** What its budgets read of its projects' tasks (core/budgets). */
  readonly spend: SpendBook
}

export interface Opened extends OpenConnection {
  readonly lastSeen: LatestWriter<Record<string, ProjectSnapshot>>
  readonly projectFetches: Set<string>
  readonly unsubscribe: (() => void)[]
  /** The last round's announcement; rounds are told in order, so it settles after every earlier one. */
  told: Promise<void>
}

/** What the session is given of the controller's context (AppContext extends it). */
export interface SessionContext {
  readonly ports: ControllerPorts
  /** The keys, each sent only to the origin it was given for. */
  readonly keys: KeyCustody
  readonly clock: Clock
  readonly random: () => number
  /** A locked settings write; a change the rules refuse becomes the app's invalid_argument. */
  update(mutate: (draft: Settings) => void): Promise<Settings>
  /** Something the window shows changed: an 'app:state' push follows (coalesced). */
  changed(): void
  reportError(context: string, error: unknown): void
  readonly events: Emitter<EventContract>
}

/** The usage records known for cost reports, and the polite fetcher of missing ones. */
export interface SessionUsages {
  readonly store: UsageStore
  readonly fetcher: UsageFetcher
}

/** What the controller wants told of every open connection. */
export interface SessionHooks {
  onCycle(open: OpenConnection, cycle: MonitorCycle): void
  onInvalidRecord(issue: InvalidRecordIssue): void
  /** An agent account's news, once the seen state that holds it is saved. */
  onAgentRound(connectionId: string, round: AgentRound): void
  /** An agent account was polled (or something it shows changed): its costs may have moved. */
  onAgentChange(connectionId: string): void
}

export interface OpenEnv extends SessionHooks {
  readonly ctx: SessionContext
  readonly limiter: Limiter
  /** Whether `owner` is still the open one for its id (not closed or reopened since). */
  isCurrent(owner: Opened): boolean
  usages(): SessionUsages | null
}

export function openConnection(env: OpenEnv, connection: Connection, apiKey: string): Opened {
  const { ctx } = env
  const settings = ctx.ports.settings.read()
  const connectionId = connection.id
  const client = newClient(ctx.ports, connection, apiKey, { onInvalidRecord: (issue) => env.onInvalidRecord(issue) })
  const monitor = new Monitor({
    connectionId,
    source: limited(client, env.limiter),
    projects: (settings.watched[connectionId] ?? []).map((w) => w.projectId),
    polling: settings.polling,
    initialState: ctx.ports.settings.readLastSeen()[connectionId] ?? {},
    clock: ctx.clock,
    random: ctx.random
  })
  const lastSeen = createLatestWriter(
    (state: Record<string, ProjectSnapshot>) => ctx.ports.settings.writeLastSeen(connectionId, state),
    (e) => ctx.reportError('saving the last seen state', e)
  )
  const attention = createAttentionBook(
    settings.attention[connectionId] ?? {},
    (book) => saveAttention(ctx, connectionId, book),
    (e) => ctx.reportError('saving what needs attention', e)
  )
  const spend = new SpendBook()
  const next: Opened = {
    connection,
    client,
    monitor,
    lastSeen,
    attention,
    spend,
    projects: new Map(),
    projectFetches: new Set(),
    unsubscribe: [],
    told: Promise.resolve()
  }
  next.unsubscribe.push(
    monitor.on('event', (event) => {
      attention.take(event)
      ctx.events.emit('monitor:event', event)
      ctx.changed()
    }),
    // Told once what was seen is written: a crash before the write repeats nothing on the next
    // start (the changes are told then, as 'While you were away'), one after it has nothing to repeat.
    monitor.on('cycle', (cycle) => {
      next.told = lastSeen
        .settled()
        .then(() => env.onCycle(next, cycle))
        .catch((e: unknown) => ctx.reportError('telling a round of changes', e))
    }),
    monitor.on('state', (state) => lastSeen.write(state)),
    monitor.on('tasks', ({ projectId, tasks }) => {
      spend.takeTasks(projectId, tasks, ctx.clock.now(), monitor.usagesByTask())
      fetchProjectOnce(env, next, projectId)
      fetchUsagesInBackground(env, connectionId, tasks)
      ctx.changed()
    }),
    monitor.on('details', ({ taskId, details }) => {
      // What the monitor fetched anyway is not downloaded again for cost reports.
      env.usages()?.store.offerDetails(connectionId, taskId, details.usages)
      ctx.changed()
    })
  )
  for (const w of settings.watched[connectionId] ?? []) fetchProjectOnce(env, next, w.projectId)
  return next
}

/** A client for a connection: the one the ports create, else the real service client. */
export function newClient(
  ports: Pick<ControllerPorts, 'createClient'>,
  connection: Connection,
  apiKey: string,
  options?: AppClientOptions
): ServiceClient {
  if (ports.createClient) return ports.createClient(connection, apiKey, options)
  return createServiceClient({ ...options, baseUrl: connection.baseUrl, apiKey })
}

/** Stops its monitor and writes what it saw last; resolves once its last round is told. */
export async function closeConnection(current: Opened, reportError: SessionContext['reportError']): Promise<void> {
  for (const off of current.unsubscribe) off()
  current.lastSeen.write(current.monitor.snapshot())
  current.monitor.dispose()
  await current.lastSeen.settled()
  await current.told
  await current.attention.settled()
  await current.client.close().catch((e: unknown) => reportError('closing the service client', e))
}

/** Keeps a fetched project, and its name (and product) for a watched one in the settings. */
export function rememberProject(ctx: SessionContext, open: OpenConnection, project: Project): void {
  open.projects.set(project.id, project)
  ctx.changed()
  const connectionId = open.connection.id
  const watched = ctx.ports.settings.read().watched[connectionId]?.find((w) => w.projectId === project.id)
  const product = project.software_product_id || undefined
  if (watched && (watched.name !== project.name || watched.softwareProductId !== product)) {
    void ctx
      .update((draft) => {
        const w = draft.watched[connectionId]?.find((x) => x.projectId === project.id)
        if (!w) return
        w.name = project.name
        if (product === undefined) delete w.softwareProductId
        else w.softwareProductId = product
      })
      .then(ctx.changed)
      .catch((e: unknown) => ctx.reportError('saving a project name', e))
  }
}

/** The records of recently changed tasks, so this and last month's costs are by day, not estimates. */
function fetchUsagesInBackground(env: OpenEnv, connectionId: string, tasks: readonly Omit<Task, 'steps'>[]): void {
  const usages = env.usages()
  if (!usages) return
  usages.store.noteTasks(connectionId, tasks)
  const nowMs = env.ctx.clock.now()
  const recent = tasks.filter((t) => inBackgroundWindow(t, nowMs))
  void usages.fetcher.ensure(connectionId, recent).then((p) => p.done > 0 && env.ctx.changed())
}

async function saveAttention(
  ctx: SessionContext,
  connectionId: string,
  book: Record<string, ProjectAttention>
): Promise<void> {
  await ctx.update((draft) => {
    // Kept for watched projects of a connection that still exists only.
    const watched = draft.watched[connectionId]
    if (!watched) return
    const ids = new Set(watched.map((w) => w.projectId))
    draft.attention[connectionId] = Object.fromEntries(Object.entries(book).filter(([projectId]) => ids.has(projectId)))
  })
}

/** Fills the project cache (and the remembered name) after the first poll of a project. */
function fetchProjectOnce(env: OpenEnv, owner: Opened, projectId: string): void {
  if (owner.projects.has(projectId) || owner.projectFetches.has(projectId)) return
  owner.projectFetches.add(projectId)
  // Not kept if unwatched meanwhile; on failure (the poll's health says why) a later poll tries again.
  const remember = (project: Project): void => {
    if (env.isCurrent(owner) && owner.monitor.isWatched(projectId)) rememberProject(env.ctx, owner, project)
  }
  owner.client
    .getProject(projectId)
    .then(remember, () => undefined)
    .finally(() => owner.projectFetches.delete(projectId))
}

/** The client as the monitor's source, each request inside the shared concurrency limit. */
function limited(client: ServiceClient, limiter: Limiter): TaskSource {
  return {
    listTasks: (projectId, signal) => limiter.run(() => client.listTasks(projectId, signal)),
    listTasksIfChanged: (projectId, etag, signal) =>
      limiter.run(() => client.listTasksIfChanged(projectId, etag, signal)),
    listTaskDigestsIfChanged: (projectId, etag, signal) =>
      limiter.run(() => client.listTaskDigestsIfChanged(projectId, etag, signal)),
    getStepsAndUsages: (taskId, signal) => limiter.run(() => client.getStepsAndUsages(taskId, signal))
  }
}
