// The app's logic behind every IPC channel, in plain Node: the Electron main process and the e2e
// test host both run this, and only translate transport. It owns one Monitor for the active
// connection, turns its changes into events and notifications, and keeps AppState current.
import type { AppState, ConnectionView, EventChannel, EventContract, Handlers, ProjectView, SettingsView } from '../../shared/ipc'
import { keyTransportProblem } from '../../shared/base-url'
import { checkPublishHostname } from '../../shared/hostname'
import type { ProjectSnapshot } from '../../shared/monitor'
import type { Project } from '../../shared/service'
import type { Connection, ProjectAttention, Settings, WatchedProject } from '../../shared/settings'
import { isSafeExternalUrl } from '../../shared/url'
import { newWatchedProject, projectDisplayName } from '../../shared/watched-project'
import type { ServiceClient } from '../client/client'
import { isServiceError, ServiceError } from '../client/errors'
import type { InvalidRecordIssue } from '../client/parse'
import { INVALID_RECORD_NOTICE_MS, invalidRecordNotice } from './record-notice'
import { systemClock, type TimerHandle } from '../util/clock'
import { Emitter } from '../util/emitter'
import { createMonitor, type Monitor, type MonitorCycle } from '../monitor/monitor'
import { addConnection, SettingsEditError, updateConnection } from '../settings/edit'
import { SettingsValidationError } from '../settings/store'
import { createAttentionBook, type AttentionBook } from './attention'
import { createCoalescer } from './coalesce'
import { BudgetHold } from '../notify/budget-hold'
import { decideNotifications, inQuietHours, notificationsPaused, type Notification } from '../notify/policy'
import type { AppControllerDeps } from './deps'
import { forbidden, invalidArgument } from './errors'
import { createLatestWriter, type LatestWriter } from './latest-writer'
import { buildProjectView, localTz } from './project-view'
import { applySettingsUpdate, toSettingsView } from './settings-view'
import { summariesOf } from './task-summaries'

export const DEMO_CONNECTION_ID = 'demo'

export interface AppController {
  readonly handlers: Handlers
  /** Subscribes to an event channel (what the window receives); returns the unsubscribe function. */
  on<E extends EventChannel>(channel: E, listener: (payload: EventContract[E]) => void): () => void
  start(): Promise<void>
  /** Stops polling, writes what is pending; the controller cannot be started again. */
  stop(): Promise<void>
  getState(): AppState
  /** The network went away or came back: polling pauses meanwhile. */
  setOnline(online: boolean): void
  /** The machine sleeps (or wakes): polling pauses meanwhile, and resumes with a poll of everything. */
  suspend(): void
  resume(): void
  /** Pauses notifications for `minutes`, or with null lifts a pause. */
  pauseNotifications(minutes: number | null): Promise<void>
  /** Opens the window on a task (e.g. a notification click): emits 'navigate:task' and focuses it. */
  openTask(projectId: string, taskId: string): void
  /** The service sent a record that could not be read and was skipped: a notice, at most one per resource kind per minute. */
  reportInvalidRecord(issue: InvalidRecordIssue): void
  /** The monitor of the active connection, for tests and diagnostics. */
  readonly monitor: Monitor | null
}

interface Active {
  connection: Connection
  client: ServiceClient
  monitor: Monitor
  lastSeen: LatestWriter<Record<string, ProjectSnapshot>>
  /** Failures and budget crossings of its projects the user has not seen yet. */
  attention: AttentionBook
  unsubscribe: (() => void)[]
}

