import { describe, expect, it } from 'vitest'
import {
  type DisplayArea,
  knownTrayBounds,
  panelEdge,
  POPOVER_GAP,
  popoverPlacement,
  type Rect
} from './popover-placement'

const size = { width: 420, height: 640 }
const g = POPOVER_GAP

/** A 1920x1080 display at (ox, oy) with a panel of `panel` px on `edge`. */
function display(
  edge: 'top' | 'bottom' | 'left' | 'right' | 'none',
  panel = 40,
  ox = 0,
  oy = 0,
  w = 1920,
  h = 1080
): DisplayArea {
  const bounds = { x: ox, y: oy, width: w, height: h }
  const workArea = { ...bounds }
  if (edge === 'top') Object.assign(workArea, { y: oy + panel, height: h - panel })
  if (edge === 'bottom') Object.assign(workArea, { height: h - panel })
  if (edge === 'left') Object.assign(workArea, { x: ox + panel, width: w - panel })
  if (edge === 'right') Object.assign(workArea, { width: w - panel })
  return { bounds, workArea }
}

function inside(p: Rect, area: Rect): boolean {
  return (
    p.x >= area.x && p.y >= area.y && p.x + p.width <= area.x + area.width && p.y + p.height <= area.y + area.height
  )
}

describe('popoverPlacement, one display', () => {
  it('top panel (GNOME, macOS): below the icon, centred on it', () => {
    const d = display('top', 24)
    const p = popoverPlacement({ tray: { x: 1000, y: 0, width: 24, height: 24 }, displays: [d], size })!
    expect(p).toEqual({ x: 1012 - 210, y: 24 + g, width: 420, height: 640, edge: 'top', display: 0 })
    // Near the right end: kept inside the work area.
    expect(popoverPlacement({ tray: { x: 1890, y: 0, width: 24, height: 24 }, displays: [d], size })).toMatchObject({
      x: 1920 - 420 - g
    })
  })

  it('bottom panel (Windows): above the icon, pushed inside the work area at the right end', () => {
    const d = display('bottom', 48)
    const p = popoverPlacement({ tray: { x: 1860, y: 1040, width: 32, height: 32 }, displays: [d], size })!
    expect(p.edge).toBe('bottom')
    expect(p.y + p.height).toBe(1080 - 48 - g)
    expect(p.x + p.width).toBe(1920 - g)
  })

  it('left panel: beside the icon, vertically centred on it', () => {
    const d = display('left', 60)
    const p = popoverPlacement({ tray: { x: 10, y: 500, width: 40, height: 40 }, displays: [d], size })!
    expect(p).toMatchObject({ edge: 'left', x: 60 + g, y: 520 - 320 })
  })

  it('right panel, icon near the bottom: beside it, kept above the work area bottom', () => {
    const d = display('right', 60)
    const p = popoverPlacement({ tray: { x: 1870, y: 1030, width: 40, height: 40 }, displays: [d], size })!
    expect(p).toMatchObject({ edge: 'right', x: 1860 - 420 - g, y: 1080 - 640 - g })
  })

  it('an auto-hidden panel takes no room: the nearest edge of the display decides', () => {
    const p = popoverPlacement({
      tray: { x: 1800, y: 1060, width: 20, height: 20 },
      displays: [display('none')],
      size
    })!
    expect(p.edge).toBe('bottom')
    expect(p.y + p.height).toBeLessThanOrEqual(1060 - g)
  })

  it('a window larger than the work area is made to fit', () => {
    const small = display('top', 24, 0, 0, 800, 600)
    const p = popoverPlacement({ tray: { x: 760, y: 0, width: 24, height: 24 }, displays: [small], size })!
    expect(p.height).toBe(600 - 24 - 2 * g)
    expect(inside(p, small.workArea)).toBe(true)
  })
})

