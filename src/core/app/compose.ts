// The app's one composition, run by the Electron main process (src/main/index.ts) and by the e2e
// test host alike: each passes its own platform ports (the key store, the notifier, the window,
// the tray's view, the IPC transport, power and network events), and everything that decides
// is built here from core. Only the ports differ between the app and its end-to-end tests.
import type { EventChannel, EventContract } from '../../shared/ipc'
import type { Settings } from '../../shared/settings'
import { createServiceClient } from '../client'
import type { Notification } from '../notify/policy'
import { firstLine, type SecretStore } from '../secrets/types'
import type { SettingsStore } from '../settings/store'
import { createTrayModel, type TrayModel, type TrayView } from '../tray/model'
import type { DesktopNotification } from '../tray/notification'
import type { Clock } from '../util/clock'
import { createAppController, type AppController } from './controller'
import type { AppControllerDeps, DemoService } from './deps'
import { dispatch } from './dispatch'
import { forwardEvents, registerIpcHandlers, type FrameLike, type IpcMainLike } from './ipc'
import { wireLifecycle, type PowerEvents, type StartOnlineWatcher } from './lifecycle'

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
  watchOnline: StartOnlineWatcher
  /** Starts a reference service for the demo; absent where there is no demo. */
  startDemo?(): Promise<DemoService>
  /** The tray's Quit. */
  quit(): void
  /** After the settings changed (theme, launch at login, the pin, the Dock: what only the platform applies). */
  onSettingsChanged?(settings: Settings): void
  /** Puts text on the system clipboard (the window's Copy). */
  writeClipboardText?(text: string): void
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
}

export interface ComposedApp {
  readonly controller: AppController
  readonly tray: TrayModel
  /** Starts polling; with `demo`, starts the demo first. Opens the window when there is nothing to watch yet. */
  start(options?: { demo?: boolean }): Promise<void>
  /** A click on a notification the app showed. */
  notificationClicked(click: NotificationClick): void
  /** Stops polling and unhooks every port; writes what is pending. */
  stop(): Promise<void>
}

export function composeApp(ports: AppPorts): ComposedApp {
  const { log } = ports
  const onError = ports.onError ?? ((context: string, error: unknown) => log(`${context}: ${firstLine(error)}`))
  const controller = createAppController({
    settings: ports.settings,
    secrets: ports.secrets,
    createClient: ports.createClient ?? ((connection, apiKey, options) => createServiceClient({ ...options, baseUrl: connection.baseUrl, apiKey })),
    openExternal: ports.openExternal,
    ...(ports.startDemo ? { startDemo: ports.startDemo } : {}),
    notify: ports.notify,
    onError,
    onSettingsChanged: () => ports.onSettingsChanged?.(ports.settings.read()),
    ...(ports.writeClipboardText ? { writeClipboardText: (text: string) => ports.writeClipboardText?.(text) } : {}),
    ...(ports.changeShortcut ? { changeShortcut: (accelerator: string) => ports.changeShortcut?.(accelerator) ?? null } : {}),
    ...(ports.clock ? { clock: ports.clock } : {}),
    ...(ports.random ? { random: ports.random } : {}),
    ...(ports.tz !== undefined ? { tz: ports.tz } : {}),
    ...(ports.stateIntervalMs !== undefined ? { stateIntervalMs: ports.stateIntervalMs } : {})
  })

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
      quit: () => ports.quit(),
      log
    }
  })

  // The window opens on 'navigate:task' first (subscribed before the forwarding), then gets it.
  const unsubscribe = [
    controller.on('navigate:task', () => ports.window.show()),
    forwardEvents(controller, ports.window),
    controller.on('app:state', (state) => tray.setState(state)),
    controller.on('monitor:event', (event) => tray.takeEvent(event))
  ]
  const unregister = registerIpcHandlers({
    ipcMain: ports.ipc.ipcMain,
    dispatch: (channel, raw) => dispatch(controller.handlers, channel, raw, { onInternalError: (c, e) => onError(`ipc ${c}`, e) }),
    isTrusted: (frame) => ports.ipc.isTrusted(frame),
    log
  })
  const disposeLifecycle = wireLifecycle({
    powerMonitor: ports.power,
    watchOnline: ports.watchOnline,
    controller,
    onOnlineChange: (online) => tray.setOnline(online),
    log
  })
  ports.onSettingsChanged?.(ports.settings.read())

  let stopped = false
  return {
    controller,
    tray,
    async start(options = {}) {
      await controller.start()
      if (options.demo) await controller.startDemo().catch((e: unknown) => log(`demo: ${firstLine(e)}`))
      // First run, or the demo: open the window so there is something to see.
      if (options.demo || controller.getState().connections.length === 0) ports.window.show()
    },
    notificationClicked(click) {
      if (click.type === 'task') controller.openTask(click.projectId, click.taskId, click.connectionId)
      else ports.window.show()
    },
    async stop() {
      if (stopped) return
      stopped = true
      disposeLifecycle()
      unregister()
      for (const off of unsubscribe) off()
      await controller.stop()
    }
  }
}