export function createAppController(deps: AppControllerDeps): AppController {
  const clock = deps.clock ?? systemClock
  const random = deps.random ?? Math.random
  const tz = deps.tz ?? localTz
  const reportError = (context: string, error: unknown): void => {
    if (deps.onError) deps.onError(context, error)
  }
  const events = new Emitter<EventContract>((e) => reportError('event listener', e))
  const statePush = createCoalescer(() => events.emit('app:state', getState()), deps.stateIntervalMs ?? 100, clock)

  let active: Active | null = null
  let started = false
  let stopped = false
  let online = true
  let suspended = false
  let demo = false
  const notices: string[] = []
  /** Per resource kind, the notice about skipped records shown now and when it was made. */
  const recordNotices = new Map<InvalidRecordIssue['resource'], { text: string; at: number }>()
  /** Whether a key is stored, per connection id: AppState is built synchronously. */
  const keyKnown = new Map<string, boolean>()
  /** Projects of the active connection as last fetched. */
  const projects = new Map<string, Project>()
  const projectFetches = new Set<string>()
  // Connection changes rebuild the monitor: one at a time.
  let serial: Promise<unknown> = Promise.resolve()
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => {
    const next = serial.then(work, work)
    serial = next.catch(() => undefined)
    return next
  }

  const changed = (): void => statePush.request()

  // --- reading ---

  function settingsNow(): Settings {
    return deps.settings.read()
  }

  function watchedOf(settings: Settings, connectionId: string | null): WatchedProject[] {
    return connectionId === null ? [] : (settings.watched[connectionId] ?? [])
  }

  function connectionView(connection: Connection): ConnectionView {
    return { ...connection, hasKey: keyKnown.get(connection.id) ?? false, problem: keyTransportProblem(connection.baseUrl) }
  }

  function getState(): AppState {
    const settings = settingsNow()
    const monitor = active?.monitor ?? null
    const usages = monitor?.usagesByTask()
    const now = clock.now()
    const views: ProjectView[] = watchedOf(settings, settings.activeConnectionId).map((watched) =>
      buildProjectView({
        watched,
        project: projects.get(watched.projectId) ?? null,
        summary: monitor?.getSummary(watched.projectId) ?? null,
        health: monitor?.getHealth(watched.projectId) ?? { state: 'unknown' },
        ...(active ? { attention: active.attention.view(watched.projectId) } : {}),
        now,
        tz,
        ...(usages ? { usagesByTask: usages } : {})
      })
    )
    const pausedUntil = settings.notifications.pausedUntil
    return {
      connections: settings.connections.map(connectionView),
      activeConnectionId: settings.activeConnectionId,
      projects: views,
      monitor: {
        paused: monitor === null || monitor.isPaused,
        notificationsPausedUntil: pausedUntil !== null && Date.parse(pausedUntil) > now ? pausedUntil : null
      },
      secrets: { backend: deps.secrets.backend, detail: deps.secrets.detail },
      notices: [...notices],
      demo
    }
  }

  async function updateSettings(mutate: (draft: Settings) => void): Promise<Settings> {
    try {
      return await deps.settings.update(mutate)
    } catch (error) {
      if (error instanceof SettingsValidationError) throw invalidArgument(error.message)
      throw error
    }
  }

  function requireActive(): Active {
    if (active) return active
    const settings = settingsNow()
    if (settings.activeConnectionId === null) throw invalidArgument('No service connection is set up yet: add one in Settings.')
    const connection = settings.connections.find((c) => c.id === settings.activeConnectionId)
    const problem = connection ? keyTransportProblem(connection.baseUrl) : null
    if (problem !== null) throw invalidArgument(`${problem} Change the connection's address in Settings, and enter its key again.`)
    throw invalidArgument('The active connection has no API key: add one in Settings.')
  }

  function requireConnection(settings: Settings, connectionId: string): Connection {
    const connection = settings.connections.find((c) => c.id === connectionId)
    if (!connection) throw invalidArgument(`There is no connection with id "${connectionId}".`)
    return connection
  }

  // --- the monitor of the active connection ---

  async function closeActive(): Promise<void> {
    const current = active
    if (!current) return
    active = null
    for (const off of current.unsubscribe) off()
    current.lastSeen.write(current.monitor.snapshot())
    current.monitor.dispose()
    await current.lastSeen.settled()
    await current.attention.settled()
    await current.client.close().catch((e: unknown) => reportError('closing the service client', e))
    projects.clear()
    projectFetches.clear()
  }

  /** Builds the monitor for the active connection, if it has a key. */
  async function openActive(): Promise<void> {
    await closeActive()
    const settings = settingsNow()
    const connection = settings.connections.find((c) => c.id === settings.activeConnectionId)
    if (!connection) return changed()
    // A stored connection that would send its key in clear text stays closed until it is fixed.
    if (keyTransportProblem(connection.baseUrl) !== null) return changed()
    const apiKey = await deps.secrets.get(connection.id)
    keyKnown.set(connection.id, apiKey !== null)
    if (apiKey === null) return changed()
    const client = deps.createClient(connection, apiKey, { onInvalidRecord: (issue) => reportInvalidRecord(issue) })
    const monitor = createMonitor({
      connectionId: connection.id,
      source: client,
      projects: watchedOf(settings, connection.id).map((w) => ({ projectId: w.projectId, budgetUsd: w.budgetUsd })),
      polling: settings.polling,
      initialState: deps.settings.readLastSeen()[connection.id] ?? {},
      clock,
      random
    })
    const connectionId = connection.id
    const lastSeen = createLatestWriter(
      (state: Record<string, ProjectSnapshot>) => deps.settings.writeLastSeen(connectionId, state),
      (e) => reportError('saving the last seen state', e)
    )
    const attention = createAttentionBook(
      settings.attention[connectionId] ?? {},
      (book) => saveAttention(connectionId, book),
      (e) => reportError('saving what needs attention', e)
    )
    const next: Active = { connection, client, monitor, lastSeen, attention, unsubscribe: [] }
    next.unsubscribe.push(
      monitor.on('event', (event) => {
        attention.take(event)
        events.emit('monitor:event', event)
        changed()
      }),
      monitor.on('cycle', (cycle) => announce(connectionId, cycle)),
      monitor.on('state', (state) => lastSeen.write(state)),
      monitor.on('tasks', ({ projectId }) => {
        fetchProjectOnce(next, projectId)
        changed()
      }),
      monitor.on('details', () => changed())
    )
    active = next
    for (const w of watchedOf(settings, connectionId)) fetchProjectOnce(next, w.projectId)
    if (started && online && !suspended) monitor.start()
    changed()
  }

  async function saveAttention(connectionId: string, book: Record<string, ProjectAttention>): Promise<void> {
    await updateSettings((draft) => {
      // Kept for watched projects of a connection that still exists only.
      const watched = draft.watched[connectionId]
      if (!watched) return
      const ids = new Set(watched.map((w) => w.projectId))
      draft.attention[connectionId] = Object.fromEntries(Object.entries(book).filter(([projectId]) => ids.has(projectId)))
    })
  }

  /** Fills ProjectView.project (and the remembered name) after the first poll of a project. */
  function fetchProjectOnce(owner: Active, projectId: string): void {
    if (projects.has(projectId) || projectFetches.has(projectId)) return
    projectFetches.add(projectId)
    owner.client
      .getProject(projectId)
      .then((project) => {
        if (active !== owner) return
        rememberProject(owner.connection.id, project)
      })
      .catch(() => {
        // The poll's health already says what is wrong; try again on a later poll.
        projectFetches.delete(projectId)
      })
  }

  function rememberProject(connectionId: string, project: Project): void {
    projects.set(project.id, project)
    changed()
    const watched = watchedOf(settingsNow(), connectionId).find((w) => w.projectId === project.id)
    if (watched && watched.name !== project.name) {
      void updateSettings((draft) => {
        const w = draft.watched[connectionId]?.find((x) => x.projectId === project.id)
        if (w) w.name = project.name
      })
        .then(changed)
        .catch((e: unknown) => reportError('saving a project name', e))
    }
  }

  function applyRunState(): void {
    const monitor = active?.monitor
    if (!monitor || !started || stopped) return
    const shouldRun = online && !suspended
    if (shouldRun && monitor.isPaused) monitor.resume()
    else if (!shouldRun && !monitor.isPaused) monitor.pause()
    changed()
  }

  // One notice per kind, replaced (not added to) at most once a minute: a record broken on every
  // poll neither floods the list nor repeats a text the window already dismissed until it changes.
  function reportInvalidRecord(issue: InvalidRecordIssue): void {
    const now = clock.now()
    const shown = recordNotices.get(issue.resource)
    if (shown && now - shown.at < INVALID_RECORD_NOTICE_MS) return
    const text = invalidRecordNotice(issue)
    const at = shown ? notices.indexOf(shown.text) : -1
    if (at >= 0) notices.splice(at, 1)
    if (!notices.includes(text)) notices.push(text)
    recordNotices.set(issue.resource, { text, at: now })
    changed()
  }

  // --- notifications ---

  // A budget crossing in quiet hours or a pause waits in budgetHold (see budget-hold.ts): told
  // with the next round once notifications are allowed, or by this check, once a minute meanwhile.
  const budgetHold = new BudgetHold()
  let budgetCheckTimer: TimerHandle | null = null
  function checkHeldBudgets(): void {
    if (budgetCheckTimer !== null || stopped) return
    budgetCheckTimer = clock.setTimeout(() => {
      budgetCheckTimer = null
      if (active && budgetHold.size > 0) announce(active.connection.id, { events: [], away: false })
    }, 60_000)
  }

  function announce(connectionId: string, cycle: MonitorCycle): void {
    const settings = settingsNow()
    const watched = watchedOf(settings, connectionId)
    const at = new Date(clock.now())
    const projectNames: Record<string, string> = {}
    for (const w of watched) projectNames[w.projectId] = projectDisplayName(w, projects.get(w.projectId))
    const mutedProjects = new Set(watched.filter((w) => w.muted).map((w) => w.projectId))
    const tzOffsetMinutes = typeof tz === 'number' ? tz : tz(at)
    const prefs = settings.notifications
    let round = cycle.events
    if (notificationsPaused(prefs, at) || inQuietHours(prefs.quietHours, at, tzOffsetMinutes)) {
      budgetHold.hold(round, mutedProjects)
      if (budgetHold.size > 0) checkHeldBudgets()
    } else if (budgetHold.size > 0) {
      const released = budgetHold.release((e) => {
        const w = e.connectionId === connectionId ? watched.find((x) => x.projectId === e.projectId) : undefined
        return w && { budgetUsd: w.budgetUsd, muted: w.muted }
      })
      round = [...round, ...released]
    }
    if (round.length === 0) return
    let decided: Notification[]
    try {
      decided = decideNotifications({ ...cycle, events: round }, prefs, { now: at, mutedProjects, projectNames, tzOffsetMinutes })
    } catch (error) {
      reportError('deciding notifications', error)
      return
    }
    for (const n of decided) {
      try {
        deps.notify?.(n)
      } catch (error) {
        reportError('showing a notification', error)
      }
      const shown: EventContract['notification:shown'] = { title: n.title, body: n.body }
      if (n.projectId !== undefined) shown.projectId = n.projectId
      if (n.taskId !== undefined) shown.taskId = n.taskId
      events.emit('notification:shown', shown)
    }
  }

  let pauseEndTimer: TimerHandle | null = null
  async function pauseNotifications(minutes: number | null): Promise<void> {
    const until = minutes === null ? null : new Date(clock.now() + minutes * 60_000).toISOString()
    await updateSettings((draft) => {
      draft.notifications.pausedUntil = until
    })
    if (pauseEndTimer !== null) clock.clearTimeout(pauseEndTimer)
    pauseEndTimer = null
    // The window shows the pause until it ends: tell it when it does.
    if (minutes !== null && !stopped) pauseEndTimer = clock.setTimeout(() => {
      pauseEndTimer = null
      changed()
    }, minutes * 60_000 + 1)
    changed()
  }

  // --- watching ---

  async function watchProject(projectId: string): Promise<WatchedProject> {
    const current = requireActive()
    const connectionId = current.connection.id
    let project: Project
    try {
      project = await current.client.getProject(projectId)
    } catch (error) {
      if (isServiceError(error) && error.kind === 'not_found') {
        throw new ServiceError('not_found', `There is no project "${projectId}" on ${current.connection.name}: check the id.`, { status: 404 })
      }
      throw error
    }
    const existing = watchedOf(settingsNow(), connectionId).find((w) => w.projectId === projectId)
    if (existing) return existing
    const watched = newWatchedProject(projectId, new Date(clock.now()), { name: project.name })
    await updateSettings((draft) => {
      const list = (draft.watched[connectionId] ??= [])
      if (!list.some((w) => w.projectId === projectId)) list.push(watched)
    })
    projects.set(project.id, project)
    if (active === current) current.monitor.watch(projectId, { budgetUsd: null })
    changed()
    return watched
  }

  async function unwatchProject(projectId: string): Promise<void> {
    const connectionId = settingsNow().activeConnectionId
    if (connectionId === null) throw invalidArgument('No service connection is set up yet: add one in Settings.')
    await updateSettings((draft) => {
      const list = draft.watched[connectionId]
      if (list) draft.watched[connectionId] = list.filter((w) => w.projectId !== projectId)
    })
    if (active?.connection.id === connectionId) {
      active.monitor.unwatch(projectId)
      active.attention.forget(projectId)
    }
    projects.delete(projectId)
    changed()
  }

  // --- connections ---

  function newConnectionId(existing: readonly Connection[]): string {
    const base = `c-${Math.floor(random() * 36 ** 8).toString(36).padStart(8, '0')}`
    let id = base
    // A weak or fixed random source must not loop forever.
    for (let n = 2; existing.some((c) => c.id === id); n++) id = `${base}-${n}`
    return id
  }

  async function saveConnection(request: Parameters<Handlers['connection:save']>[0]): Promise<ConnectionView> {
    const settings = settingsNow()
    const { id: givenId, ...fields } = request.connection
    const before = givenId !== undefined ? requireConnection(settings, givenId) : undefined
    const id = givenId ?? newConnectionId(settings.connections)
    const keyReplaced = request.apiKey !== undefined
    // The same rules as the command's (core/settings/edit.ts), checked before a key is sent anywhere.
    const draft = structuredClone(settings)
    const connection = editConnection(draft, before, id, fields, keyReplaced)
    if (request.apiKey !== undefined) {
      await checkKeyBeforeSaving(connection, request.apiKey)
      await deps.secrets.set(id, request.apiKey)
      keyKnown.set(id, true)
    } else if (!keyKnown.has(id)) {
      keyKnown.set(id, await deps.secrets.has(id))
    }
    const saved = await updateSettings((draft) => {
      editConnection(draft, draft.connections.find((c) => c.id === id), id, fields, keyReplaced)
    })
    const stored = saved.connections.find((c) => c.id === id) ?? connection
    const current = active?.connection
    const affectsActive =
      saved.activeConnectionId === id && (!current || current.id !== id || current.baseUrl !== stored.baseUrl || keyReplaced)
    if (affectsActive) await openActive()
    else if (active?.connection.id === id) active.connection = stored
    changed()
    return connectionView(stored)
  }

  function editConnection(draft: Settings, existing: Connection | undefined, id: string, fields: Omit<Connection, 'id'>, keyReplaced: boolean): Connection {
    try {
      return existing ? updateConnection(draft, id, fields, { keyReplaced }) : addConnection(draft, fields, id)
    } catch (error) {
      if (error instanceof SettingsEditError) throw invalidArgument(error.message)
      throw error
    }
  }

  // A key is stored only once the service has accepted it, so a typo shows up on the setup
  // screen instead of as a broken connection later. Unreachable services fail the save too.
  async function checkKeyBeforeSaving(connection: Connection, apiKey: string): Promise<void> {
    const client = deps.createClient(connection, apiKey)
    try {
      if (!(await client.checkKey())) {
        throw new ServiceError('auth', `The service at ${connection.baseUrl} rejected this API key; nothing was saved.`, { status: 401 })
      }
    } finally {
      await client.close()
    }
  }

  async function removeConnection(connectionId: string): Promise<void> {
    requireConnection(settingsNow(), connectionId)
    const saved = await updateSettings((draft) => {
      draft.connections = draft.connections.filter((c) => c.id !== connectionId)
      delete draft.watched[connectionId]
      delete draft.attention[connectionId]
      if (draft.activeConnectionId === connectionId) draft.activeConnectionId = draft.connections[0]?.id ?? null
    })
    await deps.secrets.delete(connectionId)
    keyKnown.delete(connectionId)
    await deps.settings.writeLastSeen(connectionId, {}).catch((e: unknown) => reportError('forgetting the last seen state', e))
    if (connectionId === DEMO_CONNECTION_ID) {
      demo = false
      demoStart = null
    }
    if (active?.connection.id === connectionId || (active === null && saved.activeConnectionId !== null)) await openActive()
    changed()
  }

  async function activateConnection(connectionId: string): Promise<void> {
    requireConnection(settingsNow(), connectionId)
    if (settingsNow().activeConnectionId === connectionId && active?.connection.id === connectionId) return
    await updateSettings((draft) => {
      draft.activeConnectionId = connectionId
    })
    await openActive()
  }

  let demoStart: Promise<void> | null = null
  function startDemo(): Promise<void> {
    const start = deps.startDemo
    if (!start) return Promise.reject(forbidden('The demo is not available in this build.'))
    demoStart ??= (async () => {
      const service = await start()
      // A fresh service has fresh ids: last run's demo projects and what was seen of them are gone.
      await deps.secrets.set(DEMO_CONNECTION_ID, service.apiKey)
      keyKnown.set(DEMO_CONNECTION_ID, true)
      await deps.settings.writeLastSeen(DEMO_CONNECTION_ID, {})
      const addedAt = new Date(clock.now())
      await updateSettings((draft) => {
        const connection: Connection = {
          id: DEMO_CONNECTION_ID,
          name: 'Demo',
          baseUrl: service.baseUrl,
          publishingDomain: service.publishingDomain
        }
        const i = draft.connections.findIndex((c) => c.id === DEMO_CONNECTION_ID)
        if (i === -1) draft.connections.push(connection)
        else draft.connections[i] = connection
        draft.watched[DEMO_CONNECTION_ID] = service.projectIds.map((projectId, n) =>
          newWatchedProject(projectId, addedAt, { name: `Demo project ${n + 1}` })
        )
        delete draft.attention[DEMO_CONNECTION_ID]
        draft.activeConnectionId = DEMO_CONNECTION_ID
      })
      demo = true
      await openActive()
    })().catch((error: unknown) => {
      demoStart = null
      throw error
    })
    return demoStart
  }

  // --- handlers ---

  const handlers: Handlers = {
    'app:get-state': async () => getState(),
    'connection:save': (request) => exclusive(() => saveConnection(request)),
    'connection:remove': ({ connectionId }) => exclusive(() => removeConnection(connectionId)),
    'connection:activate': ({ connectionId }) => exclusive(() => activateConnection(connectionId)),
    'demo:start': () => exclusive(() => startDemo()),
    'project:get': async ({ projectId }) => {
      const current = requireActive()
      const project = await current.client.getProject(projectId)
      if (active === current && watchedOf(settingsNow(), current.connection.id).some((w) => w.projectId === projectId)) {
        rememberProject(current.connection.id, project)
      }
      return project
    },
    'project:create': async ({ project, watch }) => {
      const current = requireActive()
      const created = await current.client.createProject(project)
      if (watch) {
        const connectionId = current.connection.id
        await updateSettings((draft) => {
          const list = (draft.watched[connectionId] ??= [])
          if (!list.some((w) => w.projectId === created.id)) {
            list.push(newWatchedProject(created.id, new Date(clock.now()), { name: created.name }))
          }
        })
        projects.set(created.id, created)
        if (active === current) current.monitor.watch(created.id, { budgetUsd: null })
        changed()
      }
      return created
    },
    'project:update': async ({ projectId, update }) => {
      const current = requireActive()
      const updated = await current.client.updateProject(projectId, update)
      if (active === current && watchedOf(settingsNow(), current.connection.id).some((w) => w.projectId === projectId)) {
        rememberProject(current.connection.id, updated)
      }
      return updated
    },
    'project:watch': ({ projectId }) => watchProject(projectId),
    'project:unwatch': ({ projectId }) => unwatchProject(projectId),
    'project:set-watch-options': async ({ projectId, muted, budgetUsd }) => {
      const current = requireActive()
      const connectionId = current.connection.id
      if (!watchedOf(settingsNow(), connectionId).some((w) => w.projectId === projectId)) {
        throw invalidArgument(`Project "${projectId}" is not watched.`)
      }
      const saved = await updateSettings((draft) => {
        const w = draft.watched[connectionId]?.find((x) => x.projectId === projectId)
        if (!w) return
        if (muted !== undefined) w.muted = muted
        if (budgetUsd !== undefined) w.budgetUsd = budgetUsd
      })
      const watched = watchedOf(saved, connectionId).find((w) => w.projectId === projectId)
      if (!watched) throw invalidArgument(`Project "${projectId}" is not watched.`)
      if (budgetUsd !== undefined && active === current) current.monitor.setBudget(projectId, budgetUsd)
      changed()
      return watched
    },
    'project:tasks': async ({ projectId }) => {
      return summariesOf(await requireActive().monitor.loadTasks(projectId))
    },
    'project:task': async ({ projectId, taskId }) => {
      const tasks = await requireActive().monitor.loadTasks(projectId)
      return tasks.find((t) => t.id === taskId) ?? null
    },
    'project:publish': async ({ projectId, hostname }) => {
      const current = requireActive()
      const domain = current.connection.publishingDomain
      if (domain !== '') {
        const reasons = checkPublishHostname(hostname, domain)
        if (reasons.length > 0) throw invalidArgument(reasons.join(' '))
      }
      return current.client.publish(projectId, hostname)
    },
    'task:details': async ({ taskId }) => {
      const current = requireActive()
      current.monitor.focusTask(taskId)
      const projectId = current.monitor.projectOfTask(taskId)
      if (projectId !== undefined) {
        current.monitor.focusProject(projectId)
        if (current.attention.acknowledgeTask(projectId, taskId)) changed()
      }
      return current.monitor.getTaskDetails(taskId)
    },
    'task:focus': async ({ taskId }) => {
      active?.monitor.focusTask(taskId)
    },
    'settings:get': async () => toSettingsView(settingsNow()),
    'settings:update': async (update) => {
      const saved = await updateSettings((draft) => applySettingsUpdate(draft, update))
      if (update.polling !== undefined) active?.monitor.setPolling(saved.polling)
      try {
        deps.onSettingsChanged?.()
      } catch (error) {
        reportError('applying settings', error)
      }
      changed()
      return toSettingsView(saved) satisfies SettingsView
    },
    'monitor:poll-now': async () => {
      await requireActive().monitor.pollNow()
    },
    'monitor:pause-notifications': ({ minutes }) => pauseNotifications(minutes),
    'attention:acknowledge': async ({ projectId }) => {
      // Nothing watched yet (no connection) is nothing to acknowledge, not an error.
      if (!active) return
      const watched = watchedOf(settingsNow(), active.connection.id).map((w) => w.projectId)
      const seen = projectId === undefined ? watched : watched.filter((id) => id === projectId)
      if (active.attention.acknowledge(seen, new Date(clock.now()))) changed()
    },
    'shell:open-external': async ({ url }) => {
      if (!isSafeExternalUrl(url)) throw forbidden('Only http and https links can be opened.')
      await deps.openExternal(url)
    }
  }

  return {
    handlers,
    on: (channel, listener) => events.on(channel, listener),
    getState,
    async start() {
      if (started || stopped) return
      started = true
      notices.push(...deps.settings.takeNotices())
      const settings = settingsNow()
      await Promise.all(
        settings.connections.map(async (c) => {
          keyKnown.set(c.id, await deps.secrets.has(c.id))
        })
      )
      await exclusive(() => openActive())
    },
    async stop() {
      if (stopped) return
      stopped = true
      if (pauseEndTimer !== null) clock.clearTimeout(pauseEndTimer)
      if (budgetCheckTimer !== null) clock.clearTimeout(budgetCheckTimer)
      await exclusive(() => closeActive())
      statePush.cancel()
      events.removeAll()
    },
    setOnline(value) {
      online = value
      applyRunState()
    },
    suspend() {
      suspended = true
      applyRunState()
    },
    resume() {
      suspended = false
      applyRunState()
    },
    pauseNotifications,
    reportInvalidRecord,
    openTask(projectId, taskId) {
      active?.monitor.focusTask(taskId)
      active?.monitor.focusProject(projectId)
      events.emit('navigate:task', { projectId, taskId })
    },
    get monitor() {
      return active?.monitor ?? null
    }
  }
}
