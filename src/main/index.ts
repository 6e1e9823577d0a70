// The Electron main process: creates the platform's adapters (window, tray, notifications, the key
// store, IPC, power and network events, the shortcut) and hands them to the app's one composition
// (core/app/compose.ts), which the e2e host runs with its own adapters. Nothing here decides.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { app, BrowserWindow, clipboard, globalShortcut, ipcMain, nativeTheme, net, powerMonitor, protocol, safeStorage, session, shell } from 'electron'
import { saveFileWithDialog } from './save-file'
import ElectronStore from 'electron-store'
import { composeApp, type ComposedApp } from '../core/app/compose'
import { watchOnline } from '../core/app/online'
import { chooseSecretStore } from '../core/secrets/choose'
import { loadKeytar } from '../core/secrets/keytar-store'
import { firstLine } from '../core/secrets/types'
import { settingsDir } from '../core/settings/paths'
import { openSettings, settingsConfOptions } from '../core/settings/store'
import { isSafeExternalUrl } from '../shared/url'
import { CONTENT_SECURITY_POLICY, devContentSecurityPolicy } from '../shared/csp'
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, createAppProtocolHandler } from './app-protocol'
import { refuseDebuggingSwitches } from './debugging-switches'
import { createDemoRunner } from './demo'
import { createDockSync, dockIconVisible } from './dock'
import { isDemoLaunch, secondLaunchWantsDemo, type SecondInstanceData } from './launch'
import { applyLaunchAtLogin } from './login'
import { createNotifier } from './notifications'
import { createQuitHandler } from './quit'
import { createReadyQueue } from './ready-queue'
import type { RendererLocation } from './renderer-origin'
import { guardWebContents, hardenSession } from './security'
import { isTrustedFrame } from './sender'
import { registerShowHideShortcut } from './shortcut'
import { createTray } from './tray'
import { createWindowManager } from './window'
import { deepLinkInArgv } from '../core/desktop/deep-link-argv'
import { APP_ID } from '../core/desktop/app-id'
import { shortcutNote } from '../core/desktop/shortcut-note'
import { aboutFacts, loadUpdater, registerLinkScheme, startMainLog } from './desktop'
import { checkTrayHost } from './tray-host'
import { acceleratorLabel } from '../shared/accelerator'

if (app.isPackaged) refuseDebuggingSwitches(process.argv, process.platform, (code, why) => (process.stderr.write(why), process.exit(code)))

// The lock and the log's directory live in userData, so it is set first: the settings directory,
// shared with the CLI. Then the log file: everything after it, unexpected errors included, is
// written there (redacted).
app.setPath('userData', settingsDir())
const mainLog = startMainLog()
const log = mainLog.log
const mainDir = dirname(fileURLToPath(import.meta.url))
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
// Production serves out/renderer at app://agent-tray/ (never file://); development, the dev server.
const loc: RendererLocation = devServerUrl ? { devServerUrl } : {}
const resourcesDir = app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources')
const iconPath = join(resourcesDir, 'icon.png')
const timers = { setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms), clearTimeout: (h: unknown) => clearTimeout(h as NodeJS.Timeout) }

async function openExternal(url: string): Promise<void> {
  // Checked again here: whatever asks, only http(s) without credentials reaches the shell.
  if (!isSafeExternalUrl(url)) throw new Error('Only http and https links can be opened.')
  await shell.openExternal(url)
}

const demoRequested = isDemoLaunch(process.argv, process.env)
/** What a second launch or a dock click may ask for, once start() has composed the app. */
const whenReady = createReadyQueue<ComposedApp>((key, e) => log(`${key}: ${firstLine(e)}`))

