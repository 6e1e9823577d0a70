// A stand-in for the `electron` module, for machines where the Electron binary cannot run. It
// records what the app asks (record.ts) and refuses what Electron refuses: the APIs that need
// `ready` before it, the ones that must come before it after it, a preload that is not an
// absolute path to a file, an image file that does not exist, an unknown webPreferences key.
// Every fake is checked against Electron's own electron.d.ts (`satisfies` / `implements`), so a
// signature the app relies on cannot drift from Electron's.
import { EventEmitter } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { isAbsolute, join } from 'node:path'
import type * as Electron from 'electron'
import { record, refuse } from './record'

/** What the probe waits on: 'tray', 'notification', 'page-loaded'. */
export const standInEvents = new EventEmitter()

type WebPreferences = Electron.WebPreferences
/** An Electron API object as faked: any member given has Electron's type (events are Node's). */
type Api<T> = Partial<Omit<T, keyof NodeJS.EventEmitter>>
type Rectangle = Electron.Rectangle

/** Every key Electron 45's WebPreferences has, and no other: the compiler checks both ways. */
const WEB_PREFERENCE_KEYS: { [K in keyof Required<WebPreferences>]: true } = {
  accessibleTitle: true,
  additionalArguments: true,
  allowRunningInsecureContent: true,
  autoplayPolicy: true,
  backgroundThrottling: true,
  contextIsolation: true,
  defaultEncoding: true,
  defaultFontFamily: true,
  defaultFontSize: true,
  defaultMonospaceFontSize: true,
  devTools: true,
  disableBlinkFeatures: true,
  disableDialogs: true,
  disableHtmlFullscreenWindowResize: true,
  disableWakeLocks: true,
  enableBlinkFeatures: true,
  enableDeprecatedPaste: true,
  enablePreferredSizeMode: true,
  enableWebSQL: true,
  experimentalFeatures: true,
  focusOnNavigation: true,
  imageAnimationPolicy: true,
  images: true,
  javascript: true,
  minimumFontSize: true,
  navigateOnDragDrop: true,
  nodeIntegration: true,
  nodeIntegrationInSubFrames: true,
  nodeIntegrationInWorker: true,
  offscreen: true,
  partition: true,
  plugins: true,
  preload: true,
  safeDialogs: true,
  safeDialogsMessage: true,
  sandbox: true,
  scrollBounce: true,
  v8CacheOptions: true,
  session: true,
  spellcheck: true,
  textAreasAreResizable: true,
  transparent: true,
  webgl: true,
  webSecurity: true,
  webviewTag: true,
  zoomFactor: true,
  zoomMode: true
}

// ---- the app's life: ready, quit --------------------------------------------------------------

let isReadyNow = false
let markReady: () => void = () => {}
const readyPromise = new Promise<void>((resolve) => (markReady = resolve))
const paths = new Map<string, string>()

function needsReady(what: string): void {
  if (!isReadyNow) refuse(`${what} cannot be used before the app is ready`)
}
function beforeReadyOnly(what: string): void {
  if (isReadyNow) refuse(`${what} can only be called before the app is ready`)
}

/** Where the app's package.json is, and whether it was loaded the way a packaged app is. */
export const standInLaunch = { appPath: process.cwd(), isPackaged: false, name: 'Electron', version: '0.0.0' }

interface PreventableEvent {
  preventDefault(): void
  defaultPrevented: boolean
}
function preventable(): PreventableEvent {
  const e = { defaultPrevented: false, preventDefault: () => void (e.defaultPrevented = true) }
  return e
}

