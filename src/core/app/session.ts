// The open connections: for each, the service client, its monitor, what the user has not seen yet
// (attention) and the projects as last fetched. Keyed by connection id: every connection with a
// key is open at once (`wanted`), each with its own key, and all their requests share one
// concurrency limit. Everything that outlives a connection (settings, keys, the last seen state)
// is stored, never kept here alone.
import { keyTransportProblem } from '../../shared/base-url'
import type { MonitorEvent, ProjectSnapshot } from '../../shared/monitor'
import type { Project, Task } from '../../shared/service'
import type { Connection, PollingPrefs, ProjectAttention, Settings, WatchedProject } from '../../shared/settings'
import { SpendBook } from '../budgets/spend-book'
import type { ServiceClient } from '../client/client'
import type { InvalidRecordIssue } from '../client/parse'
import { inBackgroundWindow } from '../costs/background-window'
import { createUsageFetcher, type UsageFetcher } from '../costs/usage-fetcher'
import type { UsageStore } from '../costs/usage-store'
import { Monitor, type MonitorCycle, type TaskSource } from '../monitor/monitor'
import { type KeyCustody, KeyNotSentError } from '../secrets/custody'
import type { SettingsStore } from '../settings/store'
import type { Clock } from '../util/clock'
import { createLimiter, type Limiter } from '../util/limiter'
import { type AttentionBook, createAttentionBook } from './attention'
import type { AppClientOptions } from './deps'
import { invalidArgument } from './errors'
import { createLatestWriter, type LatestWriter } from './latest-writer'

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

interface Opened extends OpenConnection {
  readonly lastSeen: LatestWriter<Record<string, ProjectSnapshot>>
  readonly projectFetches: Set<string>
  readonly unsubscribe: (() => void)[]
  /** The last round's announcement; rounds are told in order, so it settles after every earlier one. */
  told: Promise<void>
}

export interface SessionDeps {
  store: SettingsStore
  /** Settings writes, with invalid settings turned into the app's invalid_argument. */
  update(mutate: (draft: Settings) => void): Promise<Settings>
  /** The keys, each sent only to the origin it was given for (core/secrets/custody.ts). */
  secrets: KeyCustody
  createClient(connection: Connection, apiKey: string, options?: AppClientOptions): ServiceClient
  clock: Clock
  random: () => number
  /** Which connections to keep open, by id. */
  wanted(settings: Settings): string[]
  onEvent(open: OpenConnection, event: MonitorEvent): void
  onCycle(open: OpenConnection, cycle: MonitorCycle): void
  onInvalidRecord(issue: InvalidRecordIssue): void
  changed(): void
  onError(context: string, error: unknown): void
  /** Opens the usage records' cache (core/costs) at start; absent or null: none are kept or fetched. */
  openUsages?(): Promise<UsageStore | null>
}

/** The usage records known for cost reports, and the polite fetcher of missing ones. */
export interface SessionUsages {
  readonly store: UsageStore
  readonly fetcher: UsageFetcher
}

export interface Session {
  /** Learns which connections have a key, then opens the wanted ones. */
  start(): Promise<void>
  /** Closes every connection, writing what each saw last; the session cannot start again. */
  stop(): Promise<void>
  /** Opens the wanted connections and closes the rest; `reopen` rebuilds one (a new address or key). */
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
  /**
   * The open connection a request is about: the one named, else the one watching the project (or
   * knowing the task), else the active one; an invalid_argument saying why when it is not open.
   */
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
}