describe('popoverPlacement, several displays', () => {
  // A primary at the origin (panel at the bottom), a secondary to its left at negative x with a
  // top panel, and a third above the primary with a right panel.
  const primary = display('bottom', 48)
  const left = display('top', 28, -2560, -200, 2560, 1440)
  const above = display('right', 50, 0, -1080)
  const displays = [primary, left, above]

  it('opens on the display the icon is on, by its panel, at negative coordinates too', () => {
    const p = popoverPlacement({ tray: { x: -300, y: -200, width: 28, height: 28 }, displays, size })!
    expect(p.display).toBe(1)
    expect(p.edge).toBe('top')
    expect(p.y).toBe(-200 + 28 + g)
    expect(inside(p, left.workArea)).toBe(true)

    const q = popoverPlacement({ tray: { x: 1880, y: -600, width: 40, height: 40 }, displays, size })!
    expect(q).toMatchObject({ display: 2, edge: 'right', x: 1870 - 420 - g })
    expect(inside(q, above.workArea)).toBe(true)
  })

  it('an icon reported just off every display goes to the nearest one', () => {
    const p = popoverPlacement({ tray: { x: 1930, y: 1050, width: 20, height: 20 }, displays, size })!
    expect(p.display).toBe(0)
    expect(inside(p, primary.workArea)).toBe(true)
  })

  it('unknown tray bounds (zero, as some Linux panels say): the panel corner of the primary display', () => {
    const zero = { x: 0, y: 0, width: 0, height: 0 }
    expect(knownTrayBounds(zero)).toBe(false)
    expect(popoverPlacement({ tray: zero, displays: [left, primary], primary: 1, size })).toEqual({
      x: 1920 - 420 - g,
      y: 1080 - 48 - 640 - g,
      width: 420,
      height: 640,
      edge: 'bottom',
      display: 1
    })
    expect(popoverPlacement({ tray: null, displays: [left], size })).toMatchObject({
      edge: 'top',
      x: -420 - g,
      y: -200 + 28 + g
    })
    expect(popoverPlacement({ tray: undefined, displays: [display('left', 60)], size })).toMatchObject({
      edge: 'left',
      x: 60 + g,
      y: 1080 - 640 - g
    })
    // No panel takes room: top right, where trays usually are.
    expect(popoverPlacement({ tray: null, displays: [display('none')], size })).toMatchObject({
      edge: 'top',
      x: 1920 - 420 - g,
      y: g
    })
  })

  it('no displays: nothing to place on', () => {
    expect(popoverPlacement({ tray: null, displays: [], size })).toBeNull()
  })
})

describe('scale factors', () => {
  // Electron reports DIPs at any scale: a 2880x1800 panel at 2x is 1440x900, at 1.5x of 1920x1200 it is 1280x800.
  it.each([
    ['2x', display('top', 25, 0, 0, 1440, 900), { x: 1301.5, y: 0, width: 22.5, height: 25 }],
    ['1.5x', display('bottom', 32.666, 0, 0, 1280, 800), { x: 1200.333, y: 770.667, width: 21.333, height: 21.333 }]
  ])('%s: whole pixels, inside the work area, at the icon', (_scale, d, tray) => {
    const p = popoverPlacement({ tray, displays: [d], size })!
    for (const v of [p.x, p.y, p.width, p.height]) expect(Number.isInteger(v)).toBe(true)
    expect(p.x).toBeGreaterThanOrEqual(Math.ceil(d.workArea.x))
    expect(p.y).toBeGreaterThanOrEqual(Math.floor(d.workArea.y))
    expect(p.x + p.width).toBeLessThanOrEqual(Math.ceil(d.workArea.x + d.workArea.width))
    expect(p.y + p.height).toBeLessThanOrEqual(Math.ceil(d.workArea.y + d.workArea.height))
  })
})

describe('panelEdge', () => {
  it('is where the work area gives up the most room, or top without a panel', () => {
    expect(panelEdge(display('left', 60))).toBe('left')
    expect(panelEdge(display('right'))).toBe('right')
    expect(panelEdge(display('none'))).toBe('top')
  })
})
