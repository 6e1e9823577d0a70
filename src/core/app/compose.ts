// The one composition, shared by the Electron main process and the e2e host: only the platform ports differ, so the
// end-to-end tests run the app's real logic.
import { parseDeepLink } from '../../shared/deep-link'
import type { DesktopNote } from '../../shared/desktop'
import { isSafeExternalUrl } from '../../shared/url'
import type { InterfaceRef } from '../desktop/notification-extras'
import { firstLine } from '../secrets/types'
import { createTrayModel, type TrayModel } from '../tray/model'
import type { DesktopNotification } from '../tray/notification'
import { type AppController, createAppController } from './controller'
import { dispatch } from './dispatch'
import { forwardEvents, registerIpcHandlers } from './ipc'
import { wireLifecycle } from './lifecycle'
import type { AppPorts } from './ports'

/** Where a notification click leads. */
export type NotificationClick = DesktopNotification['click']

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
  const controller = createAppController(ports)
  const { updater, log, reportError: onError } = controller

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
    redact: (text) => controller.redact(text),
    hasInterface: (project) => interfaceUrl(project) !== null,
    openInterface(project) {
      const url = interfaceUrl(project)
      if (url !== null)
        return void ports.openExternal(url).catch((e: unknown) => onError('opening the agent interface', e))
      controller.openProject(project.projectId)
    },
    setDesktopNote: (note, shown) => controller.setDesktopNote(note, shown),
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
