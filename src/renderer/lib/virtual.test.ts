import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { listLayout, moveIndex, scrollToReveal, VIRTUALIZE_ABOVE, windowRange } from './virtual'

describe('windowRange', () => {
  it('renders the visible rows plus overscan at the top', () => {
    expect(windowRange({ scrollTop: 0, viewportHeight: 100, rowHeight: 20, count: 10_000, overscan: 3 })).toEqual({
      start: 0,
      end: 8,
      padTop: 0,
      padBottom: (10_000 - 8) * 20,
      totalHeight: 200_000
    })
  })

  it('renders a window in the middle', () => {
    const r = windowRange({ scrollTop: 1_010, viewportHeight: 100, rowHeight: 20, count: 10_000, overscan: 2 })
    // Rows 50 (partly) to 55 (partly) are visible.
    expect(r.start).toBe(48)
    expect(r.end).toBe(58)
    expect(r.padTop).toBe(48 * 20)
  })

  it('clamps a scroll past the end and handles empty lists', () => {
    const r = windowRange({ scrollTop: 1e9, viewportHeight: 100, rowHeight: 20, count: 50, overscan: 2 })
    expect(r.end).toBe(50)
    expect(r.start).toBe(43)
    expect(windowRange({ scrollTop: 0, viewportHeight: 100, rowHeight: 20, count: 0, overscan: 2 })).toEqual({
      start: 0,
      end: 0,
      padTop: 0,
      padBottom: 0,
      totalHeight: 0
    })
  })

  it('always covers the viewport and keeps the height', () => {
    fc.assert(
      fc.property(
        fc.nat(20_000),
        fc.nat(2_000),
        fc.integer({ min: 1, max: 80 }),
        fc.nat(20_000),
        fc.nat(10),
        (scrollTop, viewportHeight, rowHeight, count, overscan) => {
          const r = windowRange({ scrollTop, viewportHeight, rowHeight, count, overscan })
          expect(r.padTop + (r.end - r.start) * rowHeight + r.padBottom).toBe(r.totalHeight)
          expect(r.start).toBeGreaterThanOrEqual(0)
          expect(r.end).toBeLessThanOrEqual(count)
          const clamped = Math.min(scrollTop, Math.max(0, count * rowHeight - viewportHeight))
          if (count > 0) {
            expect(r.padTop).toBeLessThanOrEqual(clamped)
            expect(r.totalHeight - r.padBottom).toBeGreaterThanOrEqual(
              Math.min(r.totalHeight, clamped + viewportHeight)
            )
          }
          // Windowed: never more than a viewport's worth plus overscan.
          expect(r.end - r.start).toBeLessThanOrEqual(Math.ceil(viewportHeight / rowHeight) + 2 + 2 * overscan)
        }
      )
    )
  })
})

describe('scrollToReveal', () => {
  it('scrolls up or down just enough', () => {
    expect(scrollToReveal(2, 100, 100, 20)).toBe(40)
    expect(scrollToReveal(10, 100, 100, 20)).toBe(120)
    expect(scrollToReveal(6, 100, 100, 20)).toBeNull()
  })
})

describe('moveIndex', () => {
  it('moves within the list', () => {
    expect(moveIndex(0, 'ArrowUp', 10, 5)).toBe(0)
    expect(moveIndex(9, 'ArrowDown', 10, 5)).toBe(9)
    expect(moveIndex(3, 'PageDown', 10, 5)).toBe(8)
    expect(moveIndex(3, 'PageUp', 10, 5)).toBe(0)
    expect(moveIndex(3, 'End', 10, 5)).toBe(9)
    expect(moveIndex(3, 'Home', 10, 5)).toBe(0)
    expect(moveIndex(3, 'a', 10, 5)).toBeNull()
    expect(moveIndex(0, 'ArrowDown', 0, 5)).toBeNull()
  })
})

describe('listLayout', () => {
  it('draws a short list whole, exactly as tall as its rows', () => {
    expect(listLayout({ count: 15, rowHeight: 52, maxHeight: '80vh' })).toEqual({
      virtual: false,
      height: `${15 * 52 + 2}px`
    })
    expect(listLayout({ count: VIRTUALIZE_ABOVE, rowHeight: 36, maxHeight: '80vh' })).toEqual({
      virtual: false,
      height: `${VIRTUALIZE_ABOVE * 36 + 2}px`
    })
    expect(listLayout({ count: 0, rowHeight: 36, maxHeight: '80vh', border: 0 }).height).toBe('0px')
  })

  it('windows a long list in a box no taller than asked', () => {
    expect(listLayout({ count: VIRTUALIZE_ABOVE + 1, rowHeight: 10, maxHeight: '80vh' })).toEqual({
      virtual: true,
      height: `min(80vh, ${(VIRTUALIZE_ABOVE + 1) * 10 + 2}px)`
    })
    expect(listLayout({ count: 10, rowHeight: 10, maxHeight: '40rem', virtualizeAbove: 5 }).virtual).toBe(true)
  })
})
