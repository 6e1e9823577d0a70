// Once Electron is ready: builds the platform's adapters and hands them to the one composition. Nothing here decides.
import { join } from 'node:path'
import {
  app,
  BrowserWindow,
  clipboard,
  globalShortcut,
  ipcMain,
  nativeTheme,
  net,
  powerMonitor,
  protocol,
  safeStorage,
  session,
  shell,
  systemPreferences
} from 'electron'
import ElectronStore from 'electron-store'
import { composeApp, type ComposedApp } from '../core/app/compose'
import { watchOnline } from '../core/app/online'
import { shortcutNote } from '../core/desktop/shortcut-note'
import { waylandWindowNote } from '../core/desktop/wayland-window-note'
import { chooseSecretStore } from '../core/secrets/choose'
import { loadKeytar } from '../core/secrets/keytar-store'
import { createPendingSecretStore } from '../core/secrets/pending'
import { firstLine } from '../core/secrets/types'
import { settingsDir } from '../core/settings/paths'
import { openSettings, settingsConfOptions } from '../core/settings/store'
import { startingTrayView, type TrayView } from '../core/tray/model'
import { acceleratorLabel } from '../shared/accelerator'
import { CONTENT_SECURITY_POLICY, devContentSecurityPolicy } from '../shared/csp'
import type { Settings } from '../shared/settings'
import { APP_SCHEME, createAppProtocolHandler } from './app-protocol'
import { systemClockLocale } from './clock-locale'
import { createDemoRunner } from './demo'
import { aboutFacts, loadUpdater, type MainLog } from './desktop'
import { createDockSync, dockIconVisible } from './dock'
import { applyLaunchAtLogin } from './login'
import { createNotifier } from './notifications'
import { presenceFrom } from './presence'
import { createQuitHandler } from './quit'
import type { ReadyQueue } from './ready-queue'
import type { RendererLocation } from './renderer-origin'
import { saveFileWithDialog } from './save-file'
import { hardenSession } from './security'
import { isTrustedFrame } from './sender'
import { registerShowHideShortcut } from './shortcut'
import { createTray } from './tray'
import { checkTrayHost } from './tray-host'
import { createWindowManager } from './window'

/** What the process entry (index.ts) worked out before Electron was ready. */
export interface StartContext {
  mainLog: MainLog
  loc: RendererLocation
  mainDir: string
  resourcesDir: string
  openExternal: (url: string) => Promise<void>
  demoRequested: boolean
  whenReady: ReadyQueue<ComposedApp>
}

