// The app's one composition, run by the Electron main process (src/main/start.ts) and by the e2e
// test host alike: each passes its own platform ports (the key store, the notifier, the window,
// the tray's view, the IPC transport, power and network events), and everything that decides
// is built here from core. Only the ports differ between the app and its end-to-end tests.
import { parseDeepLink } from '../../shared/deep-link'
import type { AboutInfo, DesktopNote } from '../../shared/desktop'
import type { EventChannel, EventContract } from '../../shared/ipc'
import type { Settings } from '../../shared/settings'
import { isSafeExternalUrl } from '../../shared/url'
import { createServiceClient } from '../client'
import type { InterfaceRef } from '../desktop/notification-extras'
import { type PresenceSource, watchPresence } from '../forward/presence'
import { rememberKeys } from '../log/known-keys'
import type { Notification } from '../notify/policy'
import { redactSecrets } from '../secrets/redact'
import { firstLine, type SecretStore } from '../secrets/types'
import type { SettingsStore } from '../settings/store'
import { createTrayModel, type TrayModel, type TrayView } from '../tray/model'
import type { DesktopNotification } from '../tray/notification'
import { type AppUpdaterLike, createUpdater } from '../update/updater'
import type { Clock } from '../util/clock'
import { systemClock } from '../util/clock'
import { type AppController, createAppController } from './controller'
import type { AppControllerDeps, DemoService } from './deps'
import { dispatch } from './dispatch'
import { forwardEvents, type FrameLike, type IpcMainLike, registerIpcHandlers } from './ipc'
import { type PowerEvents, type StartOnlineWatcher, wireLifecycle } from './lifecycle'

/** The window, as the app drives it: shown on demand, sent the contract's events. */
export interface WindowPort {
  show(): void
  send<E extends EventChannel>(channel: E, payload: EventContract[E]): void
}

/** Where a notification click leads. */
export type NotificationClick = DesktopNotification['click']

export interface AppPorts {
  settings: SettingsStore
  secrets: SecretStore
  window: WindowPort
  /** Shows a desktop notification (the click comes back through ComposedApp.notificationClicked). */
  notify(notification: Notification): void
  /** Draws the tray (icon, tooltip, menu); absent where there is none. */
  renderTray?(view: TrayView): void
  /** Opens an http(s) URL already checked by the app. */
  openExternal(url: string): Promise<void>
  ipc: { ipcMain: IpcMainLike; isTrusted(frame: FrameLike | null): boolean }
  power: PowerEvents
  /** Who is at this computer (lock events, idle time: powerMonitor); absent: the user counts as at the desk. */
  presence?: PresenceSource
  /** The forwarding sender's fetch (tests); default the global one. */
  forwardFetch?: typeof globalThis.fetch
  watchOnline: StartOnlineWatcher
  /** Starts a reference service for the demo; absent where there is no demo. */
  startDemo?(): Promise<DemoService>
  /** The tray's Quit. */
  quit(): void
  /** After the settings changed (theme, launch at login, the pin, the Dock: what only the platform applies). */
  onSettingsChanged?(settings: Settings): void
  /** Puts text on the system clipboard (the window's Copy, and Copy diagnostics). */
  writeClipboardText?(text: string): Promise<void>
  /**
   * Asks where to save a file (a save dialog, `suggestedName` offered) and writes `contents` there:
   * the path, or null when the user cancelled. Absent where files cannot be saved.
   */
  saveFile?(suggestedName: string, contents: string): Promise<string | null>
  /** Makes `accelerator` the show/hide shortcut: null once it is ours, else why not (the old one is kept). */
  changeShortcut?(accelerator: string): string | null
  log(message: string): void
  /** The app's own failures (a write that failed, a handler that threw); default: log them. */
  onError?(context: string, error: unknown): void
  /** Defaults: the real service client, the system clock, Math.random, this machine's zone. */
  createClient?: AppControllerDeps['createClient']
  clock?: Clock
  random?: () => number
  tz?: AppControllerDeps['tz']
  stateIntervalMs?: number
  /** electron-updater's autoUpdater; null or absent where this build cannot update itself (`updatesUnavailable` says why). */
  updater?: AppUpdaterLike | null
  updatesUnavailable?: string
  /** Versions, platform and directories for About. */
  about?: () => Omit<AboutInfo, 'keyStore' | 'update'>
  /** Shows the log file in the file manager. */
  openLogs?(): Promise<void>
}

