// The composition root of the Electron main process: builds settings, secrets and the controller
// (all core), then wires the thin adapters (tray, window, notifications, IPC, power, shortcut).
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { app, globalShortcut, ipcMain, nativeTheme, net, powerMonitor, safeStorage, session, shell } from 'electron'
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
import { EVENT_CHANNELS } from '../shared/ipc'
import { isSafeExternalUrl } from '../shared/url'
import { createDemoRunner } from './demo'
import { registerIpcHandlers } from './ipc'
import { isDemoLaunch } from './launch'
import { wireLifecycle } from './lifecycle'
import { applyLaunchAtLogin } from './login'
import { createNotifier } from './notifications'
import type { RendererLocation } from './renderer-origin'
import { guardWebContents, hardenSession } from './security'
import { CONTENT_SECURITY_POLICY, devContentSecurityPolicy } from '../shared/csp'
import { isTrustedFrame } from './sender'
import { registerShowHideShortcut } from './shortcut'
import { createTray } from './tray'
import { createWindowManager } from './window'

const log = (message: string): void => console.log(`[agent-tray] ${message}`)

const mainDir = dirname(fileURLToPath(import.meta.url))
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
const loc: RendererLocation = {
  rendererFile: join(mainDir, '../renderer/index.html'),
  ...(devServerUrl ? { devServerUrl } : {})
}
const preloadPath = join(mainDir, '../preload/index.cjs')
const resourcesDir = app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources')

async function openExternal(url: string): Promise<void> {
  // Checked again here: whatever asks, only http(s) without credentials reaches the shell.
  if (!isSafeExternalUrl(url)) throw new Error('Only http and https links can be opened.')
  await shell.openExternal(url)
}

const demoRequested = isDemoLaunch(process.argv, process.env)

// The lock lives in userData, so userData is set first: the settings directory, shared with the CLI.
app.setPath('userData', settingsDir())
if (!app.requestSingleInstanceLock({ demo: demoRequested })) {
  // Another instance runs: it shows its window (second-instance below), and this one leaves.
  app.quit()
} else {
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
    saveWindowState: (state) => {
      void settings
        .update((draft) => {
          draft.window = state
        })
        .catch((e: unknown) => log(`window: ${firstLine(e)}`))
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
    createClient: (connection, apiKey) => createServiceClient({ baseUrl: connection.baseUrl, apiKey }),
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
  for (const channel of EVENT_CHANNELS) {
    ctl.on(channel, (payload) => windows.send(channel, payload))
  }
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
    net,
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
    tellUser: (message) => notifier.tell('Shortcut unavailable', message)
  })

  app.on('second-instance', (_event, _argv, _cwd, data) => {
    windows.show()
    if (typeof data === 'object' && data !== null && (data as { demo?: unknown }).demo === true) {
      void ctl.handlers['demo:start']().catch((e: unknown) => log(`demo: ${firstLine(e)}`))
    }
  })
  app.on('activate', () => windows.show())

  let quitting = false
  app.on('before-quit', (event) => {
    if (quitting) return
    quitting = true
    event.preventDefault()
    const shutdown = (async () => {
      shortcut.dispose()
      disposeLifecycle()
      await ctl.stop()
      await demo.close()
      tray.destroy()
    })()
    // Never hang on the way out: whatever is not written in 5 s is lost rather than the quit.
    const timeout = new Promise((resolve) => setTimeout(resolve, 5_000))
    void Promise.race([shutdown, timeout])
      .catch((e: unknown) => log(`shutdown: ${firstLine(e)}`))
      .finally(() => app.quit())
  })

  await ctl.start()
  if (demoRequested) await ctl.handlers['demo:start']().catch((e: unknown) => log(`demo: ${firstLine(e)}`))
  // First run, or nothing to watch yet: open the window so there is something to see.
  if (demoRequested || ctl.getState().connections.length === 0) windows.show()
  log(`started${demoRequested ? ' in demo mode' : ''}; settings in ${dir}`)
}