export async function start({
  mainLog,
  loc,
  mainDir,
  resourcesDir,
  openExternal,
  demoRequested,
  whenReady
}: StartContext): Promise<void> {
  const log = mainLog.log
  const iconPath = join(resourcesDir, 'icon.png')
  const timers = {
    setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms),
    clearTimeout: (h: unknown) => clearTimeout(h as NodeJS.Timeout)
  }
  // Before the saved theme is applied: the tray icon's ink follows the system's panel.
  const systemDarkAtStart = nativeTheme.shouldUseDarkColors
  hardenSession(
    session.defaultSession,
    loc.devServerUrl ? devContentSecurityPolicy(loc.devServerUrl) : CONTENT_SECURITY_POLICY
  )
  // Before any window: the page and its assets come from here, each answer with our CSP.
  protocol.handle(APP_SCHEME, createAppProtocolHandler({ root: join(mainDir, '../renderer'), log }))

  const dir = settingsDir()
  const settings = await openSettings({
    dir,
    conf: () => {
      const store = new ElectronStore(settingsConfOptions(dir))
      // Its listener serves electron-store in a renderer, which ours never runs: only the IPC contract's channels stay.
      ipcMain.removeAllListeners('electron-store-get-data')
      return store
    }
  })
  // Not awaited: the keychain's probe may take 30 s (an unlock prompt); the tray and the window
  // come first, and every key read waits for the chosen store (core/secrets/pending.ts).
  const secrets = createPendingSecretStore(
    chooseSecretStore({
      loadKeytar,
      safeStorage,
      allowBasicText: settings.read().allowBasicTextSecrets,
      ciphertexts: settings.ciphertexts,
      forwardingCiphertexts: settings.forwardingCiphertexts
    })
  )
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
    hasInterface: (project) => composed?.hasInterface(project) ?? false,
    openInterface: (project) => composed?.openInterface(project),
    log
  })
  tray = createTray({
    trayDir: join(resourcesDir, 'tray'),
    platform: process.platform,
    perform: (action) => composed?.tray.perform(action),
    onClick: (bounds) => windows.toggleFromTray(bounds && bounds.width > 0 ? bounds : null),
    systemDarkAtStart
  })
  // Until the app has started, the tray says so; the model's views are drawn from then on.
  let starting = true
  let lastView: TrayView | null = null
  tray.render(startingTrayView())
  const updates = await loadUpdater(app, { info: log, warn: log, error: (m: unknown) => log(String(m)) })
  const shortcut = registerShowHideShortcut({
    globalShortcut,
    accelerator: settings.read().shortcut,
    toggle: () => windows.toggle(),
    log,
    tellUser: (message) => notifier.tell('Shortcut unavailable', message),
    // Told once, not on every launch; the flag clears once the keys are ours again.
    notice: {
      shown: settings.read().shortcutNoticeShown,
      remember: (shown) =>
        void settings
          .update((draft) => void (draft.shortcutNoticeShown = shown))
          .catch((e: unknown) => log(`shortcut: ${firstLine(e)}`))
    }
  })
  const composedApp = composeApp({
    settings,
    secrets,
    window: windows,
    notify: (n) => notifier.notify(n),
    renderTray: (view) => {
      lastView = view
      if (!starting) tray?.render(view)
    },
    openExternal,
    clockLocale: systemClockLocale(app, systemPreferences, process.platform),
    ipc: { ipcMain, isTrusted: (frame) => isTrustedFrame(frame, windows.mainFrames(), loc) },
    power: powerMonitor,
    presence: presenceFrom(powerMonitor),
    watchOnline: (onChange) =>
      watchOnline({
        isOnline: () => net.isOnline(),
        onChange,
        timers: { setInterval, clearInterval: (h) => clearInterval(h as NodeJS.Timeout) }
      }),
    startDemo: () => demo.start(),
    quit: () => app.quit(),
    writeClipboardText: (text) => clipboard.writeText(text),
    readClipboardText: () => clipboard.readText(),
    saveFile: (suggestedName, contents) =>
      saveFileWithDialog(BrowserWindow.getFocusedWindow(), suggestedName, contents),
    changeShortcut: (accelerator) => shortcut.change(accelerator),
    updater: updates.updater,
    updatesUnavailable: updates.unavailable,
    about: () => aboutFacts(app, dir, mainLog.file),
    openLogs: async () => shell.showItemInFolder(mainLog.file),
    onError: (context, error) => mainLog.error(context, error),
    onSettingsChanged: followSettings({ windows, applyDock, log }),
    log
  })
  composed = composedApp
  mainLog.setRedactor(composedApp.redact)
  for (const note of notifier.notes()) composedApp.setDesktopNote(note, true)

  const missingShortcut = shortcutNote({
    platform: process.platform,
    registered: shortcut.registered,
    env: process.env,
    keys: acceleratorLabel(shortcut.accelerator, process.platform === 'darwin')
  })
  if (missingShortcut) composedApp.setDesktopNote(missingShortcut, true)
  const wayland = waylandWindowNote({ platform: process.platform, env: process.env })
  if (wayland) composedApp.setDesktopNote(wayland, true)
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

  // The window at once where there is nothing else to show yet (first run, the demo): its calls are
  // answered now, and those that need a key wait for the key store.
  if (demoRequested || settings.read().connections.length === 0) windows.show()
  await composedApp.start({ demo: demoRequested })
  starting = false
  if (lastView) tray.render(lastView)
  whenReady.ready(composedApp)
  log(`started${demoRequested ? ' in demo mode' : ''}; settings in ${dir}`)
}

/** What the platform follows of the settings: theme, pin, dock icon, launch at login (applied only when it changes). */
function followSettings(deps: {
  windows: { setPinned: (pinned: boolean) => void; isVisible: () => boolean }
  applyDock: (windowVisible: boolean) => void
  log: (line: string) => void
}): (current: Settings) => void {
  let pinned: boolean | null = null
  let launchAtLogin: boolean | null = null
  return (current) => {
    nativeTheme.themeSource = current.theme
    if (pinned !== null && current.pinned !== pinned) deps.windows.setPinned(current.pinned)
    pinned = current.pinned
    deps.applyDock(deps.windows.isVisible())
    if (launchAtLogin === current.launchAtLogin) return
    launchAtLogin = current.launchAtLogin
    const exec = process.env.APPIMAGE ?? process.execPath
    void applyLaunchAtLogin({
      enabled: current.launchAtLogin,
      platform: process.platform,
      app,
      packaged: app.isPackaged,
      exec,
      env: process.env,
      log: deps.log
    }).catch((e: unknown) => deps.log(`login: ${firstLine(e)}`))
  }
}
