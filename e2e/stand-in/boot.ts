// The stand-in Electron's executable, bundled to one CommonJS file that the loopback mirror serves
// inside "electron-v<version>-linux-x64.zip" (mirror.ts). It starts an app the way Electron does:
// the app's package.json `main` runs with `electron` resolving to the recorded API (electron.ts),
// `ready` comes once it has run, a window's page is asked of the app's protocol handler and its
// preload runs as a sandboxed preload does (only `electron` can be required). With
// AGENT_TRAY_STAND_IN_PROBE=1 it then acts as a user and a hostile page would (probe below).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import Module, { register } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import vm from 'node:vm'
import * as electron from './electron'
import { PROBE_ENV, startProbe } from './probe'
import { record } from './record'

const exeDir = process.env.AGENT_TRAY_STAND_IN_EXE_DIR ?? __dirname
const args = process.argv.slice(2)
const packagedApp = join(exeDir, 'resources', 'app')
// A packaged app is loaded from resources/app next to the executable; otherwise the first
// argument that is not a switch names the app's folder (`electron .`), as with Electron's default app.
const packaged = existsSync(join(packagedApp, 'package.json'))
const appArgIndex = packaged ? -1 : args.findIndex((a) => !a.startsWith('-'))
const appPath = packaged ? packagedApp : resolve(appArgIndex === -1 ? '.' : args[appArgIndex]!)
const pkg = JSON.parse(readFileSync(join(appPath, 'package.json'), 'utf8')) as {
  main?: string
  name?: string
  productName?: string
  version?: string
}
Object.assign(electron.standInLaunch, {
  appPath,
  isPackaged: packaged,
  name: pkg.productName ?? pkg.name ?? 'Electron',
  version: pkg.version ?? '0.0.0'
})

// What the app sees of its process, as under Electron.
const electronVersion = readFileSync(join(exeDir, 'version'), 'utf8').trim().replace(/^v/, '')
Object.defineProperty(process.versions, 'electron', { value: electronVersion, enumerable: true })
Object.assign(process, { type: 'browser', resourcesPath: join(exeDir, 'resources') })
process.argv = [join(exeDir, 'electron'), ...args]
record('launch', { appPath, packaged, args })

// `electron` resolves to the stand-in from CommonJS (electron-log, conf, electron-updater) and
// from ES modules (the app's main bundle) alike: both load one shim that re-exports it.
const shimDir = mkdtempSync(join(tmpdir(), 'agent-tray-stand-in-'))
const shim = join(shimDir, 'electron.cjs')
const names = Object.keys(electron).filter((k) => k !== 'default')
;(globalThis as Record<string, unknown>).__agentTrayStandInElectron = electron
writeFileSync(
  shim,
  `const e = globalThis.__agentTrayStandInElectron;\n${names.map((n) => `exports.${n} = e.${n};`).join('\n')}\nexports.default = exports;\n`
)
type Resolve = (request: string, ...rest: unknown[]) => string
const moduleWithResolve = Module as unknown as { _resolveFilename: Resolve }
const resolveFilename = moduleWithResolve._resolveFilename
moduleWithResolve._resolveFilename = (request, ...rest) =>
  request === 'electron' ? shim : resolveFilename(request, ...rest)
const hooks = `export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: ${JSON.stringify(pathToFileURL(shim).href)}, shortCircuit: true }
  return next(specifier, context)
}`
register(`data:text/javascript,${encodeURIComponent(hooks)}`)

electron.pageLoader.load = async (win, url) => {
  const scheme = new URL(url).protocol.slice(0, -1)
  const handler = electron.schemeHandler(scheme)
  let response: Response
  if (handler) response = await handler(new Request(url))
  else if (scheme === 'http' || scheme === 'https') response = await fetch(url)
  else throw new Error(`ERR_UNKNOWN_URL_SCHEME (${url})`)
  const body = await response.text()
  record('page', {
    url,
    status: response.status,
    contentType: response.headers.get('content-type'),
    csp: response.headers.get('content-security-policy'),
    bytes: body.length,
    servedBy: handler ? `${scheme}: handler` : 'network'
  })
  if (!response.ok) throw new Error(`ERR_HTTP_RESPONSE_CODE_FAILURE (${response.status})`)
  win.webContents.mainFrame.url = url
  const preload = win.webPreferences.preload
  if (preload) runSandboxedPreload(win, preload)
  win.webContents.emit('did-finish-load')
  win.emit('ready-to-show')
  electron.standInEvents.emit('page-loaded', win)
}

/** Exposed by each window's preload, by window: what the page would see as `window.<key>`. */
export const exposedByWindow = new Map<electron.StandInWindow, Map<string, unknown>>()

function runSandboxedPreload(win: electron.StandInWindow, file: string): void {
  if (!isAbsolute(file)) throw new Error('preload path must be absolute')
  const exposed = new Map<string, unknown>()
  exposedByWindow.set(win, exposed)
  const api = electron.preloadElectron(win, exposed)
  const sandboxRequire = (id: string): unknown => {
    if (id === 'electron') return api
    record('refused', { what: `a sandboxed preload cannot require('${id}')` })
    throw new Error(`module not found: ${id}`)
  }
  const module = { exports: {} as unknown }
  const context = vm.createContext({
    require: sandboxRequire,
    module,
    exports: module.exports,
    console,
    setTimeout,
    clearTimeout,
    queueMicrotask
  })
  vm.runInContext(readFileSync(file, 'utf8'), context, { filename: file })
  record('preload', { file, exposed: [...exposed.keys()] })
}

const main = join(appPath, pkg.main ?? 'index.js')
import(pathToFileURL(main).href)
  .then(() => {
    if (process.env[PROBE_ENV] === '1') startProbe(exposedByWindow)
    // Electron emits `ready` once the main script has run.
    setImmediate(() => electron.emitReady())
  })
  .catch((e: unknown) => {
    record('main-failed', { error: e instanceof Error ? e.stack : String(e) })
    process.stderr.write(
      `stand-in Electron: the app's main module failed: ${e instanceof Error ? e.stack : String(e)}\n`
    )
    process.exit(1)
  })

void dirname
