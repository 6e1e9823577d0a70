// The main process's entry: refuses debugging switches, holds the single-instance lock and routes the app's events
// to the composition. Nothing here decides.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { app, dialog, protocol, shell } from 'electron'
import type { ComposedApp } from '../core/app/compose'
import { startupFailureBox } from '../core/app/startup-failure'
import { APP_ID } from '../core/desktop/app-id'
import { deepLinkInArgv } from '../core/desktop/deep-link-argv'
import { firstLine } from '../core/secrets/types'
import { settingsDir } from '../core/settings/paths'
import { isSafeExternalUrl } from '../shared/url'
import { APP_SCHEME_PRIVILEGES } from './app-protocol'
import { refuseDebuggingSwitches } from './debugging-switches'
import { registerLinkScheme, startMainLog } from './desktop'
import { isDemoLaunch, type SecondInstanceData, secondLaunchWantsDemo } from './launch'
import { createReadyQueue } from './ready-queue'
import type { RendererLocation } from './renderer-origin'
import { guardWebContents } from './security'
import { start } from './start'

if (app.isPackaged)
  refuseDebuggingSwitches(
    process.argv,
    process.platform,
    (code, why) => (process.stderr.write(why), process.exit(code))
  )

// userData is set first, as the lock and the log live there (the settings directory, shared with the CLI); then the
// log, so everything after it, unexpected errors included, is written there redacted.
app.setPath('userData', settingsDir())
const mainLog = startMainLog(app)
const log = mainLog.log
const mainDir = dirname(fileURLToPath(import.meta.url))
const devServerUrl = !app.isPackaged ? process.env.ELECTRON_RENDERER_URL : undefined
// Production serves out/renderer at app://agent-tray/ (never file://); development, the dev server.
const loc: RendererLocation = devServerUrl ? { devServerUrl } : {}
const resourcesDir = app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources')

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
  app.on('render-process-gone', (_event, _contents, details) =>
    log(`window: renderer gone (${details.reason}, exit ${details.exitCode})`)
  )
  app.on('child-process-gone', (_event, details) =>
    log(`${details.type}: process gone (${details.reason}, exit ${details.exitCode})`)
  )
  // Before 'ready' (Electron allows it only then): our page's scheme, standard and secure.
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES])
  // Registered now: a launch or a click while we start is kept, not lost.
  app.on('second-instance', (_event, argv, _cwd, data) => {
    whenReady.run('show', (a) => a.tray.perform({ type: 'open-window' }))
    // A second launch with a link (agent-tray open, the OS's handler) hands it over here.
    const link = deepLinkInArgv(argv)
    if (link !== null) whenReady.run('link', (a) => a.openDeepLink(link))
    if (secondLaunchWantsDemo(data))
      whenReady.run('demo', (a) => void a.controller.startDemo().catch((e: unknown) => log(`demo: ${firstLine(e)}`)))
  })
  app.on('activate', () => whenReady.run('show', (a) => a.tray.perform({ type: 'open-window' })))
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
    .then(() => start({ mainLog, loc, mainDir, resourcesDir, openExternal, demoRequested, whenReady }))
    .catch((e: unknown) => {
      mainLog.error('startup failed', e)
      // No tray and no window to say it in: a native box, before the process ends.
      const box = startupFailureBox(e, mainLog.file)
      dialog.showErrorBox(box.title, box.content)
      app.exit(1)
    })
}
