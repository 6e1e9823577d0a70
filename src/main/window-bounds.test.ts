import { describe, expect, it } from 'vitest'
import { captureWindowState, DEFAULT_WINDOW, MIN_WINDOW, restoreWindowBounds } from './window-bounds'

const laptop = { x: 0, y: 25, width: 1440, height: 875 }
const external = { x: 1440, y: 0, width: 2560, height: 1415 }

describe('restoreWindowBounds', () => {
  it('keeps a saved window that is on a current display', () => {
    expect(restoreWindowBounds({ x: 100, y: 100, width: 800, height: 600, maximized: false }, [laptop])).toEqual({
      x: 100,
      y: 100,
      width: 800,
      height: 600,
      maximized: false
    })
    expect(
      restoreWindowBounds({ x: 2000, y: 200, width: 1200, height: 900, maximized: true }, [laptop, external])
    ).toEqual({
      x: 2000,
      y: 200,
      width: 1200,
      height: 900,
      maximized: true
    })
  })

  it('drops the position when its display is gone, so the window opens centred', () => {
    const r = restoreWindowBounds({ x: 2000, y: 200, width: 1200, height: 800, maximized: false }, [laptop])
    expect(r).toEqual({ width: 1200, height: 800, maximized: false })
  })

  it('drops the position when only a sliver or nothing of the title bar is on screen', () => {
    expect(
      restoreWindowBounds({ x: 1400, y: 100, width: 800, height: 600, maximized: false }, [laptop]).x
    ).toBeUndefined()
    expect(
      restoreWindowBounds({ x: 100, y: -590, width: 800, height: 600, maximized: false }, [laptop]).x
    ).toBeUndefined()
    expect(
      restoreWindowBounds({ x: 100, y: 880, width: 800, height: 600, maximized: false }, [laptop]).x
    ).toBeUndefined()
  })

  it('clamps sizes to the minimum and to the largest display', () => {
    const small = restoreWindowBounds({ width: 10, height: 10, maximized: false }, [laptop])
    expect(small).toEqual({ width: MIN_WINDOW.width, height: MIN_WINDOW.height, maximized: false })
    const huge = restoreWindowBounds({ width: 9000, height: 9000, maximized: false }, [laptop])
    expect(huge).toEqual({ width: laptop.width, height: laptop.height, maximized: false })
  })

  it('falls back to defaults for missing or broken values', () => {
    expect(restoreWindowBounds(undefined, [laptop])).toEqual({ ...DEFAULT_WINDOW, maximized: false })
    const broken = {
      x: Number.NaN,
      y: 10,
      width: Number.POSITIVE_INFINITY,
      height: '7' as unknown as number,
      maximized: 'yes' as unknown as boolean
    }
    expect(restoreWindowBounds(broken, [laptop])).toEqual({ ...DEFAULT_WINDOW, maximized: false })
    expect(restoreWindowBounds({ width: 700, height: 500, maximized: false }, [])).toEqual({
      width: 700,
      height: 500,
      maximized: false
    })
  })
})

describe('captureWindowState', () => {
  it('rounds and keeps the maximised flag', () => {
    expect(captureWindowState({ x: 10.4, y: 20.6, width: 800.2, height: 600.9 }, true)).toEqual({
      x: 10,
      y: 21,
      width: 800,
      height: 601,
      maximized: true
    })
  })
})