class StandInApp extends EventEmitter {
  get isPackaged(): boolean {
    return standInLaunch.isPackaged
  }
  get name(): string {
    return standInLaunch.name
  }
  dock = undefined
  commandLine: Electron.CommandLine = {
    appendSwitch: (name: string) => void record('app.commandLine.appendSwitch', { name }),
    appendArgument: () => undefined,
    hasSwitch: () => false,
    getSwitchValue: () => '',
    removeSwitch: () => undefined
  }
  isReady(): boolean {
    return isReadyNow
  }
  whenReady(): Promise<void> {
    return readyPromise
  }
  getAppPath(): string {
    return standInLaunch.appPath
  }
  getVersion(): string {
    return standInLaunch.version
  }
  getName(): string {
    return standInLaunch.name
  }
  // Chromium's i18n reads the regional format from the environment on Linux, as Node's ICU does.
  getSystemLocale(): string {
    return Intl.DateTimeFormat().resolvedOptions().locale
  }
  getPath(name: Parameters<Electron.App['getPath']>[0]): string {
    const set = paths.get(name)
    if (set) return set
    const home = process.env.HOME ?? '/tmp'
    const config = process.env.XDG_CONFIG_HOME ?? join(home, '.config')
    const userData = paths.get('userData') ?? join(config, standInLaunch.name)
    const known: Record<string, string> = {
      home,
      appData: config,
      userData,
      sessionData: userData,
      temp: process.env.TMPDIR ?? '/tmp',
      logs: join(userData, 'logs'),
      exe: process.execPath,
      downloads: join(home, 'Downloads')
    }
    return known[name] ?? refuse(`app.getPath('${name}') is not faked`)
  }
  setPath(name: string, path: string): void {
    beforeReadyOnly('app.setPath')
    if (!isAbsolute(path)) refuse(`app.setPath('${name}') needs an absolute path`)
    paths.set(name, path)
    record('app.setPath', { name, path })
  }
  requestSingleInstanceLock(data?: Record<string, unknown>): boolean {
    record('app.requestSingleInstanceLock', { data })
    return true
  }
  enableSandbox(): void {
    beforeReadyOnly('app.enableSandbox')
    record('app.enableSandbox')
  }
  setAppUserModelId(id: string): void {
    record('app.setAppUserModelId', { id })
  }
  setAsDefaultProtocolClient(protocol: string): boolean {
    record('app.setAsDefaultProtocolClient', { protocol })
    return true
  }
  setLoginItemSettings(settings: Electron.Settings): void {
    record('app.setLoginItemSettings', { openAtLogin: settings.openAtLogin })
  }
  focus(): void {}
  quit(): void {
    record('app.quit')
    const before = preventable()
    this.emit('before-quit', before)
    if (before.defaultPrevented) return record('app.quit.prevented')
    for (const w of [...allWindows]) w.close()
    const will = preventable()
    this.emit('will-quit', will)
    if (will.defaultPrevented) return record('app.quit.prevented')
    this.emit('quit', preventable(), 0)
    exitProcess(0)
  }
  exit(exitCode = 0): void {
    record('app.exit', { exitCode })
    exitProcess(exitCode)
  }
}

function exitProcess(code: number): void {
  record('exit', { code })
  // Electron ends the process whatever timers or sockets are left; so does the stand-in.
  process.exit(code)
}

export const app = new StandInApp() satisfies Api<Electron.App>

/** Called by the launcher once the app's main module has run, as Electron does. */
export function emitReady(): void {
  isReadyNow = true
  record('ready')
  app.emit('will-finish-launching')
  app.emit('ready', preventable(), {})
  markReady()
}

// ---- images, tray, menu, notifications ------------------------------------------------------------

export class StandInImage {
  constructor(readonly path: string | null) {}
  private template = false
  isEmpty(): boolean {
    return this.path === null
  }
  getSize(): Electron.Size {
    return this.path === null ? { width: 0, height: 0 } : { width: 16, height: 16 }
  }
  setTemplateImage(option: boolean): void {
    this.template = option
  }
  isTemplateImage(): boolean {
    return this.template
  }
  toPNG(): Buffer {
    return this.path === null ? Buffer.alloc(0) : readFileSync(this.path)
  }
}

export const nativeImage = {
  createFromPath(path: string) {
    // Electron gives an empty image for a missing file; the stand-in records it, and Tray refuses it.
    const exists = isAbsolute(path) && existsSync(path)
    record('nativeImage.createFromPath', { path, exists })
    return new StandInImage(exists ? path : null) as unknown as Electron.NativeImage
  },
  createEmpty() {
    return new StandInImage(null) as unknown as Electron.NativeImage
  }
} satisfies Partial<typeof Electron.nativeImage>

function imagePath(image: Electron.NativeImage | string, what: string): string {
  const path = typeof image === 'string' ? image : (image as unknown as StandInImage).path
  if (path === null || !existsSync(path)) refuse(`${what}: the image file does not exist (${String(path)})`)
  return path
}