export function createSession(deps: SessionDeps): Session {
  const opened = new Map<string, Opened>()
  const limiter: Limiter = createLimiter(deps.store.read().polling.maxConcurrency)
  const keyKnown = new Map<string, boolean>()
  const keyProblems = new Map<string, string>()
  let started = false
  let stopped = false
  let online = true
  let suspended = false
  let serial: Promise<unknown> = Promise.resolve()
  let usages: SessionUsages | null = null

  const settingsNow = (): Settings => deps.store.read()
  const watchedOf = (connectionId: string): WatchedProject[] => settingsNow().watched[connectionId] ?? []
  const shouldRun = (): boolean => started && !stopped && online && !suspended

  async function close(current: Opened): Promise<void> {
    opened.delete(current.connection.id)
    for (const off of current.unsubscribe) off()
    current.lastSeen.write(current.monitor.snapshot())
    current.monitor.dispose()
    await current.lastSeen.settled()
    await current.told
    await current.attention.settled()
    await current.client.close().catch((e: unknown) => deps.onError('closing the service client', e))
  }

  async function openConnection(connection: Connection): Promise<void> {
    // A stored connection that would send its key in clear text stays closed until it is fixed.
    if (keyTransportProblem(connection.baseUrl) !== null) return
    let apiKey: string | null
    try {
      apiKey = await deps.secrets.get(connection.id, connection.baseUrl)
      keyProblems.delete(connection.id)
    } catch (error) {
      if (!(error instanceof KeyNotSentError)) throw error
      // config.json points the connection elsewhere, or its entry is no key: nothing is sent, the window asks for a key.
      keyProblems.set(connection.id, error.message)
      apiKey = null
    }
    keyKnown.set(connection.id, apiKey !== null)
    if (apiKey === null) return
    const settings = settingsNow()
    const connectionId = connection.id
    const client = deps.createClient(connection, apiKey, { onInvalidRecord: (issue) => deps.onInvalidRecord(issue) })
    const monitor = new Monitor({
      connectionId,
      source: limited(client, limiter),
      projects: watchedOf(connectionId).map((w) => w.projectId),
      polling: settings.polling,
      initialState: deps.store.readLastSeen()[connectionId] ?? {},
      clock: deps.clock,
      random: deps.random
    })
    const lastSeen = createLatestWriter(
      (state: Record<string, ProjectSnapshot>) => deps.store.writeLastSeen(connectionId, state),
      (e) => deps.onError('saving the last seen state', e)
    )
    const attention = createAttentionBook(
      settings.attention[connectionId] ?? {},
      (book) => saveAttention(connectionId, book),
      (e) => deps.onError('saving what needs attention', e)
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
        deps.onEvent(next, event)
        deps.changed()
      }),
      // Told once what was seen is written: a crash before the write repeats nothing on the next
      // start (the changes are told then, as 'While you were away'), one after it has nothing to repeat.
      monitor.on('cycle', (cycle) => {
        next.told = lastSeen
          .settled()
          .then(() => deps.onCycle(next, cycle))
          .catch((e: unknown) => deps.onError('telling a round of changes', e))
      }),
      monitor.on('state', (state) => lastSeen.write(state)),
      monitor.on('tasks', ({ projectId, tasks }) => {
        spend.takeTasks(projectId, tasks, deps.clock.now(), monitor.usagesByTask())
        fetchProjectOnce(next, projectId)
        fetchUsagesInBackground(connectionId, tasks)
        deps.changed()
      }),
      monitor.on('details', ({ taskId, details }) => {
        // What the monitor fetched anyway is not downloaded again for cost reports.
        usages?.store.offerDetails(connectionId, taskId, details.usages)
        deps.changed()
      })
    )
    opened.set(connectionId, next)
    for (const w of watchedOf(connectionId)) fetchProjectOnce(next, w.projectId)
    if (shouldRun()) monitor.start()
  }

  /** The records of recently changed tasks, so this and last month's costs are by day, not estimates. */
  function fetchUsagesInBackground(connectionId: string, tasks: readonly Omit<Task, 'steps'>[]): void {
    if (!usages) return
    usages.store.noteTasks(connectionId, tasks)
    const nowMs = deps.clock.now()
    const recent = tasks.filter((t) => inBackgroundWindow(t, nowMs))
    void usages.fetcher.ensure(connectionId, recent).then((p) => p.done > 0 && deps.changed())
  }

  async function saveAttention(connectionId: string, book: Record<string, ProjectAttention>): Promise<void> {
    await deps.update((draft) => {
      // Kept for watched projects of a connection that still exists only.
      const watched = draft.watched[connectionId]
      if (!watched) return
      const ids = new Set(watched.map((w) => w.projectId))
      draft.attention[connectionId] = Object.fromEntries(
        Object.entries(book).filter(([projectId]) => ids.has(projectId))
      )
    })
  }

  /** Fills the project cache (and the remembered name) after the first poll of a project. */
  function fetchProjectOnce(owner: Opened, projectId: string): void {
    if (owner.projects.has(projectId) || owner.projectFetches.has(projectId)) return
    owner.projectFetches.add(projectId)
    // Not kept if unwatched meanwhile; on failure (the poll's health says why) a later poll tries again.
    const remember = (project: Project): void => {
      if (opened.get(owner.connection.id) === owner && owner.monitor.isWatched(projectId))
        rememberProject(owner, project)
    }
    owner.client
      .getProject(projectId)
      .then(remember, () => undefined)
      .finally(() => owner.projectFetches.delete(projectId))
  }

  function rememberProject(open: OpenConnection, project: Project): void {
    open.projects.set(project.id, project)
    deps.changed()
    const connectionId = open.connection.id
    const watched = watchedOf(connectionId).find((w) => w.projectId === project.id)
    const product = project.software_product_id || undefined
    if (watched && (watched.name !== project.name || watched.softwareProductId !== product)) {
      void deps
        .update((draft) => {
          const w = draft.watched[connectionId]?.find((x) => x.projectId === project.id)
          if (!w) return
          w.name = project.name
          if (product === undefined) delete w.softwareProductId
          else w.softwareProductId = product
        })
        .then(deps.changed)
        .catch((e: unknown) => deps.onError('saving a project name', e))
    }
  }

  async function sync(options: { reopen?: string } = {}): Promise<void> {
    const settings = settingsNow()
    const wanted = new Set(deps.wanted(settings))
    for (const current of [...opened.values()]) {
      const connection = settings.connections.find((c) => c.id === current.connection.id)
      const keep =
        wanted.has(current.connection.id) && connection !== undefined && options.reopen !== current.connection.id
      if (keep && connection.baseUrl === current.connection.baseUrl) current.connection = connection
      else await close(current)
    }
    for (const connection of settings.connections) {
      if (wanted.has(connection.id) && !opened.has(connection.id)) await openConnection(connection)
    }
    deps.changed()
  }

  function applyRunState(): void {
    if (!started || stopped) return
    for (const { monitor } of opened.values()) {
      if (shouldRun() && monitor.isPaused) monitor.resume()
      else if (!shouldRun() && !monitor.isPaused) monitor.pause()
    }
    deps.changed()
  }

  function exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = serial.then(work, work)
    serial = next.catch(() => undefined)
    return next
  }

  /** Why a connection is not open, in words for the user. */
  function whyClosed(connectionId: string | null): Error {
    const settings = settingsNow()
    if (connectionId === null) return invalidArgument('No service connection is set up yet: add one in Settings.')
    const connection = settings.connections.find((c) => c.id === connectionId)
    if (!connection) return invalidArgument(`There is no connection with id "${connectionId}".`)
    const problem = keyTransportProblem(connection.baseUrl)
    if (problem !== null)
      return invalidArgument(`${problem} Change the connection's address in Settings, and enter its key again.`)
    return invalidArgument(`The connection ${connection.name} has no API key: add one in Settings.`)
  }

  function active(): OpenConnection | null {
    const id = settingsNow().activeConnectionId
    return id === null ? null : (opened.get(id) ?? null)
  }

  return {
    async start() {
      if (started || stopped) return
      started = true
      const store = await deps
        .openUsages?.()
        .catch((e: unknown) => (deps.onError('opening the usage records', e), null))
      if (store) {
        usages = {
          store,
          fetcher: createUsageFetcher({
            store,
            fetch: (connectionId, taskId) => {
              const open = opened.get(connectionId)
              if (!open) return Promise.reject(new Error('The connection is closed.'))
              return limiter.run(() => open.client.getStepsAndUsages(taskId))
            }
          })
        }
      }
      await Promise.all(settingsNow().connections.map(async (c) => keyKnown.set(c.id, await deps.secrets.has(c.id))))
      await exclusive(() => sync())
    },
    async stop() {
      if (stopped) return
      stopped = true
      await exclusive(async () => {
        for (const current of [...opened.values()]) await close(current)
      })
      await usages?.store.flush()
    },
    sync: (options) => sync(options),
    told: async () => {
      await Promise.all([...opened.values()].map((o) => o.told))
    },
    exclusive,
    get: (connectionId) => opened.get(connectionId),
    active,
    requireActive() {
      const open = active()
      if (open) return open
      throw whyClosed(settingsNow().activeConnectionId)
    },
    resolve(target) {
      if (target.connectionId !== undefined) {
        const open = opened.get(target.connectionId)
        if (open) return open
        throw whyClosed(target.connectionId)
      }
      if (target.projectId !== undefined) {
        const settings = settingsNow()
        for (const open of opened.values()) {
          if ((settings.watched[open.connection.id] ?? []).some((w) => w.projectId === target.projectId)) return open
        }
      }
      if (target.taskId !== undefined) {
        for (const open of opened.values()) if (open.monitor.projectOfTask(target.taskId) !== undefined) return open
      }
      const open = active()
      if (open) return open
      throw whyClosed(settingsNow().activeConnectionId)
    },
    setPolling(polling) {
      limiter.setMax(polling.maxConcurrency)
      for (const open of opened.values()) open.monitor.setPolling(polling)
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
    rememberProject,
    watch(open, watched, project) {
      if (project) open.projects.set(project.id, project)
      if (opened.get(open.connection.id) === open) open.monitor.watch(watched.projectId)
      deps.changed()
    },
    usages: () => usages,
    unwatch(connectionId, projectId) {
      const open = opened.get(connectionId)
      if (!open) return
      open.monitor.unwatch(projectId)
      open.spend.forget(projectId)
      open.attention.forget(projectId)
      open.projects.delete(projectId)
      deps.changed()
    }
  }
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
