// At the tray icon, inside its display's work area, in device-independent pixels as Electron gives them. Some Linux
// panels report no tray bounds: the popover then opens in the panel's corner of the primary display.

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}

export interface DisplayArea {
  /** The whole display. */
  bounds: Rect
  /** The display less its panels, docks and task bars. */
  workArea: Rect
}

export type PanelEdge = 'top' | 'bottom' | 'left' | 'right'

export interface Placement extends Rect {
  edge: PanelEdge
  /** Index into the displays given. */
  display: number
}

/** Space between the popover and the panel or the work area's edge. */
export const POPOVER_GAP = 6

const right = (r: Rect): number => r.x + r.width
const bottom = (r: Rect): number => r.y + r.height
const contains = (r: Rect, x: number, y: number): boolean => x >= r.x && x < right(r) && y >= r.y && y < bottom(r)
const clamp = (v: number, min: number, max: number): number => Math.min(Math.max(v, min), Math.max(min, max))

/** Tray bounds that say nothing (absent, or the zero rectangle some Linux panels report). */
export function knownTrayBounds(tray: Rect | null | undefined): tray is Rect {
  return !!tray && tray.width > 0 && tray.height > 0 && [tray.x, tray.y, tray.width, tray.height].every(Number.isFinite)
}

/** The display the tray icon is on: the one holding its centre, else the nearest. */
function displayOf(tray: Rect, displays: readonly DisplayArea[]): number {
  const cx = tray.x + tray.width / 2
  const cy = tray.y + tray.height / 2
  const holding = displays.findIndex((d) => contains(d.bounds, cx, cy))
  if (holding >= 0) return holding
  let best = 0
  let bestDistance = Number.POSITIVE_INFINITY
  displays.forEach((d, i) => {
    const dx = cx < d.bounds.x ? d.bounds.x - cx : cx > right(d.bounds) ? cx - right(d.bounds) : 0
    const dy = cy < d.bounds.y ? d.bounds.y - cy : cy > bottom(d.bounds) ? cy - bottom(d.bounds) : 0
    const distance = dx * dx + dy * dy
    if (distance < bestDistance) [best, bestDistance] = [i, distance]
  })
  return best
}

/** Which edge a display's panel is on: where the work area gives up room, else nearest to `near`. */
export function panelEdge(display: DisplayArea, near?: { x: number; y: number }): PanelEdge {
  const { bounds: b, workArea: w } = display
  const room: [PanelEdge, number][] = [
    ['top', w.y - b.y],
    ['bottom', bottom(b) - bottom(w)],
    ['left', w.x - b.x],
    ['right', right(b) - right(w)]
  ]
  if (near) {
    // The icon sits in one of the panels: the one whose strip holds it.
    const inStrip = room.find(([edge, size]) => {
      if (size <= 0) return false
      if (edge === 'top') return near.y < w.y
      if (edge === 'bottom') return near.y >= bottom(w)
      if (edge === 'left') return near.x < w.x
      return near.x >= right(w)
    })
    if (inStrip) return inStrip[0]
    // An auto-hidden panel takes no room: the nearest edge of the display.
    const distances: [PanelEdge, number][] = [
      ['top', near.y - b.y],
      ['bottom', bottom(b) - near.y],
      ['left', near.x - b.x],
      ['right', right(b) - near.x]
    ]
    return distances.sort((a, c) => a[1] - c[1])[0]![0]
  }
  const widest = room.filter(([, size]) => size > 0).sort((a, c) => c[1] - a[1])[0]
  // No panel takes room (hidden, or none): top, where most Linux desktops and macOS put it.
  return widest?.[0] ?? 'top'
}

/** `tray` null or zero when unknown; `primary` indexes `displays`. The window never leaves the work area. */
export function popoverPlacement(input: {
  tray: Rect | null | undefined
  displays: readonly DisplayArea[]
  primary?: number
  size: { width: number; height: number }
  gap?: number
}): Placement | null {
  const { displays } = input
  if (displays.length === 0) return null
  const gap = input.gap ?? POPOVER_GAP
  const known = knownTrayBounds(input.tray)
  const index = known ? displayOf(input.tray as Rect, displays) : clamp(input.primary ?? 0, 0, displays.length - 1)
  const display = displays[index]!
  const area = display.workArea
  const width = Math.round(Math.min(input.size.width, area.width - 2 * gap))
  const height = Math.round(Math.min(input.size.height, area.height - 2 * gap))
  const minX = area.x + gap
  const maxX = right(area) - width - gap
  const minY = area.y + gap
  const maxY = bottom(area) - height - gap

  if (!known) {
    // The panel's corner where trays live: the right end of a top or bottom panel, the bottom of a side one.
    const edge = panelEdge(display)
    const x = edge === 'left' ? minX : maxX
    const y = edge === 'top' ? minY : maxY
    return { x: Math.round(x), y: Math.round(y), width, height, edge, display: index }
  }

  const tray = input.tray as Rect
  const cx = tray.x + tray.width / 2
  const cy = tray.y + tray.height / 2
  const edge = panelEdge(display, { x: cx, y: cy })
  let x: number
  let y: number
  switch (edge) {
    case 'top':
      x = cx - width / 2
      y = Math.max(bottom(tray), area.y) + gap
      break
    case 'bottom':
      x = cx - width / 2
      y = Math.min(tray.y, bottom(area)) - height - gap
      break
    case 'left':
      x = Math.max(right(tray), area.x) + gap
      y = cy - height / 2
      break
    case 'right':
      x = Math.min(tray.x, right(area)) - width - gap
      y = cy - height / 2
      break
  }
  return {
    x: Math.round(clamp(x, minX, maxX)),
    y: Math.round(clamp(y, minY, maxY)),
    width,
    height,
    edge,
    display: index
  }
}
