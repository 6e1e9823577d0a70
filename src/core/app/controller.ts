// The logic behind every IPC channel, in plain Node so the e2e host runs it as the app does (only transport differs).
import path from 'node:path'
import type { DesktopNote } from '../../shared/desktop'
import type { AppState, EventChannel, EventContract, Handlers } from '../../shared/ipc'
import type { MonitorEvent } from '../../shared/monitor'
import type { Settings } from '../../shared/settings'
import { projectDisplayName } from '../../shared/watched-project'
import type { InvalidRecordIssue } from '../client/parse'
import { isAway } from '../forward/away'
import { createForwarding } from '../forward/forwarding'
import { OUTBOX_FILE } from '../forward/outbox-file'
import { OUTBOX_LOCK_RETRY_MS } from '../forward/outbox-lock'
import { AT_THE_DESK, watchPresence } from '../forward/presence-watch'
import { rememberKeys } from '../log/known-keys'
import type { Monitor } from '../monitor/monitor'
import { createNotificationGate } from '../notify/gate'
import { createPauseTimers } from '../notify/pause'
import { inQuietHours } from '../notify/policy'
import { keyCustody } from '../secrets/custody'
import { redactSecrets } from '../secrets/redact'
import { firstLine } from '../secrets/types'
import { SettingsEditError } from '../settings/edit'
import { SettingsFileError } from '../settings/file-error'
import { SettingsValidationError } from '../settings/store'
import { createUpdater, type Updater } from '../update/updater'
import { systemClock } from '../util/clock'
import { Emitter } from '../util/emitter'
import { AppError, invalidArgument } from './app-error'
import { buildAppState } from './app-state'
import { createAppBudgets } from './budgets'
import { createCoalescer } from './coalesce'
import type { AppContext } from './context'
import { agentHandlers } from './handlers/agents'
import { attentionHandlers } from './handlers/attention'
import { budgetHandlers } from './handlers/budgets'
import { connectionHandlers } from './handlers/connections'
import { costHandlers } from './handlers/costs'
import { desktopHandlers } from './handlers/desktop'
import { forwardingHandlers } from './handlers/forwarding'
import { notificationControls } from './handlers/notifications'
import { projectHandlers } from './handlers/projects'
import { settingsHandlers } from './handlers/settings'
import { systemHandlers } from './handlers/system'
import { taskHandlers } from './handlers/tasks'
import { createLatestWriter } from './latest-writer'
import { Notices } from './notices'
import type { ControllerPorts } from './ports'
import { localTz } from './project-view'
import { createSession, type OpenConnection } from './session'
import { beforeOpening } from './startup'
import { createAppUnitBudgets } from './unit-budgets'

export { DEMO_CONNECTION_ID } from './handlers/connections'

export interface AppController {
  readonly handlers: Handlers
  /** Subscribes to an event channel (what the window receives); returns the unsubscribe function. */
  on<E extends EventChannel>(channel: E, listener: (payload: EventContract[E]) => void): () => void
  start(): Promise<void>
  /** Stops polling, writes what is pending; the controller cannot be started again. */
  stop(): Promise<void>
  getState(): AppState
  /** Something outside the controller that AppState shows changed (updates, desktop notes): push it. */
  stateChanged(): void
  /** The network went away or came back: polling pauses meanwhile. */
  setOnline(online: boolean): void
  /** The machine sleeps (or wakes): polling pauses meanwhile, and resumes with a poll of everything. */
  suspend(): void
  resume(): void
  /** Polls every watched project now (the tray's and the window's Refresh). */
  pollNow(): Promise<void>
  /** Pauses notifications for `minutes`, or with null lifts a pause. */
  pauseNotifications(minutes: number | null): Promise<void>
  /** Starts the demo: its service, connection and projects (the tray and a `--demo` launch). */
  startDemo(): Promise<void>
  /** Opens the window on a task (e.g. a notification click): emits 'navigate:task' and focuses it. */
  openTask(projectId: string, taskId: string, connectionId?: string): void
  /** Opens the window on a project (a deep link): emits 'navigate:project'. */
  openProject(projectId: string): void
  /** The service sent a record that could not be read and was skipped: a notice, at most one per resource kind per minute. */
  reportInvalidRecord(issue: InvalidRecordIssue): void
  /** The monitor of the active connection, for tests and diagnostics. */
  readonly monitor: Monitor | null
  readonly updater: Updater
  /** Writes one line to the app's log, every key this run has held taken out. */
  log(message: string): void
  /** The app's own failures: the ports' onError, else the log. */
  reportError(context: string, error: unknown): void
  /** Takes every key this run has held out of a text: the log's redaction. */
  redact(text: string): string
  /** Notes this desktop needs explained (Linux tray, Wayland shortcut, sound), shown in Settings. */
  setDesktopNote(note: DesktopNote, shown: boolean): void
}

