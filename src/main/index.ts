// The composition root of the Electron main process: builds settings, secrets and the controller
// (all core), then wires the thin adapters (tray, window, notifications, IPC, power, shortcut).
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { app, globalShortcut, ipcMain, nativeTheme, net, powerMonitor, protocol, safeStorage, session, shell } from 'electron'
import ElectronStore from 'electron-store'
import type { AppController } from '../core/app/controller'
import { createAppController } from '../core/app/controller'
import { dispatch } from '../core/app/dispatch'
import { createServiceClient } from '../core/client'
import { chooseSecretStore } from '../core/secrets/choose'
import { loadKeytar } from '../core/secrets/keytar-store'
import { firstLine } from '../core/secrets/types'
import { settingsDir } from '../core/settings/paths'
import type { SettingsStore } from '../core/settings/store'
import { openSettings, settingsConfOptions } from '../core/settings/store'
import type { TrayAction } from '../core/tray/menu'
import type { TrayTasks } from '../core/tray/tasks'
import { applyMonitorEvent, keepWatched, tasksOf } from '../core/tray/tasks'
import { isSafeExternalUrl } from '../shared/url'
import { CONTENT_SECURITY_POLICY, devContentSecurityPolicy } from '../shared/csp'
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './app-protocol'
import { createDemoRunner } from './demo'
import { forwardEvents, registerIpcHandlers } from './ipc'
import type { SecondInstanceData } from './launch'
import { isDemoLaunch, secondLaunchWantsDemo } from './launch'
import { wireLifecycle } from './lifecycle'
import { applyLaunchAtLogin } from './login'
import { createNotifier } from './notifications'
import { watchOnline } from './online'
import { createQuitHandler } from './quit'
import { createReadyQueue } from './ready-queue'
import type { RendererLocation } from './renderer-origin'
import { guardWebContents, hardenSession } from './security'
import { isTrustedFrame } from './sender'
import { registerShowHideShortcut } from './shortcut'
import { createTray } from './tray'
import { createWindowManager } from './window'

const log = (message: string): void => console.log(`[agent-tray] ${message}`)

const mainDir = dirname(fileURLToPath(import.meta.url))
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
// Production serves out/renderer at app://agent-tray/ (never file://); development, the dev server.
const loc: RendererLocation = devServerUrl ? { devServerUrl } : {}
const rendererDir = join(mainDir, '../renderer')
const preloadPath = join(mainDir, '../preload/index.cjs')
const resourcesDir = app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources')

async function openExternal(url: string): Promise<void> {
  // Checked again here: whatever asks, only http(s) without credentials reaches the shell.
  if (!isSafeExternalUrl(url)) throw new Error('Only http and https links can be opened.')
  await shell.openExternal(url)
}

const demoRequested = isDemoLaunch(process.argv, process.env)

/** What a second launch or a dock click may ask for, once start() has built it. */
interface Ready {
  showWindow(): void
  startDemo(): void
}
const whenReady = createReadyQueue<Ready>((key, e) => log(`${key}: ${firstLine(e)}`))

// The lock lives in userData, so userData is set first: the settings directory, shared with the CLI.
app.setPath('userData', settingsDir())
const secondInstanceData: SecondInstanceData = { demo: demoRequested }
if (!app.requestSingleInstanceLock(secondInstanceData)) {
  // Another instance runs: it shows its window (second-instance below), and this one leaves.
  app.quit()
} else {
  // Before 'ready' (Electron allows it only then): our page's scheme, standard and secure.
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES])
  // Registered now, not at the end of start(): a launch or a click while we start is kept, not lost.
  app.on('second-instance', (_event, _argv, _cwd, data) => {
    whenReady.run('show', (r) => r.showWindow())
    if (secondLaunchWantsDemo(data)) whenReady.run('demo', (r) => r.startDemo())
  })
  app.on('activate', () => whenReady.run('show', (r) => r.showWindow()))
  app.enableSandbox()
  guardWebContents(app, {
    loc,
    openExternal: (url) => void openExternal(url).catch((e: unknown) => log(`shell: ${firstLine(e)}`)),
    log
  })
  // A tray app keeps running with no window.
  app.on('window-all-closed', () => {})
  app
    .whenReady()
    .then(start)
    .catch((e: unknown) => {
      log(`startup failed: ${firstLine(e)}`)
      app.exit(1)
    })
}

