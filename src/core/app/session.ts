// Every connection with a key is open at once, all sharing one concurrency limit. Whatever outlives a connection is
// stored, never kept here alone.
import path from 'node:path'
import { keyTransportProblem } from '../../shared/base-url'
import type { Project } from '../../shared/service'
import type { Connection, PollingPrefs, Settings, WatchedProject } from '../../shared/settings'
import { createUsageFetcher } from '../costs/usage-fetcher'
import { openUsageStore } from '../costs/usage-store'
import { isAgentService, unknownServiceProblem } from '../providers/registry'
import { KeyNotSentError } from '../secrets/custody'
import { createLimiter, type Limiter } from '../util/limiter'
import { invalidArgument } from './app-error'
import { type OpenAgent, openAgent } from './open-agent'
import {
  closeConnection,
  type OpenConnection,
  openConnection,
  type Opened,
  rememberProject,
  type SessionContext,
  type SessionHooks,
  type SessionUsages
} from './open-connection'

export type { OpenAgent } from './open-agent'
export type { OpenConnection, SessionUsages } from './open-connection'

export interface Session {
  /** Learns which connections have a key, then opens them. */
  start(): Promise<void>
  /** Closes every connection, writing what each saw last; the session cannot start again. */
  stop(): Promise<void>
  /** Opens the stored connections and closes the rest; `reopen` rebuilds one (a new address or key). */
  sync(options?: { reopen?: string }): Promise<void>
  /** Resolves once every round of changes seen so far is told (each after its last seen state is written). */
  told(): Promise<void>
  /** Runs connection changes one at a time. */
  exclusive<T>(work: () => Promise<T>): Promise<T>
  get(connectionId: string): OpenConnection | undefined
  /** The active connection, when open. */
  active(): OpenConnection | null
  /** The active connection, or an invalid_argument saying what is missing. */
  requireActive(): OpenConnection
  /** The connection a request is about: the one named, else the one watching the project (or knowing the task), else
   * the active one; invalid_argument when it is not open. */
  resolve(target: {
    connectionId?: string | undefined
    projectId?: string | undefined
    taskId?: string | undefined
  }): OpenConnection
  /** New polling preferences for every monitor, and the shared concurrency limit. */
  setPolling(polling: PollingPrefs): void
  open(): OpenConnection[]
  hasKey(connectionId: string): boolean
  keyStored(connectionId: string, stored: boolean): void
  /** Why a connection's stored key is not used (its address changed since the key was given), or null. */
  keyProblem(connectionId: string): string | null
  /** Whether polling may run: online and awake. */
  setRunning(conditions: { online?: boolean; suspended?: boolean }): void
  readonly paused: boolean
  /** Keeps a fetched project (and its name, for a watched one). */
  rememberProject(open: OpenConnection, project: Project): void
  /** A project is watched (now) or no longer. */
  watch(open: OpenConnection, watched: WatchedProject, project?: Project): void
  unwatch(connectionId: string, projectId: string): void
  /** Usage records for cost reports, once started (null without a cache). */
  usages(): SessionUsages | null
  /** The open accounts of agent services (core/providers), each polled by its own watch. */
  agents(): OpenAgent[]
  /** An open agent account, or an invalid_argument saying why it is not. */
  requireAgent(connectionId: string): OpenAgent
  agent(connectionId: string): OpenAgent | undefined
}

