// Restoring the window where the user left it, but only where a display still is: a monitor
// unplugged since last time must not leave the window off-screen.
import { DEFAULT_WINDOW as DEFAULT_SETTINGS_WINDOW } from '../core/settings/schema'
import type { Rect } from '../core/tray/popover-placement'
import type { WindowState } from '../shared/settings'

export const DEFAULT_WINDOW = { width: DEFAULT_SETTINGS_WINDOW.width, height: DEFAULT_SETTINGS_WINDOW.height }
export const MIN_WINDOW = { width: 360, height: 400 }
/** How much of the window must lie on one display for its saved position to be kept. */
const MIN_VISIBLE = 64

/** Saved state checked against the current displays' work areas (primary first). */
export function restoreWindowBounds(saved: Partial<WindowState> | undefined, workAreas: readonly Rect[]): WindowState {
  const primary = workAreas[0]
  const maxW = primary ? Math.max(MIN_WINDOW.width, ...workAreas.map((a) => a.width)) : Infinity
  const maxH = primary ? Math.max(MIN_WINDOW.height, ...workAreas.map((a) => a.height)) : Infinity
  const width = clamp(num(saved?.width) ?? DEFAULT_WINDOW.width, MIN_WINDOW.width, maxW)
  const height = clamp(num(saved?.height) ?? DEFAULT_WINDOW.height, MIN_WINDOW.height, maxH)
  const maximized = saved?.maximized === true
  const x = num(saved?.x)
  const y = num(saved?.y)
  if (x === undefined || y === undefined) return { width, height, maximized }
  const rect = { x: Math.round(x), y: Math.round(y), width, height }
  // The top strip (where the title bar is) must be reachable, or the window cannot be moved back.
  const titleBar = { x: rect.x, y: rect.y, width: rect.width, height: Math.min(rect.height, MIN_VISIBLE) }
  const visible = workAreas.some((a) => {
    const i = intersection(titleBar, a)
    return i !== null && i.width >= MIN_VISIBLE && i.height >= Math.min(titleBar.height, MIN_VISIBLE / 2)
  })
  return visible ? { ...rect, maximized } : { width, height, maximized }
}

/** What to remember: the normal (unmaximised) bounds and whether it was maximised. */
export function captureWindowState(normalBounds: Rect, maximized: boolean): WindowState {
  return {
    x: Math.round(normalBounds.x),
    y: Math.round(normalBounds.y),
    width: Math.round(normalBounds.width),
    height: Math.round(normalBounds.height),
    maximized
  }
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined
}

function clamp(v: number, min: number, max: number): number {
  return Math.round(Math.min(Math.max(v, min), max))
}

function intersection(a: Rect, b: Rect): Rect | null {
  const x = Math.max(a.x, b.x)
  const y = Math.max(a.y, b.y)
  const right = Math.min(a.x + a.width, b.x + b.width)
  const bottom = Math.min(a.y + a.height, b.y + b.height)
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null
}