export function createAppController(ports: ControllerPorts): AppController {
  const clock = ports.clock ?? systemClock
  const random = ports.random ?? Math.random
  const tz = ports.tz ?? localTz
  const settings = (): Settings => ports.settings.read()
  // The key store, learning each key that passes so the log can take it out of every line.
  const known = rememberKeys(ports.secrets)
  // The one redaction (core/secrets/redact.ts): the key as sent, JSON-escaped or URL-encoded.
  const redact = (text: string): string => redactSecrets(text, known.list())
  const log = (message: string): void => ports.log?.(redact(message))
  const reportError = ports.onError ?? ((context: string, error: unknown) => log(`${context}: ${firstLine(error)}`))
  const events = new Emitter<EventContract>((e) => reportError('event listener', e))
  // A settings file repaired (or found unusable) while the app runs is told with the next push.
  const statePush = createCoalescer(
    () => {
      notices.add(ports.settings.takeNotices())
      events.emit('app:state', buildAppState(ctx))
    },
    ports.stateIntervalMs ?? 100,
    clock
  )
  const changed = (): void => statePush.request()
  const notices = new Notices()
  let notes: DesktopNote[] = []
  let stopped = false
  const updater = createUpdater({
    updater: ports.updater ?? null,
    unavailable: ports.updatesUnavailable,
    enabled: settings().checkForUpdates,
    clock,
    onChange: changed,
    log
  })
  // A lock or unlock changes what Settings → Forwarding shows.
  const presence = ports.presence ? watchPresence(ports.presence, changed) : AT_THE_DESK

  async function update(mutate: Parameters<AppContext['update']>[0]) {
    try {
      return await ports.settings.update(mutate)
    } catch (error) {
      if (error instanceof SettingsValidationError || error instanceof SettingsEditError)
        throw invalidArgument(error.message)
      // The settings file cannot be used (a directory in its place, no permission): said as it is.
      if (error instanceof SettingsFileError) throw new AppError('internal', error.message)
      throw error
    }
  }

  function reportInvalidRecord(issue: InvalidRecordIssue): void {
    if (notices.reportInvalidRecord(issue, clock.now())) changed()
  }

  const keys = keyCustody(known.store, [ports.settings.ciphertexts])
  const session = createSession(
    { ports, keys, clock, random, update, changed, reportError, events },
    {
      onCycle: (open, cycle) => {
        // The round's budget news goes with it: to the attention book, the window, and the gate.
        const news = announceBudgets(open)
        const round = news.length === 0 ? cycle : { ...cycle, events: [...cycle.events, ...news] }
        gate.announce(open.connection.id, round)
        forwarding.forward(open.connection.id, round.events)
      },
      onInvalidRecord: reportInvalidRecord,
      // An agent account's round goes the way of a monitor's: the window, the gate, forwarding.
      onAgentRound: (connectionId, round) => {
        for (const event of round.events) events.emit('monitor:event', event)
        gate.announce(connectionId, round)
        forwarding.forward(connectionId, round.events)
        changed()
      },
      onAgentChange: (connectionId) => {
        announceUnitBudgets(connectionId)
        changed()
      }
    }
  )

  // What the gate holds is saved whole at each change; only the newest set is written.
  const heldWriter = createLatestWriter(
    (held: Parameters<typeof ports.settings.writeBudgetMemory>[0]['held'] & object) =>
      ports.settings.writeBudgetMemory({ held }),
    (e) => reportError('saving held notifications', e)
  )

  const pauses = createPauseTimers(clock, changed)
  const projectName = (connectionId: string, projectId: string): string => {
    const watched = settings().watched[connectionId]?.find((w) => w.projectId === projectId)
    return projectDisplayName(watched ?? { projectId, name: '' }, session.get(connectionId)?.projects.get(projectId))
  }
  const gate = createNotificationGate({
    clock,
    tz,
    settings,
    projectName,
    connectionLabel: (connectionId) => {
      const connections = settings().connections
      return connections.length > 1 ? (connections.find((c) => c.id === connectionId)?.name ?? null) : null
    },
    accountName: (connectionId) => settings().connections.find((c) => c.id === connectionId)?.name ?? connectionId,
    unusualNow: (event) => {
      const open = session.get(event.connectionId)
      // Not open yet, or its project not listed since: whether it still costs more is not known yet.
      if (!open || !open.spend.has(event.projectId)) return 'wait'
      return budgets.unusual(open).get(event.taskId) ?? null
    },
    waitingNow: (event) => {
      const current = settings()
      if (!current.connections.some((c) => c.id === event.connectionId)) return null
      if ((current.mutedAgentProjects[event.connectionId] ?? []).includes(event.projectId)) return null
      const agent = session.agent(event.connectionId)
      // Not polled since start: whether it still waits is not known yet.
      if (!agent || agent.watch.health.state === 'unknown') return 'wait'
      const task = agent.watch.views().find((t) => t.id === event.taskId)
      return task?.status === 'waiting' && task.waiting !== null ? task.waiting : null
    },
    held: {
      read: () => ports.settings.readBudgetMemory().held,
      write: (held) => heldWriter.write(held)
    },
    deliver: (n) => {
      try {
        ports.notify?.(n)
      } catch (error) {
        reportError('showing a notification', error)
      }
      const shown: EventContract['notification:shown'] = { title: n.title, body: n.body }
      if (n.connectionId !== undefined) shown.connectionId = n.connectionId
      if (n.projectId !== undefined) shown.projectId = n.projectId
      if (n.taskId !== undefined) shown.taskId = n.taskId
      events.emit('notification:shown', shown)
    },
    onError: reportError
  })

  // What the gate lets through (muted stays muted) also goes to the targets that want it now: away
  // by the presence the platform reports; quiet hours only for a target that asks for them.
  const forwarding = createForwarding({
    file: path.join(path.dirname(ports.settings.statePath), OUTBOX_FILE),
    clock,
    secrets: known.store.forwarding,
    settings,
    names: {
      projectName,
      accountName: (connectionId) => settings().connections.find((c) => c.id === connectionId)?.name ?? connectionId
    },
    moment: () => {
      const current = settings()
      const at = new Date(clock.now())
      return {
        away: isAway(presence.now(), current.forwarding.awayAfterMs),
        quiet: inQuietHours(current.notifications.quietHours, at, typeof tz === 'number' ? tz : tz(at))
      }
    },
    onGiveUp: (targetId, reason) => {
      const name = settings().forwarding.targets.find((t) => t.id === targetId)?.name ?? 'a removed target'
      notices.add([`Forwarding to '${name}' is losing notifications: ${reason}`])
      changed()
    },
    onKeyStoreFailure: (targetId, reason) => {
      const name = settings().forwarding.targets.find((t) => t.id === targetId)?.name ?? 'a removed target'
      notices.add([`Forwarding to '${name}' is waiting for the keychain: ${reason} It is tried again.`])
      changed()
    },
    onError: (error) => reportError('forwarding', error),
    onChange: changed,
    random,
    // Beside `agent-tray watch --forward` the app waits, taking forwarding over once the command stops.
    lockRetryMs: OUTBOX_LOCK_RETRY_MS,
    fetch: ports.forwardFetch
  })

  const budgets = createAppBudgets({
    memory: ports.settings,
    clock,
    tz,
    session,
    settings,
    reportError
  })

  const unitBudgets = createAppUnitBudgets({
    memory: ports.settings,
    clock,
    tz,
    agents: () => session.agents(),
    settings,
    reportError
  })

  /** An agent account's per-unit budget news, told as a USD budget's (the window, the gate, forwarding). */
  function announceUnitBudgets(connectionId: string): void {
    const news = unitBudgets.check(connectionId)
    if (news.length === 0) return
    for (const event of news) events.emit('monitor:event', event)
    gate.announce(connectionId, { events: news, away: false })
    forwarding.forward(connectionId, news)
    changed()
  }

  /** What is news of a connection's budgets, taken like a monitor event; returned for the gate. */
  function announceBudgets(open: OpenConnection): MonitorEvent[] {
    const news = budgets.check(open)
    for (const event of news) {
      open.attention.take(event)
      events.emit('monitor:event', event)
    }
    if (news.length > 0) changed()
    return news
  }

  const ctx: AppContext = {
    ports,
    known,
    keys,
    clock,
    random,
    tz,
    session,
    gate,
    pauses,
    budgets,
    unitBudgets,
    checkUnitBudgets: announceUnitBudgets,
    checkBudgets: (open) => {
      const news = announceBudgets(open)
      if (news.length === 0) return
      gate.announce(open.connection.id, { events: news, away: false })
      forwarding.forward(open.connection.id, news)
    },
    forwarding,
    presence,
    notices,
    events,
    updater,
    notes: () => notes,
    log,
    redact,
    demo: { active: false },
    settings,
    update,
    changed,
    reportError,
    get stopped() {
      return stopped
    }
  }

  const notifications = notificationControls(ctx)
  const handlers: Handlers = {
    ...settingsHandlers(ctx),
    ...connectionHandlers(ctx),
    ...projectHandlers(ctx),
    ...taskHandlers(ctx),
    ...costHandlers(ctx),
    ...attentionHandlers(ctx),
    ...budgetHandlers(ctx),
    ...notifications.handlers,
    ...systemHandlers(ctx),
    ...desktopHandlers(ctx),
    ...forwardingHandlers(ctx),
    ...agentHandlers(ctx)
  }

  return {
    handlers,
    on: (channel, listener) => events.on(channel, listener),
    getState: () => buildAppState(ctx),
    stateChanged: changed,
    async start() {
      if (stopped) return
      await beforeOpening(ctx)
      await session.start()
      updater.start()
    },
    async stop() {
      if (stopped) return
      stopped = true
      updater.stop()
      presence.dispose()
      pauses.dispose()
      gate.dispose()
      // A send under way has a moment to be answered (else it is sent again at the next start, with the same key).
      await forwarding.close()
      await session.stop()
      await budgets.settled()
      await unitBudgets.settled()
      await heldWriter.settled()
      statePush.cancel()
      events.removeAll()
    },
    setOnline: (online) => session.setRunning({ online }),
    suspend: () => session.setRunning({ suspended: true }),
    resume: () => session.setRunning({ suspended: false }),
    pollNow: () => handlers['monitor:poll-now'](),
    pauseNotifications: notifications.pause,
    startDemo: () => handlers['demo:start'](),
    reportInvalidRecord,
    openTask(projectId, taskId, connectionId) {
      let open: ReturnType<typeof session.resolve> | null = null
      try {
        open = session.resolve({ connectionId, projectId })
      } catch {
        // Not open (no key): the window still opens on the task and says why.
      }
      open?.monitor.focusTask(taskId)
      open?.monitor.focusProject(projectId)
      events.emit(
        'navigate:task',
        connectionId === undefined ? { projectId, taskId } : { projectId, taskId, connectionId }
      )
    },
    openProject(projectId) {
      try {
        // The connection watching it, else the active one (a link names no account).
        session.resolve({ projectId }).monitor.focusProject(projectId)
      } catch {
        // Not open (no key): the window still opens on the project and says why.
      }
      events.emit('navigate:project', { projectId })
    },
    get monitor() {
      return session.active()?.monitor ?? null
    },
    updater,
    log,
    reportError,
    redact,
    setDesktopNote(note, shown) {
      const others = notes.filter((n) => n.id !== note.id)
      notes = shown ? [...others, note] : others
      changed()
    }
  }
}