async function start(): Promise<void> {
  // Before the saved theme is applied: the tray icon's ink follows the system's panel.
  const systemDarkAtStart = nativeTheme.shouldUseDarkColors
  hardenSession(session.defaultSession, devServerUrl ? devContentSecurityPolicy(devServerUrl) : CONTENT_SECURITY_POLICY)
  // Before any window: the page and its assets come from here, each answer with our CSP.
  protocol.handle(APP_SCHEME, createAppProtocolHandler({ root: rendererDir, log }))

  const dir = settingsDir()
  const settings = await openSettings({ dir, conf: new ElectronStore(settingsConfOptions(dir)) })
  const secrets = await chooseSecretStore({
    loadKeytar,
    safeStorage,
    allowBasicText: settings.read().allowBasicTextSecrets,
    ciphertexts: settings.ciphertexts
  })
  const demo = createDemoRunner()

  const windows = createWindowManager({
    loc,
    preloadPath,
    iconPath: join(resourcesDir, 'icon.png'),
    readWindowState: () => settings.read().window,
    saveWindowState: async (state) => {
      await settings.update((draft) => {
        draft.window = state
      })
    },
    log
  })

  let controller: AppController | null = null
  const notifier = createNotifier({
    iconPath: join(resourcesDir, 'icon.png'),
    sound: () => settings.read().notifications.sound,
    onClick: (click) => {
      if (click.type === 'task' && controller) controller.openTask(click.projectId, click.taskId)
      else windows.show()
    },
    log
  })

  const applied = { launchAtLogin: null as boolean | null }
  const applySettings = (s: SettingsStore): void => {
    const current = s.read()
    nativeTheme.themeSource = current.theme
    if (applied.launchAtLogin !== current.launchAtLogin) {
      applied.launchAtLogin = current.launchAtLogin
      void applyLaunchAtLogin({
        enabled: current.launchAtLogin,
        platform: process.platform,
        app,
        packaged: app.isPackaged,
        exec: process.env.APPIMAGE ?? process.execPath,
        env: process.env,
        log
      }).catch((e: unknown) => log(`login: ${firstLine(e)}`))
    }
  }

  const ctl = createAppController({
    settings,
    secrets,
    createClient: (connection, apiKey, options) => createServiceClient({ ...options, baseUrl: connection.baseUrl, apiKey }),
    openExternal,
    startDemo: () => demo.start(),
    notify: (n) => notifier.notify(n),
    onError: (context, error) => log(`${context}: ${firstLine(error)}`),
    onSettingsChanged: () => applySettings(settings)
  })
  controller = ctl
  applySettings(settings)

  registerIpcHandlers({
    ipcMain,
    dispatch: (channel, raw) =>
      dispatch(ctl.handlers, channel, raw, { onInternalError: (c, e) => log(`ipc ${c}: ${firstLine(e)}`) }),
    isTrusted: (frame) => isTrustedFrame(frame, windows.mainFrames(), loc),
    log
  })

  // Tray: state from the controller, task names from the monitor's events.
  let online = true
  let tasks: TrayTasks = {}
  const perform = (action: TrayAction): void => {
    switch (action.type) {
      case 'open-window':
        return windows.show()
      case 'open-task':
        return ctl.openTask(action.projectId, action.taskId)
      case 'poll-now':
        return void ctl.handlers['monitor:poll-now']().catch((e: unknown) => log(`poll: ${firstLine(e)}`))
      case 'pause-notifications':
        return void ctl.pauseNotifications(action.minutes).catch((e: unknown) => log(`pause: ${firstLine(e)}`))
      case 'resume-notifications':
        return void ctl.pauseNotifications(null).catch((e: unknown) => log(`resume: ${firstLine(e)}`))
      case 'preferences':
        windows.show()
        return windows.send('navigate:settings', {})
      case 'quit':
        return app.quit()
    }
  }
  const tray = createTray({ trayDir: join(resourcesDir, 'tray'), platform: process.platform, perform, onClick: () => windows.show(), systemDarkAtStart })
  const refreshTray = (): void => {
    const state = ctl.getState()
    tray.update({ app: state, online, tasksOf: (projectId) => tasksOf(tasks, state.activeConnectionId, projectId) })
  }
  refreshTray()

  // Events: every channel to the window; some also move the tray or open the window. The window
  // opens first on 'navigate:task' (registered before the forwarding), and gets it once loaded.
  ctl.on('navigate:task', () => windows.show())
  forwardEvents(ctl, windows)
  ctl.on('app:state', (state) => {
    if (state.activeConnectionId) {
      tasks = keepWatched(tasks, state.activeConnectionId, state.projects.map((p) => p.watched.projectId))
    }
    refreshTray()
  })
  ctl.on('monitor:event', (event) => {
    const next = applyMonitorEvent(tasks, event)
    if (next !== tasks) {
      tasks = next
      refreshTray()
    }
  })

  const disposeLifecycle = wireLifecycle({
    powerMonitor,
    watchOnline: (onChange) =>
      watchOnline({
        isOnline: () => net.isOnline(),
        onChange,
        timers: { setInterval: (fn, ms) => setInterval(fn, ms), clearInterval: (h) => clearInterval(h as NodeJS.Timeout) }
      }),
    controller: ctl,
    onOnlineChange: (value) => {
      online = value
      refreshTray()
    },
    log
  })
  const shortcut = registerShowHideShortcut({
    globalShortcut,
    toggle: () => windows.toggle(),
    log,
    tellUser: (message) => notifier.tell('Shortcut unavailable', message),
    // Told once, not on every launch; the flag clears once the keys are ours again.
    notice: {
      shown: settings.read().shortcutNoticeShown,
      remember: (shown) =>
        void settings
          .update((draft) => {
            draft.shortcutNoticeShown = shown
          })
          .catch((e: unknown) => log(`shortcut: ${firstLine(e)}`))
    }
  })

  // The window's bounds first, while it still exists; then everything else, in order.
  app.on(
    'before-quit',
    createQuitHandler({
      steps: [
        { name: 'window bounds', run: () => windows.flushBounds() },
        { name: 'shortcut', run: () => shortcut.dispose() },
        { name: 'lifecycle', run: () => disposeLifecycle() },
        { name: 'controller', run: () => ctl.stop() },
        { name: 'demo', run: () => demo.close() },
        { name: 'tray', run: () => tray.destroy() }
      ],
      quit: () => app.quit(),
      timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) },
      log
    })
  )

  await ctl.start()
  if (demoRequested) await ctl.handlers['demo:start']().catch((e: unknown) => log(`demo: ${firstLine(e)}`))
  // First run, or nothing to watch yet: open the window so there is something to see.
  if (demoRequested || ctl.getState().connections.length === 0) windows.show()
  whenReady.ready({
    showWindow: () => windows.show(),
    startDemo: () => void ctl.handlers['demo:start']().catch((e: unknown) => log(`demo: ${firstLine(e)}`))
  })
  log(`started${demoRequested ? ' in demo mode' : ''}; settings in ${dir}`)
}