export interface ComposedApp {
  readonly controller: AppController
  readonly tray: TrayModel
  /** Starts polling; with `demo`, starts the demo first. Opens the window when there is nothing to watch yet. */
  start(options?: { demo?: boolean }): Promise<void>
  /** A click on a notification the app showed. */
  notificationClicked(click: NotificationClick): void
  /** Whether a notification may offer 'Open the agent interface': the project has a prebuilt interface the app would open. */
  hasInterface(project: InterfaceRef): boolean
  /** A notification's 'Open the agent interface': the project's prebuilt interface in the browser, or the window on the project. */
  openInterface(project: InterfaceRef): void
  /** An agent-tray:// link from outside (launch, second launch, open-url): opens the window there, or is refused and logged. */
  openDeepLink(text: string): void
  /** Takes every key this run has held out of a text: the log's redaction. */
  redact(text: string): string
  /** Notes this desktop needs explained (Linux tray, Wayland shortcut, sound), shown in Settings. */
  setDesktopNote(note: DesktopNote, shown: boolean): void
  /** Stops polling and unhooks every port; writes what is pending. */
  stop(): Promise<void>
}

export function composeApp(ports: AppPorts): ComposedApp {
  const keys = rememberKeys(ports.secrets)
  // The one redaction (core/secrets/redact.ts): the key as sent, JSON-escaped or URL-encoded.
  const redactKeys = (text: string): string => redactSecrets(text, keys.list())
  const log = (message: string): void => ports.log(redactKeys(message))
  const onError = ports.onError ?? ((context: string, error: unknown) => log(`${context}: ${firstLine(error)}`))
  let notes: DesktopNote[] = []
  let changed = (): void => {}
  // A lock or unlock changes what Settings → Forwarding shows.
  const presence = ports.presence ? watchPresence(ports.presence, () => changed()) : undefined
  const updater = createUpdater({
    updater: ports.updater ?? null,
    ...(ports.updatesUnavailable !== undefined ? { unavailable: ports.updatesUnavailable } : {}),
    enabled: ports.settings.read().checkForUpdates,
    clock: ports.clock ?? systemClock,
    onChange: () => changed(),
    log
  })
  const controller = createAppController({
    settings: ports.settings,
    secrets: keys.store,
    createClient:
      ports.createClient ??
      ((connection, apiKey, options) => createServiceClient({ ...options, baseUrl: connection.baseUrl, apiKey })),
    openExternal: ports.openExternal,
    // The demo's key is held in memory, not stored (demo-connection.ts): the log learns it here.
    ...(ports.startDemo
      ? { startDemo: async () => ports.startDemo!().then((demo) => (keys.add(demo.apiKey), demo)) }
      : {}),
    notify: ports.notify,
    onError,
    onSettingsChanged: () => {
      const current = ports.settings.read()
      updater.setEnabled(current.checkForUpdates)
      ports.onSettingsChanged?.(current)
    },
    ...(ports.writeClipboardText
      ? { writeClipboardText: async (text: string) => ports.writeClipboardText?.(text) }
      : {}),
    ...(ports.saveFile ? { saveFile: ports.saveFile } : {}),
    ...(ports.changeShortcut
      ? { changeShortcut: (accelerator: string) => ports.changeShortcut?.(accelerator) ?? null }
      : {}),
    ...(ports.clock ? { clock: ports.clock } : {}),
    ...(ports.random ? { random: ports.random } : {}),
    ...(ports.tz !== undefined ? { tz: ports.tz } : {}),
    ...(ports.stateIntervalMs !== undefined ? { stateIntervalMs: ports.stateIntervalMs } : {}),
    ...(presence ? { presence } : {}),
    ...(ports.forwardFetch ? { forwardFetch: ports.forwardFetch } : {}),
    desktop: {
      updater,
      about:
        ports.about ??
        (() => ({
          version: '0.0.0',
          electron: null,
          chrome: null,
          node: process.versions.node,
          platform: `${process.platform} ${process.arch}`,
          settingsDir: '',
          logFile: null
        })),
      openLogs: () => ports.openLogs?.() ?? Promise.reject(new Error('no log file')),
      notes: () => notes,
      log,
      redact: redactKeys
    }
  })
  changed = () => controller.stateChanged()

  const tray = createTrayModel({
    initial: controller.getState(),
    render: (view) => ports.renderTray?.(view),
    actions: {
      showWindow: () => ports.window.show(),
      openTask: (projectId, taskId, connectionId) => controller.openTask(projectId, taskId, connectionId),
      openSettings: () => {
        ports.window.show()
        ports.window.send('navigate:settings', {})
      },
      pollNow: () => controller.pollNow(),
      pauseNotifications: (minutes) => controller.pauseNotifications(minutes),
      installUpdate: () => updater.install(),
      openLogs: () => ports.openLogs?.() ?? Promise.resolve(),
      quit: () => ports.quit(),
      log
    }
  })

  // The window opens on 'navigate:task' first (subscribed before the forwarding), then gets it.
  const unsubscribe = [
    controller.on('navigate:task', () => ports.window.show()),
    controller.on('navigate:project', () => ports.window.show()),
    forwardEvents(controller, ports.window),
    controller.on('app:state', (state) => tray.setState(state)),
    controller.on('monitor:event', (event) => tray.takeEvent(event))
  ]
  const unregister = registerIpcHandlers({
    ipcMain: ports.ipc.ipcMain,
    dispatch: (channel, raw) =>
      dispatch(controller.handlers, channel, raw, { onInternalError: (c, e) => onError(`ipc ${c}`, e) }),
    isTrusted: (frame) => ports.ipc.isTrusted(frame),
    log
  })
  const disposeLifecycle = wireLifecycle({
    powerMonitor: ports.power,
    watchOnline: ports.watchOnline,
    controller,
    onOnlineChange: (online) => {
      tray.setOnline(online)
      updater.setOnline(online)
    },
    log
  })
  ports.onSettingsChanged?.(ports.settings.read())

  /** The project's prebuilt interface, if it is one the app may open in the browser (on its account, when named). */
  function interfaceUrl({ projectId, connectionId }: InterfaceRef): string | null {
    const onAccount = (p: { connectionId: string }): boolean =>
      connectionId === undefined || p.connectionId === connectionId
    const url = controller.getState().projects.find((p) => p.watched.projectId === projectId && onAccount(p))
      ?.project?.prebuilt_url
    return url && isSafeExternalUrl(url) ? url : null
  }

  let stopped = false
  return {
    controller,
    tray,
    async start(options = {}) {
      await controller.start()
      updater.start()
      if (options.demo) await controller.startDemo().catch((e: unknown) => log(`demo: ${firstLine(e)}`))
      // First run, or the demo: open the window so there is something to see.
      if (options.demo || controller.getState().connections.length === 0) ports.window.show()
    },
    notificationClicked(click) {
      if (click.type === 'task') controller.openTask(click.projectId, click.taskId, click.connectionId)
      else ports.window.show()
    },
    openDeepLink(text) {
      const parsed = parseDeepLink(text)
      if (!parsed.ok) {
        // Quoted and cut: the text came from any program on this machine.
        log(`deep link refused: ${JSON.stringify(text.slice(0, 120))} ${parsed.problem}`)
        return
      }
      // A task or a project: its navigate event shows the window (below); the list, here.
      if (parsed.link.kind === 'task') controller.openTask(parsed.link.projectId, parsed.link.taskId)
      else if (parsed.link.kind === 'project') controller.openProject(parsed.link.projectId)
      else ports.window.show()
    },
    redact: redactKeys,
    hasInterface: (project) => interfaceUrl(project) !== null,
    openInterface(project) {
      const url = interfaceUrl(project)
      if (url !== null)
        return void ports.openExternal(url).catch((e: unknown) => onError('opening the agent interface', e))
      controller.openProject(project.projectId)
    },
    setDesktopNote(note, shown) {
      const others = notes.filter((n) => n.id !== note.id)
      notes = shown ? [...others, note] : others
      controller.stateChanged()
    },
    async stop() {
      if (stopped) return
      stopped = true
      updater.stop()
      disposeLifecycle()
      presence?.dispose()
      unregister()
      for (const off of unsubscribe) off()
      await controller.stop()
    }
  }
}