if (!app.requestSingleInstanceLock({ demo: demoRequested } satisfies SecondInstanceData)) {
  app.quit()
} else {
  // Windows toasts carry the app's name and follow its notification settings by this id.
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID)
  registerLinkScheme(app, log)
  // A link on this first launch (Windows, Linux), and macOS's way of handing one over at any time.
  const launchLink = deepLinkInArgv(process.argv)
  if (launchLink !== null) whenReady.run('link', (a) => a.openDeepLink(launchLink))
  app.on('open-url', (event, url) => {
    event.preventDefault()
    whenReady.run('link', (a) => a.openDeepLink(url))
  })
  app.on('render-process-gone', (_event, _contents, details) => log(`window: renderer gone (${details.reason}, exit ${details.exitCode})`))
  app.on('child-process-gone', (_event, details) => log(`${details.type}: process gone (${details.reason}, exit ${details.exitCode})`))
  // Before 'ready' (Electron allows it only then): our page's scheme, standard and secure.
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES])
  // Registered now: a launch or a click while we start is kept, not lost.
  app.on('second-instance', (_event, argv, _cwd, data) => {
    whenReady.run('show', (a) => a.tray.perform({ type: 'open-window' }))
    // A second launch with a link (agent-tray open, the OS's handler) hands it over here.
    const link = deepLinkInArgv(argv)
    if (link !== null) whenReady.run('link', (a) => a.openDeepLink(link))
    if (secondLaunchWantsDemo(data)) whenReady.run('demo', (a) => void a.controller.startDemo().catch((e: unknown) => log(`demo: ${firstLine(e)}`)))
  })
  app.on('activate', () => whenReady.run('show', (a) => a.tray.perform({ type: 'open-window' })))
  app.enableSandbox()
  guardWebContents(app, { loc, openExternal: (url) => void openExternal(url).catch((e: unknown) => log(`shell: ${firstLine(e)}`)), log })
  // A tray app keeps running with no window.
  app.on('window-all-closed', () => {})
  app.whenReady().then(start).catch((e: unknown) => {
    log(`startup failed: ${firstLine(e)}`)
    app.exit(1)
  })
}

