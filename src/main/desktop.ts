// The desktop as Electron gives it; the decisions are core's, this file only reads the platform and hands over.
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { App } from 'electron'
// The Node logger, not electron-log/main: that one registers IPC listeners ('__ELECTRON_LOG__')
// for renderers to log through, which would answer any frame outside the contract's sender check.
import electronLog from 'electron-log/node'
import type { AppUpdater } from 'electron-updater'
import { configureLog, type ElectronLogLike } from '../core/log/log-file'
import { catchUnexpected } from '../core/log/unexpected'
import { updateSupport } from '../core/update/support'
import type { AppUpdaterLike } from '../core/update/updater'
import { DEEP_LINK_SCHEME } from '../shared/deep-link'
import type { AboutInfo } from '../shared/desktop'

export interface MainLog {
  log(message: string): void
  error(context: string, error: unknown): void
  /** The file, for About and 'Open logs'. */
  file: string
  /** Redaction needs the composed app's keys: set once it exists. */
  setRedactor(redact: (text: string) => string): void
}

/** The log file in the platform's log directory, every entry redacted; unexpected errors caught. */
export function startMainLog(app: App): MainLog {
  let redactor = (text: string): string => text
  // Where electron-log/main would write: the platform's log directory for this app.
  electronLog.transports.file.resolvePathFn = () => join(app.getPath('logs'), 'main.log')
  const file = configureLog(electronLog as unknown as ElectronLogLike, { redact: (text) => redactor(text) })
  catchUnexpected(process, (what, error) => electronLog.error(`${what}:`, error))
  return {
    log: (message) => electronLog.info(message),
    error: (context, error) => electronLog.error(`${context}:`, error),
    file,
    setRedactor: (redact) => void (redactor = redact)
  }
}

/** electron-updater's autoUpdater where this copy can update itself; otherwise why not. */
export async function loadUpdater(
  app: App,
  logger: unknown
): Promise<{ updater: AppUpdaterLike | null; unavailable?: string }> {
  const support = updateSupport({
    packaged: app.isPackaged,
    platform: process.platform,
    env: process.env,
    hasFeedConfig: app.isPackaged && existsSync(join(process.resourcesPath, 'app-update.yml')),
    hasPackageType: app.isPackaged && existsSync(join(process.resourcesPath, 'package-type'))
  })
  if (!support.ok) return { updater: null, unavailable: support.reason }
  // Loaded only here: electron-updater picks the platform's updater when first asked.
  // A CommonJS module whose autoUpdater is a getter: from ESM it is reached through the default export.
  const mod = (await import('electron-updater')) as unknown as {
    default?: { autoUpdater: AppUpdater }
    autoUpdater?: AppUpdater
  }
  const autoUpdater = mod.default?.autoUpdater ?? mod.autoUpdater
  if (!autoUpdater) return { updater: null, unavailable: 'the updater could not be loaded' }
  autoUpdater.logger = logger as AppUpdater['logger']
  return { updater: autoUpdater as unknown as AppUpdaterLike }
}

export function aboutFacts(app: App, settingsDir: string, logFile: string): Omit<AboutInfo, 'keyStore' | 'update'> {
  return {
    version: app.getVersion(),
    electron: process.versions.electron ?? null,
    chrome: process.versions.chrome ?? null,
    node: process.versions.node,
    platform: `${process.platform} ${process.arch}`,
    settingsDir,
    logFile
  }
}

/** Makes this app the handler of agent-tray:// links (a development run registers itself with its script). */
export function registerLinkScheme(app: App, log: (message: string) => void): void {
  const ok =
    process.defaultApp && process.argv.length >= 2
      ? app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, process.execPath, [resolve(process.argv[1] ?? '')])
      : app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME)
  if (!ok) log(`links: could not register ${DEEP_LINK_SCHEME}:// (the packaged app registers it when installed)`)
}