const trays: StandInTray[] = []

export class StandInTray extends EventEmitter implements Api<Electron.Tray> {
  private destroyed = false
  tooltip = ''
  menu: StandInMenu | null = null
  constructor(image: Electron.NativeImage | string) {
    super()
    needsReady('Tray')
    record('tray', { image: imagePath(image, 'new Tray') })
    trays.push(this)
    standInEvents.emit('tray', this)
  }
  setImage(image: Electron.NativeImage | string): void {
    record('tray.setImage', { image: imagePath(image, 'tray.setImage') })
  }
  setToolTip(toolTip: string): void {
    this.tooltip = toolTip
    record('tray.setToolTip', { toolTip })
  }
  setContextMenu(menu: Electron.Menu | null): void {
    this.menu = menu as unknown as StandInMenu | null
    record('tray.setContextMenu', { labels: this.menu?.items.map((i) => i.label ?? i.type ?? '') ?? [] })
  }
  popUpContextMenu(): void {
    record('tray.popUpContextMenu')
  }
  getBounds(): Rectangle {
    return { x: 1800, y: 0, width: 24, height: 24 }
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  destroy(): void {
    this.destroyed = true
    record('tray.destroy')
  }
  /** What a user's click on the icon does. */
  click(): void {
    this.emit('click', preventable(), this.getBounds(), { x: 1810, y: 10 })
  }
}
export const Tray = StandInTray

export class StandInMenu {
  constructor(readonly items: Electron.MenuItemConstructorOptions[]) {}
  static buildFromTemplate(template: Electron.MenuItemConstructorOptions[]): Electron.Menu {
    return new StandInMenu(template) as unknown as Electron.Menu
  }
  static setApplicationMenu(menu: Electron.Menu | null): void {
    record('Menu.setApplicationMenu', { menu: menu !== null })
  }
}
export const Menu = StandInMenu

export class StandInNotification extends EventEmitter implements Api<Electron.Notification> {
  static isSupported(): boolean {
    return true
  }
  title: string
  body: string
  constructor(readonly options: Electron.NotificationConstructorOptions = {}) {
    super()
    needsReady('Notification')
    this.title = options.title ?? ''
    this.body = options.body ?? ''
    if (options.icon !== undefined) imagePath(options.icon, 'new Notification icon')
  }
  show(): void {
    record('notification', {
      title: this.title,
      body: this.body,
      urgency: this.options.urgency ?? null,
      actions: (this.options.actions ?? []).map((a) => a.text ?? '')
    })
    this.emit('show', preventable())
    standInEvents.emit('notification', this)
  }
  close(): void {
    this.emit('close', preventable())
  }
}
export const Notification = StandInNotification

// ---- windows, frames, IPC ---------------------------------------------------------------------

let nextId = 1

export class StandInFrame {
  url = ''
  readonly processId: number
  readonly routingId: number
  readonly parent = null
  constructor() {
    this.processId = 100 + nextId
    this.routingId = nextId++
  }
  get origin(): string {
    try {
      return new URL(this.url).origin
    } catch {
      return 'null'
    }
  }
}

type Handler = (event: unknown, ...args: unknown[]) => unknown
const handlers = new Map<string, Handler>()
const listeners = new Map<string, Handler[]>()

export const ipcMain = Object.assign(new EventEmitter(), {
  handle(channel: string, listener: Handler) {
    if (handlers.has(channel)) refuse(`ipcMain.handle: a second handler for '${channel}'`)
    handlers.set(channel, listener)
    record('ipcMain.handle', { channel })
  },
  handleOnce(channel: string, listener: Handler) {
    record('ipcMain.handle', { channel, once: true })
    handlers.set(channel, listener)
  },
  removeHandler(channel: string) {
    handlers.delete(channel)
  }
})
const ipcOn = ipcMain.on.bind(ipcMain)
ipcMain.on = (channel: string | symbol, listener: (...args: unknown[]) => void) => {
  record('ipcMain.on', { channel: String(channel) })
  listeners.set(String(channel), [...(listeners.get(String(channel)) ?? []), listener])
  return ipcOn(channel, listener)
}
const ipcRemoveAll = ipcMain.removeAllListeners.bind(ipcMain)
ipcMain.removeAllListeners = (channel?: string | symbol) => {
  if (channel === undefined) listeners.clear()
  else listeners.delete(String(channel))
  return ipcRemoveAll(channel)
}

/** Sends an invoke as Electron would from `frame`, and says whether the handler answered. */
export async function invokeFrom(
  frame: StandInFrame,
  sender: StandInWebContents | null,
  channel: string,
  ...args: unknown[]
): Promise<unknown> {
  const handler = handlers.get(channel)
  if (!handler) throw new Error(`No handler registered for '${channel}'`)
  return handler({ senderFrame: frame, sender, processId: frame.processId, frameId: frame.routingId }, ...args)
}

export function registeredChannels(): { handle: string[]; on: string[] } {
  return { handle: [...handlers.keys()].sort(), on: [...listeners.keys()].sort() }
}

const allWindows: StandInWindow[] = []

export class StandInWebContents
  extends EventEmitter
  implements Api<Omit<Electron.WebContents, 'mainFrame' | 'session'>>
{
  readonly id = nextId++
  readonly mainFrame = new StandInFrame()
  /** What the page's preload subscribed to with ipcRenderer.on. */
  readonly rendererListeners = new Map<string, ((event: unknown, payload: unknown) => void)[]>()
  private destroyed = false
  windowOpenHandler: ((details: Electron.HandlerDetails) => Electron.WindowOpenHandlerResponse) | null = null
  constructor(readonly owner: StandInWindow) {
    super()
  }
  get session(): typeof session.defaultSession {
    return session.defaultSession
  }
  getURL(): string {
    return this.mainFrame.url
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  destroy(): void {
    this.destroyed = true
  }
  send(channel: string, ...args: unknown[]): void {
    record('webContents.send', { channel })
    for (const l of this.rendererListeners.get(channel) ?? []) l({ sender: null }, args[0])
  }
  setWindowOpenHandler(handler: (details: Electron.HandlerDetails) => Electron.WindowOpenHandlerResponse): void {
    this.windowOpenHandler = handler
    record('webContents.setWindowOpenHandler')
  }
  openDevTools(): void {
    record('webContents.openDevTools')
  }
  isDevToolsOpened(): boolean {
    return false
  }
  closeDevTools(): void {}
}

export interface LoadedPage {
  status: number
  contentType: string | null
  csp: string | null
  body: string
}

/** How a window's page is loaded and its preload run; set by the launcher (boot.ts). */
export const pageLoader: { load: (win: StandInWindow, url: string) => Promise<void> } = {
  load: async () => refuse('no page loader')
}

export class StandInWindow extends EventEmitter implements Api<Omit<Electron.BrowserWindow, 'webContents'>> {
  static getFocusedWindow(): Electron.BrowserWindow | null {
    return (allWindows.find((w) => w.focused) ?? null) as unknown as Electron.BrowserWindow | null
  }
  static getAllWindows(): Electron.BrowserWindow[] {
    return [...allWindows] as unknown as Electron.BrowserWindow[]
  }
  readonly id = nextId++
  readonly webContents: StandInWebContents
  readonly webPreferences: WebPreferences
  private bounds: Rectangle
  private visible = false
  private destroyed = false
  private maximized = false
  focused = false
  constructor(readonly options: Electron.BrowserWindowConstructorOptions = {}) {
    super()
    needsReady('BrowserWindow')
    const prefs = options.webPreferences ?? {}
    for (const key of Object.keys(prefs))
      if (!(key in WEB_PREFERENCE_KEYS)) refuse(`BrowserWindow: unknown webPreferences key '${key}'`)
    if (prefs.preload !== undefined) {
      if (!isAbsolute(prefs.preload)) refuse(`BrowserWindow: the preload path must be absolute (${prefs.preload})`)
      if (!existsSync(prefs.preload)) refuse(`BrowserWindow: the preload file does not exist (${prefs.preload})`)
    }
    if (typeof options.icon === 'string') imagePath(options.icon, 'BrowserWindow icon')
    this.webPreferences = prefs
    this.bounds = { x: options.x ?? 0, y: options.y ?? 0, width: options.width ?? 800, height: options.height ?? 600 }
    this.webContents = new StandInWebContents(this)
    allWindows.push(this)
    record('window', {
      webPreferences: prefs,
      width: this.bounds.width,
      height: this.bounds.height,
      frame: options.frame ?? true,
      show: options.show ?? true
    })
  }
  async loadURL(url: string): Promise<void> {
    record('window.loadURL', { url })
    await pageLoader.load(this, url)
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
  destroy(): void {
    if (this.destroyed) return
    this.destroyed = true
    this.webContents.destroy()
    allWindows.splice(allWindows.indexOf(this), 1)
    this.emit('closed')
  }
  close(): void {
    const e = preventable()
    this.emit('close', e)
    if (!e.defaultPrevented) this.destroy()
  }
  show(): void {
    this.visible = true
    this.emit('show')
  }
  showInactive(): void {
    this.visible = true
  }
  hide(): void {
    this.visible = false
    this.emit('hide')
  }
  focus(): void {
    this.focused = true
    this.emit('focus')
  }
  blur(): void {
    this.focused = false
    this.emit('blur')
  }
  isFocused(): boolean {
    return this.focused
  }
  isVisible(): boolean {
    return this.visible
  }
  isMinimized(): boolean {
    return false
  }
  restore(): void {}
  minimize(): void {}
  isMaximized(): boolean {
    return this.maximized
  }
  maximize(): void {
    this.maximized = true
  }
  unmaximize(): void {
    this.maximized = false
  }
  getBounds(): Rectangle {
    return { ...this.bounds }
  }
  getNormalBounds(): Rectangle {
    return { ...this.bounds }
  }
  setBounds(bounds: Partial<Rectangle>): void {
    this.bounds = { ...this.bounds, ...bounds }
  }
  setPosition(x: number, y: number): void {
    this.bounds = { ...this.bounds, x, y }
  }
  getPosition(): number[] {
    return [this.bounds.x, this.bounds.y]
  }
  setSize(width: number, height: number): void {
    this.bounds = { ...this.bounds, width, height }
  }
  getSize(): number[] {
    return [this.bounds.width, this.bounds.height]
  }
  setSkipTaskbar(skip: boolean): void {
    record('window.setSkipTaskbar', { skip })
  }
  setAlwaysOnTop(flag: boolean): void {
    record('window.setAlwaysOnTop', { flag })
  }
  setVisibleOnAllWorkspaces(visible: boolean): void {
    record('window.setVisibleOnAllWorkspaces', { visible })
  }
  setMinimumSize(): void {}
  setResizable(): void {}
  setMovable(): void {}
  setTitle(): void {}
  setBackgroundColor(): void {}
  setOpacity(): void {}
  moveTop(): void {}
}
export const BrowserWindow = StandInWindow

// ---- the rest of the main process's API ---------------------------------------------------------

let themeSource: 'system' | 'light' | 'dark' = 'system'
// Read on macOS only (its forced 12/24-hour clock); this stand-in is a Linux desktop.
export const systemPreferences = {
  getUserDefault: () => refuse('systemPreferences.getUserDefault is read on macOS only')
} satisfies Api<Electron.SystemPreferences>

export const nativeTheme = Object.assign(new EventEmitter(), {
  shouldUseDarkColors: false,
  shouldUseDarkColorsForSystemIntegratedUI: false,
  shouldUseHighContrastColors: false,
  shouldUseInvertedColorScheme: false,
  inForcedColorsMode: false,
  prefersReducedTransparency: false,
  get themeSource() {
    return themeSource
  },
  set themeSource(value: 'system' | 'light' | 'dark') {
    themeSource = value
    nativeTheme.shouldUseDarkColors = value === 'dark'
    nativeTheme.emit('updated')
  }
})

const display: Electron.Display = {
  id: 1,
  label: 'stand-in',
  bounds: { x: 0, y: 0, width: 1920, height: 1080 },
  workArea: { x: 0, y: 0, width: 1920, height: 1050 },
  size: { width: 1920, height: 1080 },
  workAreaSize: { width: 1920, height: 1050 },
  scaleFactor: 1,
  rotation: 0,
  internal: false,
  monochrome: false,
  accelerometerSupport: 'unknown',
  touchSupport: 'unknown',
  colorDepth: 24,
  colorSpace: 'srgb',
  depthPerComponent: 8,
  displayFrequency: 60,
  maximumCursorSize: { width: 64, height: 64 },
  nativeOrigin: { x: 0, y: 0 },
  detected: true
}
export const screen = Object.assign(new EventEmitter(), {
  getPrimaryDisplay() {
    needsReady('screen')
    return display
  },
  getAllDisplays() {
    needsReady('screen')
    return [display]
  },
  getCursorScreenPoint() {
    needsReady('screen')
    return { x: 0, y: 0 }
  },
  getDisplayMatching() {
    needsReady('screen')
    return display
  },
  getDisplayNearestPoint() {
    needsReady('screen')
    return display
  }
}) satisfies Api<Electron.Screen>

const webRequestHooks: string[] = []
const defaultSession = {
  webRequest: {
    onHeadersReceived: () => void webRequestHooks.push('onHeadersReceived'),
    onBeforeRequest: () => void webRequestHooks.push('onBeforeRequest'),
    onBeforeSendHeaders: () => void webRequestHooks.push('onBeforeSendHeaders')
  },
  setPermissionRequestHandler: () => void record('session.setPermissionRequestHandler'),
  setPermissionCheckHandler: () => void record('session.setPermissionCheckHandler'),
  setDevicePermissionHandler: () => void record('session.setDevicePermissionHandler'),
  setDisplayMediaRequestHandler: () => void record('session.setDisplayMediaRequestHandler'),
  setSpellCheckerEnabled: () => undefined,
  setProxy: async () => undefined,
  on: () => defaultSession,
  protocol: undefined as unknown
}
export const session = {
  get defaultSession() {
    needsReady('session')
    return defaultSession
  },
  fromPartition() {
    needsReady('session')
    return defaultSession
  }
}
export function sessionHooks(): string[] {
  return [...webRequestHooks]
}

const schemes = new Map<string, (request: Request) => Response | Promise<Response>>()
export const protocol = {
  registerSchemesAsPrivileged(customSchemes: Electron.CustomScheme[]) {
    beforeReadyOnly('protocol.registerSchemesAsPrivileged')
    record('protocol.registerSchemesAsPrivileged', { schemes: customSchemes })
  },
  handle(scheme: string, handler: (request: Request) => Response | Promise<Response>) {
    needsReady('protocol.handle')
    if (schemes.has(scheme)) refuse(`protocol.handle: '${scheme}' is handled already`)
    schemes.set(scheme, handler)
    record('protocol.handle', { scheme })
  },
  unhandle(scheme: string) {
    schemes.delete(scheme)
  },
  isProtocolHandled(scheme: string) {
    return schemes.has(scheme)
  }
}
/** The handler the app registered for a scheme, for the page loader. */
export function schemeHandler(scheme: string): ((request: Request) => Response | Promise<Response>) | undefined {
  return schemes.get(scheme)
}

export const shell = {
  async openExternal(url: string) {
    record('shell.openExternal', { url })
  },
  showItemInFolder(fullPath: string) {
    record('shell.showItemInFolder', { fullPath })
  },
  async openPath(path: string) {
    record('shell.openPath', { path })
    return ''
  }
} satisfies Partial<Electron.Shell>

export const dialog = {
  showErrorBox(title: string, content: string) {
    // Electron allows this one before ready: it is how a start-up failure is told.
    record('dialog.showErrorBox', { title, content })
  },
  async showSaveDialog() {
    needsReady('dialog.showSaveDialog')
    record('dialog.showSaveDialog')
    return { canceled: true, filePath: '' }
  },
  async showMessageBox() {
    needsReady('dialog.showMessageBox')
    record('dialog.showMessageBox')
    return { response: 0, checkboxChecked: false }
  }
}

export const clipboard = {
  async writeText(text: string) {
    record('clipboard.writeText', { length: text.length })
  },
  async readText() {
    return ''
  }
}

/** Electron 45 deprecates these; the record says when the app still calls one. */
function deprecated(what: string): void {
  record('deprecated', { what })
}

export const safeStorage = {
  isEncryptionAvailable(): boolean {
    deprecated('safeStorage.isEncryptionAvailable')
    needsReady('safeStorage')
    return false
  },
  async isAsyncEncryptionAvailable(): Promise<boolean> {
    needsReady('safeStorage')
    return false
  },
  encryptString(): Buffer {
    deprecated('safeStorage.encryptString')
    return refuse('safeStorage: encryption is not available')
  },
  decryptString(): string {
    deprecated('safeStorage.decryptString')
    return refuse('safeStorage: encryption is not available')
  },
  async encryptStringAsync(): Promise<Buffer> {
    return refuse('safeStorage: encryption is not available')
  },
  async decryptStringAsync(): Promise<Electron.DecryptStringAsyncReturnValue> {
    return refuse('safeStorage: encryption is not available')
  },
  getSelectedStorageBackend(): ReturnType<Electron.SafeStorage['getSelectedStorageBackend']> {
    needsReady('safeStorage')
    return 'unknown'
  }
}

/** What the stand-in's system says of its user: seconds without input, and whether the screen is locked. */
export const standInPresence = { idleSeconds: 0, locked: false }

export const powerMonitor = Object.assign(new EventEmitter(), {
  getSystemIdleTime(): number {
    needsReady('powerMonitor')
    return standInPresence.idleSeconds
  },
  getSystemIdleState(idleThreshold: number): ReturnType<Electron.PowerMonitor['getSystemIdleState']> {
    needsReady('powerMonitor')
    if (!Number.isInteger(idleThreshold) || idleThreshold < 1)
      refuse(
        `powerMonitor.getSystemIdleState: idleThreshold must be a positive integer (seconds), got ${idleThreshold}`
      )
    if (standInPresence.locked) return 'locked'
    return standInPresence.idleSeconds >= idleThreshold ? 'idle' : 'active'
  },
  isOnBatteryPower: (): boolean => false,
  onBatteryPower: false
} satisfies Api<Electron.PowerMonitor>)
const powerOn = powerMonitor.on.bind(powerMonitor)
powerMonitor.on = (event: string | symbol, listener: (...args: unknown[]) => void) => {
  needsReady('powerMonitor')
  return powerOn(event, listener)
}

const shortcuts = new Set<string>()
export const globalShortcut = {
  register(accelerator: string, _callback: () => void) {
    needsReady('globalShortcut')
    record('globalShortcut.register', { accelerator })
    shortcuts.add(accelerator)
    return true
  },
  unregister(accelerator: string) {
    needsReady('globalShortcut')
    shortcuts.delete(accelerator)
  },
  unregisterAll() {
    shortcuts.clear()
  },
  isRegistered(accelerator: string) {
    return shortcuts.has(accelerator)
  }
}

export const net = {
  isOnline: () => true,
  online: true
}

export const autoUpdater = Object.assign(new EventEmitter(), {
  setFeedURL: () => undefined,
  checkForUpdates: () => undefined,
  quitAndInstall: () => undefined,
  getFeedURL: () => ''
})

export const crashReporter = { start: () => undefined }

// ---- the preload's side ---------------------------------------------------------------------

/** What a preload sees of `electron`, bound to the window it runs in. */
export function preloadElectron(win: StandInWindow, exposed: Map<string, unknown>): Record<string, unknown> {
  const contents = win.webContents
  return {
    contextBridge: {
      exposeInMainWorld(key: string, api: unknown) {
        if (exposed.has(key)) refuse(`contextBridge.exposeInMainWorld: '${key}' is exposed already`)
        exposed.set(key, api)
        record('contextBridge.exposeInMainWorld', {
          key,
          functions: typeof api === 'object' && api !== null ? Object.keys(api).sort() : []
        })
      }
    },
    ipcRenderer: {
      invoke: (channel: string, ...args: unknown[]) => invokeFrom(contents.mainFrame, contents, channel, ...args),
      on(channel: string, listener: (event: unknown, payload: unknown) => void) {
        contents.rendererListeners.set(channel, [...(contents.rendererListeners.get(channel) ?? []), listener])
        return this
      },
      removeListener(channel: string, listener: (event: unknown, payload: unknown) => void) {
        contents.rendererListeners.set(
          channel,
          (contents.rendererListeners.get(channel) ?? []).filter((l) => l !== listener)
        )
        return this
      },
      send: (channel: string) => refuse(`ipcRenderer.send('${channel}'): the app's contract has no send channel`)
    }
  }
}

export function trayList(): StandInTray[] {
  return trays
}