async function start(): Promise<void> {
  // Before the saved theme is applied: the tray icon's ink follows the system's panel.
  const systemDarkAtStart = nativeTheme.shouldUseDarkColors
  hardenSession(session.defaultSession, devServerUrl ? devContentSecurityPolicy(devServerUrl) : CONTENT_SECURITY_POLICY)
  // Before any window: the page and its assets come from here, each answer with our CSP.
  protocol.handle(APP_SCHEME, createAppProtocolHandler({ root: join(mainDir, '../renderer'), log }))

  const dir = settingsDir()
  // A factory: the store's own errors (a directory in place of config.json) become one readable line.
  const settings = await openSettings({ dir, conf: () => new ElectronStore(settingsConfOptions(dir)) })
  const secrets = await chooseSecretStore({ loadKeytar, safeStorage, allowBasicText: settings.read().allowBasicTextSecrets, ciphertexts: settings.ciphertexts })
  const demo = createDemoRunner()
  const syncDock = createDockSync(app.dock)
  const applyDock = (windowVisible: boolean): void => {
    const { hideDockIcon, pinned } = settings.read()
    syncDock(dockIconVisible({ platform: process.platform, hideDockIcon, pinned, windowVisible }))
  }
  // The tray exists before the window asks where it is; the composed app before any click reaches these.
  let tray: ReturnType<typeof createTray> | null = null
  let composed: ComposedApp | null = null
  const windows = createWindowManager({
    loc,
    preloadPath: join(mainDir, '../preload/index.cjs'),
    iconPath,
    readWindowState: () => settings.read().window,
    saveWindowState: (state) => settings.update((draft) => void (draft.window = state)).then(() => undefined),
    pinned: () => settings.read().pinned,
    trayBounds: () => tray?.bounds() ?? null,
    onVisibilityChange: applyDock,
    log
  })
  const notifier = createNotifier({
    iconPath,
    sound: () => settings.read().notifications.sound,
    onClick: (click) => composed?.notificationClicked(click),
    hasInterface: (projectId) => composed?.controller.getState().projects.some((p) => p.watched.projectId === projectId && !!p.project?.prebuilt_url) ?? false,
    openInterface: (projectId) => composed?.openInterface(projectId),
    log
  })
  const updates = await loadUpdater(app, { info: log, warn: log, error: (m: unknown) => log(String(m)) })
  tray = createTray({
    trayDir: join(resourcesDir, 'tray'),
    platform: process.platform,
    perform: (action) => composed?.tray.perform(action),
    onClick: (bounds) => windows.toggleFromTray(bounds && bounds.width > 0 ? bounds : null),
    systemDarkAtStart
  })
  const shortcut = registerShowHideShortcut({
    globalShortcut,
    accelerator: settings.read().shortcut,
    toggle: () => windows.toggle(),
    log,
    tellUser: (message) => notifier.tell('Shortcut unavailable', message),
    // Told once, not on every launch; the flag clears once the keys are ours again.
    notice: {
      shown: settings.read().shortcutNoticeShown,
      remember: (shown) => void settings.update((draft) => void (draft.shortcutNoticeShown = shown)).catch((e: unknown) => log(`shortcut: ${firstLine(e)}`))
    }
  })
  let pinned = settings.read().pinned

  let launchAtLogin: boolean | null = null
  const composedApp = composeApp({
    settings,
    secrets,
    window: windows,
    notify: (n) => notifier.notify(n),
    renderTray: (view) => tray?.render(view),
    openExternal,
    ipc: { ipcMain, isTrusted: (frame) => isTrustedFrame(frame, windows.mainFrames(), loc) },
    power: powerMonitor,
    watchOnline: (onChange) => watchOnline({ isOnline: () => net.isOnline(), onChange, timers: { setInterval, clearInterval: (h) => clearInterval(h as NodeJS.Timeout) } }),
    startDemo: () => demo.start(),
    quit: () => app.quit(),
    writeClipboardText: (text) => clipboard.writeText(text),
    saveFile: (suggestedName, contents) => saveFileWithDialog(BrowserWindow.getFocusedWindow(), suggestedName, contents),
    changeShortcut: (accelerator) => shortcut.change(accelerator),
    updater: updates.updater,
    ...(updates.unavailable !== undefined ? { updatesUnavailable: updates.unavailable } : {}),
    about: () => aboutFacts(app, dir, mainLog.file),
    openLogs: async () => shell.showItemInFolder(mainLog.file),
    onError: (context, error) => mainLog.error(context, error),
    onSettingsChanged: (current) => {
      nativeTheme.themeSource = current.theme
      if (current.pinned !== pinned) {
        pinned = current.pinned
        windows.setPinned(pinned)
      }
      applyDock(windows.isVisible())
      if (launchAtLogin === current.launchAtLogin) return
      launchAtLogin = current.launchAtLogin
      const exec = process.env.APPIMAGE ?? process.execPath
      void applyLaunchAtLogin({ enabled: current.launchAtLogin, platform: process.platform, app, packaged: app.isPackaged, exec, env: process.env, log }).catch(
        (e: unknown) => log(`login: ${firstLine(e)}`)
      )
    },
    log
  })
  composed = composedApp
  mainLog.setRedactor(composedApp.redact)
  for (const note of notifier.notes()) composedApp.setDesktopNote(note, true)

  const missingShortcut = shortcutNote({ platform: process.platform, registered: shortcut.registered, env: process.env, keys: acceleratorLabel(shortcut.accelerator, process.platform === 'darwin') })
  if (missingShortcut) composedApp.setDesktopNote(missingShortcut, true)
  void checkTrayHost({ settings, composed: composedApp, tell: (title, body) => notifier.tell(title, body), log })

  // The window's bounds first, while it still exists; then everything else, in order.
  const steps = [
    { name: 'window bounds', run: () => windows.flushBounds() },
    { name: 'shortcut', run: () => shortcut.dispose() },
    { name: 'app', run: () => composedApp.stop() },
    { name: 'demo', run: () => demo.close() },
    { name: 'tray', run: () => tray?.destroy() }
  ]
  app.on('before-quit', createQuitHandler({ steps, quit: () => app.quit(), timers, log }))

  await composedApp.start({ demo: demoRequested })
  whenReady.ready(composedApp)
  log(`started${demoRequested ? ' in demo mode' : ''}; settings in ${dir}`)
}
