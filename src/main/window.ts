// Closing or hiding the window destroys it, so a closed window costs no renderer memory. Unpinned it is a popover;
// pinned it stays where the user put it. Frameless: the header is its title bar.
import { BrowserWindow, nativeTheme, screen } from 'electron'
import { popoverPlacement, type Rect } from '../core/tray/popover-placement'
import type { EventChannel, EventContract } from '../shared/ipc'
import type { WindowState } from '../shared/settings'
import { createBoundsSaver } from './bounds-saver'
import { attachPopoverBehaviour, type PopoverBehaviour } from './popover'
import type { RendererLocation } from './renderer-origin'
import { rendererUrl } from './renderer-origin'
import type { FrameLike } from './sender'
import { secureWebPreferences } from './web-preferences'
import { windowBackground } from './window-background'
import { captureWindowState, MIN_WINDOW, restoreWindowBounds } from './window-bounds'

export interface WindowManager {
  show(): void
  /** Closes the window, which frees its renderer; polling goes on in main. */
  hide(): void
  toggle(): void
  /** A click on the tray icon at `trayBounds`: shows the popover there, or hides it. */
  toggleFromTray(trayBounds: Rect | null): void
  /** The pin changed: a pinned window stays open and in the task bar; unpinned, it goes back to the icon. */
  setPinned(pinned: boolean): void
  isVisible(): boolean
  /** Sends an event to our window if it is open; once it has loaded, so nothing is lost to a load. */
  send<E extends EventChannel>(channel: E, payload: EventContract[E]): void
  /** The main frames of our windows, for the IPC sender check. */
  mainFrames(): FrameLike[]
  /** Writes the window's bounds now if they changed (quit); resolves once every write is done. */
  flushBounds(): Promise<void>
}

export interface WindowDeps {
  loc: RendererLocation
  preloadPath: string
  iconPath: string
  readWindowState: () => WindowState | undefined
  saveWindowState: (state: WindowState) => Promise<void>
  /** Whether the user pinned the window open (a setting). */
  pinned: () => boolean
  /** Where the tray icon is now; null when the platform does not say. */
  trayBounds: () => Rect | null
  /** The window was shown or went away (the Dock icon follows). */
  onVisibilityChange?: (visible: boolean) => void
  log: (message: string) => void
}

export function createWindowManager(deps: WindowDeps): WindowManager {
  let win: BrowserWindow | null = null
  let loaded = false
  // Events sent while the page loads, delivered once it has (a notification click opens the window).
  let queued: [EventChannel, unknown][] = []
  const alive = (): BrowserWindow | null => (win && !win.isDestroyed() ? win : null)
  const savedAtStart = deps.readWindowState()
  const bounds = createBoundsSaver({
    capture: () => {
      const w = alive()
      return w ? captureWindowState(w.getNormalBounds(), w.isMaximized()) : null
    },
    save: deps.saveWindowState,
    saved: savedAtStart ?? undefined,
    timers: { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) },
    log: deps.log
  })

  let popover: PopoverBehaviour | null = null
  let anchor: Rect | null = null

  /** The popover's place at the tray icon, for a window of the remembered size. */
  function atTray(size: { width: number; height: number }): Rect | null {
    const primary = screen.getPrimaryDisplay()
    const displays = [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)]
    return popoverPlacement({ tray: anchor ?? deps.trayBounds(), displays, primary: 0, size })
  }

  function create(): BrowserWindow {
    const primary = screen.getPrimaryDisplay()
    const areas = [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)].map((d) => d.workArea)
    const restored = restoreWindowBounds(deps.readWindowState(), areas)
    const pinned = deps.pinned()
    const placed = pinned ? null : atTray(restored)
    const position =
      placed ?? (restored.x !== undefined && restored.y !== undefined ? { x: restored.x, y: restored.y } : null)
    const w = new BrowserWindow({
      ...(position ? { x: position.x, y: position.y } : { center: true }),
      width: placed?.width ?? restored.width,
      height: placed?.height ?? restored.height,
      frame: false,
      skipTaskbar: !pinned,
      minWidth: MIN_WINDOW.width,
      minHeight: MIN_WINDOW.height,
      show: false,
      title: 'Agent Tray',
      icon: deps.iconPath,
      autoHideMenuBar: true,
      // Follows the theme forced in Settings too (main sets nativeTheme.themeSource from it).
      backgroundColor: windowBackground(nativeTheme.shouldUseDarkColors),
      webPreferences: secureWebPreferences(deps.preloadPath, { devTools: deps.loc.devServerUrl !== undefined })
    })
    if (restored.maximized && pinned) w.maximize()
    w.once('ready-to-show', () => {
      w.show()
      w.focus()
      deps.onVisibilityChange?.(true)
    })
    popover = attachPopoverBehaviour(w, { pinned: deps.pinned, hide: () => manager.hide(), now: () => Date.now() })
    w.webContents.on('did-finish-load', () => {
      loaded = true
      const pending = queued
      queued = []
      for (const [channel, payload] of pending) w.webContents.send(channel, payload)
    })
    w.webContents.on('render-process-gone', (_e, details) => {
      deps.log(`window: renderer gone (${details.reason}); it is rebuilt when shown again`)
      if (!w.isDestroyed()) w.destroy()
    })
    // Remembered as the user goes (a quit or a crash loses no more than the last half second),
    // and once more on close, while the window can still be asked.
    const remember = (): void => bounds.schedule()
    w.on('move', remember)
    w.on('resize', remember)
    w.on('maximize', remember)
    w.on('unmaximize', remember)
    w.on('close', () => void bounds.flush())
    w.on('closed', () => {
      if (win === w) {
        win = null
        loaded = false
        queued = []
        deps.onVisibilityChange?.(false)
      }
    })
    void w.loadURL(rendererUrl(deps.loc)).catch((err: unknown) => {
      deps.log(`window: could not load the page: ${err instanceof Error ? err.message : String(err)}`)
    })
    return w
  }

  const manager: WindowManager = {
    show() {
      const w = alive()
      if (!w) {
        loaded = false
        win = create()
        return
      }
      if (w.isMinimized()) w.restore()
      w.show()
      w.focus()
    },
    hide() {
      alive()?.close()
    },
    toggle() {
      const w = alive()
      if (w && w.isVisible() && w.isFocused()) manager.hide()
      else manager.show()
    },
    toggleFromTray(trayBounds) {
      anchor = trayBounds
      const w = alive()
      if (w && w.isVisible()) return manager.hide()
      // The click that took the popover's focus (and so hid it) does not open it again.
      if (popover && !popover.clickShows(Date.now())) return
      manager.show()
    },
    setPinned(pinned) {
      const w = alive()
      if (!w) return
      w.setSkipTaskbar(!pinned)
      if (pinned) return
      if (w.isMaximized()) w.unmaximize()
      const placed = atTray(w.getBounds())
      if (placed) w.setBounds({ x: placed.x, y: placed.y, width: placed.width, height: placed.height })
    },
    isVisible() {
      return alive()?.isVisible() ?? false
    },
    send(channel, payload) {
      const w = alive()
      if (!w) return
      if (loaded) w.webContents.send(channel, payload)
      else {
        // Only the latest state matters; other events are few, but keep the queue bounded anyway.
        if (channel === 'app:state') queued = queued.filter(([c]) => c !== 'app:state')
        queued.push([channel, payload])
        if (queued.length > 100) queued.shift()
      }
    },
    mainFrames() {
      const w = alive()
      if (!w) return []
      const frame = w.webContents.mainFrame
      return frame ? [frame] : []
    },
    flushBounds: () => bounds.flush()
  }
  return manager
}