export function createSession(ctx: SessionContext, hooks: SessionHooks): Session {
  const opened = new Map<string, Opened>()
  const agents = new Map<string, OpenAgent>()
  const limiter: Limiter = createLimiter(ctx.ports.settings.read().polling.maxConcurrency)
  const keyKnown = new Map<string, boolean>()
  const keyProblems = new Map<string, string>()
  let started = false
  let stopped = false
  let online = true
  let suspended = false
  let serial: Promise<unknown> = Promise.resolve()
  let usages: SessionUsages | null = null
  const env = {
    ...hooks,
    ctx,
    limiter,
    isCurrent: (o: Opened) => opened.get(o.connection.id) === o,
    usages: () => usages
  }

  const settingsNow = (): Settings => ctx.ports.settings.read()
  const shouldRun = (): boolean => started && !stopped && online && !suspended

  async function close(current: Opened): Promise<void> {
    opened.delete(current.connection.id)
    await closeConnection(current, ctx.reportError)
  }

  async function closeAgent(current: OpenAgent): Promise<void> {
    agents.delete(current.connection.id)
    await current.watch.close()
  }

  async function open(connection: Connection): Promise<void> {
    // A stored connection that would send its key in clear text, or of a service this version does not know (never
    // taken for Workser's), stays closed: its key is not even read.
    if (keyTransportProblem(connection.baseUrl) !== null || unknownServiceProblem(connection.service) !== null) return
    let apiKey: string | null
    try {
      apiKey = await ctx.keys.get(connection.id, connection.baseUrl)
      keyProblems.delete(connection.id)
    } catch (error) {
      if (!(error instanceof KeyNotSentError)) throw error
      // config.json points the connection elsewhere, or its entry is no key: nothing is sent, the window asks for a key.
      keyProblems.set(connection.id, error.message)
      apiKey = null
    }
    keyKnown.set(connection.id, apiKey !== null)
    if (apiKey === null) return
    const { service } = connection
    if (service !== undefined && isAgentService(service)) {
      const agent = openAgent(env, { ...connection, service }, apiKey)
      agents.set(connection.id, agent)
      if (shouldRun()) agent.watch.start()
      return
    }
    const next = openConnection(env, connection, apiKey)
    opened.set(connection.id, next)
    if (shouldRun()) next.monitor.start()
  }

  /** Opens the usage records' cache next to state.json; a damaged or unusable one is rebuilt or kept in memory, told to the log only. */
  async function openUsages(): Promise<void> {
    const store = await openUsageStore({
      dir: path.dirname(ctx.ports.settings.statePath),
      now: () => new Date(ctx.clock.now()),
      onNotice: (message) => ctx.reportError('usage records', new Error(message))
    }).catch((e: unknown) => (ctx.reportError('opening the usage records', e), null))
    if (!store) return
    const fetch = (connectionId: string, taskId: string) => {
      const current = opened.get(connectionId)
      if (!current) return Promise.reject(new Error('The connection is closed.'))
      return limiter.run(() => current.client.getStepsAndUsages(taskId))
    }
    usages = { store, fetcher: createUsageFetcher({ store, fetch }) }
  }

  async function sync(options: { reopen?: string } = {}): Promise<void> {
    const settings = settingsNow()
    for (const current of [...opened.values()]) {
      const connection = settings.connections.find((c) => c.id === current.connection.id)
      const keep = connection !== undefined && options.reopen !== current.connection.id
      if (keep && connection.baseUrl === current.connection.baseUrl) current.connection = connection
      else await close(current)
    }
    for (const current of [...agents.values()]) {
      const connection = settings.connections.find((c) => c.id === current.connection.id)
      const keep = connection !== undefined && options.reopen !== current.connection.id
      if (keep && connection.baseUrl === current.connection.baseUrl) current.connection = connection
      else await closeAgent(current)
    }
    for (const connection of settings.connections)
      if (!opened.has(connection.id) && !agents.has(connection.id)) await open(connection)
    ctx.changed()
  }

  function applyRunState(): void {
    if (!started || stopped) return
    for (const { monitor } of opened.values()) {
      if (shouldRun() && monitor.isPaused) monitor.resume()
      else if (!shouldRun() && !monitor.isPaused) monitor.pause()
    }
    for (const { watch } of agents.values()) {
      if (shouldRun() && watch.isPaused) watch.resume()
      else if (!shouldRun() && !watch.isPaused) watch.pause()
    }
    ctx.changed()
  }

  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = serial.then(work, work)
    serial = next.catch(() => undefined)
    return next
  }

  /** Why a connection is not open, in words for the user. */
  function whyClosed(connectionId: string | null): Error {
    if (connectionId === null) return invalidArgument('No service connection is set up yet: add one in Settings.')
    const connection = settingsNow().connections.find((c) => c.id === connectionId)
    if (!connection) return invalidArgument(`There is no connection with id "${connectionId}".`)
    const unknown = unknownServiceProblem(connection.service)
    if (unknown !== null) return invalidArgument(unknown)
    const agent = agents.get(connectionId)
    if (agent)
      return invalidArgument(
        `${connection.name} is an account of ${agent.watch.account.descriptor.displayName}, which has no watched projects.`
      )
    const problem = keyTransportProblem(connection.baseUrl)
    if (problem !== null)
      return invalidArgument(`${problem} Change the connection's address in Settings, and enter its key again.`)
    return invalidArgument(`The connection ${connection.name} has no API key: add one in Settings.`)
  }

  function active(): OpenConnection | null {
    const id = settingsNow().activeConnectionId
    return id === null ? null : (opened.get(id) ?? null)
  }

  function requireActive(): OpenConnection {
    const current = active()
    if (current) return current
    throw whyClosed(settingsNow().activeConnectionId)
  }

  return {
    async start() {
      if (started || stopped) return
      started = true
      await openUsages()
      await Promise.all(settingsNow().connections.map(async (c) => keyKnown.set(c.id, await ctx.keys.has(c.id))))
      await exclusive(() => sync())
    },
    async stop() {
      if (stopped) return
      stopped = true
      await exclusive(async () => {
        for (const current of [...opened.values()]) await close(current)
        for (const current of [...agents.values()]) await closeAgent(current)
      })
      await usages?.store.flush()
    },
    sync: (options) => sync(options),
    told: async () => {
      await Promise.all([...[...opened.values()].map((o) => o.told), ...[...agents.values()].map((a) => a.watch.told)])
    },
    exclusive,
    get: (connectionId) => opened.get(connectionId),
    active,
    requireActive,
    resolve(target) {
      if (target.connectionId !== undefined) {
        const named = opened.get(target.connectionId)
        if (named) return named
        throw whyClosed(target.connectionId)
      }
      const watched = settingsNow().watched
      for (const o of opened.values()) {
        if (target.projectId !== undefined && watched[o.connection.id]?.some((w) => w.projectId === target.projectId))
          return o
      }
      if (target.taskId !== undefined) {
        for (const o of opened.values()) if (o.monitor.projectOfTask(target.taskId) !== undefined) return o
      }
      return requireActive()
    },
    setPolling(polling) {
      limiter.setMax(polling.maxConcurrency)
      for (const o of opened.values()) o.monitor.setPolling(polling)
      for (const a of agents.values()) a.watch.setPolling(polling)
    },
    open: () => [...opened.values()],
    hasKey: (connectionId) => keyKnown.get(connectionId) ?? false,
    keyStored(connectionId, stored) {
      keyKnown.set(connectionId, stored)
      keyProblems.delete(connectionId)
    },
    keyProblem: (connectionId) => keyProblems.get(connectionId) ?? null,
    setRunning(conditions) {
      if (conditions.online !== undefined) online = conditions.online
      if (conditions.suspended !== undefined) suspended = conditions.suspended
      applyRunState()
    },
    get paused() {
      return !shouldRun()
    },
    rememberProject: (o, project) => rememberProject(ctx, o, project),
    watch(o, watched, project) {
      if (project) o.projects.set(project.id, project)
      if (opened.get(o.connection.id) === o) o.monitor.watch(watched.projectId)
      ctx.changed()
    },
    usages: () => usages,
    agents: () => [...agents.values()],
    agent: (connectionId) => agents.get(connectionId),
    requireAgent(connectionId) {
      const agent = agents.get(connectionId)
      if (agent) return agent
      const connection = settingsNow().connections.find((c) => c.id === connectionId)
      if (
        connection !== undefined &&
        !isAgentService(connection.service) &&
        unknownServiceProblem(connection.service) === null
      )
        throw invalidArgument(`The connection ${connection.name} is not an account of an agent service.`)
      throw whyClosed(connectionId)
    },
    unwatch(connectionId, projectId) {
      const o = opened.get(connectionId)
      if (!o) return
      o.monitor.unwatch(projectId)
      o.spend.forget(projectId)
      o.attention.forget(projectId)
      o.projects.delete(projectId)
      ctx.changed()
    }
  }
}
