// Windowing for long lists with a fixed row height: only the visible rows plus some overscan are
// in the DOM, so 10,000 tasks or 5,000 steps scroll as smoothly as ten.

export interface WindowInput {
  scrollTop: number
  viewportHeight: number
  rowHeight: number
  count: number
  /** Rows rendered beyond each edge, so keyboard focus and fast scrolls find rows ready. */
  overscan: number
}

export interface WindowRange {
  /** First rendered index. */
  start: number
  /** One past the last rendered index. */
  end: number
  /** Space above the first rendered row, in px. */
  padTop: number
  /** Space below the last rendered row, in px. */
  padBottom: number
  totalHeight: number
}

export function windowRange(input: WindowInput): WindowRange {
  const count = Math.max(0, Math.floor(input.count))
  const rowHeight = input.rowHeight > 0 ? input.rowHeight : 1
  const overscan = Math.max(0, Math.floor(input.overscan))
  const totalHeight = count * rowHeight
  const viewport = Math.max(0, input.viewportHeight)
  const maxScroll = Math.max(0, totalHeight - viewport)
  const scrollTop = Math.min(Math.max(0, input.scrollTop || 0), maxScroll)
  const firstVisible = Math.floor(scrollTop / rowHeight)
  const lastVisible = Math.ceil((scrollTop + viewport) / rowHeight)
  const start = Math.max(0, firstVisible - overscan)
  const end = Math.min(count, Math.max(lastVisible, firstVisible + 1) + overscan)
  return {
    start: Math.min(start, end),
    end,
    padTop: Math.min(start, end) * rowHeight,
    padBottom: (count - end) * rowHeight,
    totalHeight
  }
}

/** The scrollTop that brings row `index` fully into view, or null when it already is. */
export function scrollToReveal(
  index: number,
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number
): number | null {
  const top = index * rowHeight
  const bottom = top + rowHeight
  if (top < scrollTop) return top
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight)
  return null
}

/** The index keyboard navigation moves to, kept within the list. */
export function moveIndex(index: number, key: string, count: number, pageRows: number): number | null {
  if (count === 0) return null
  const last = count - 1
  switch (key) {
    case 'ArrowDown':
      return Math.min(last, index + 1)
    case 'ArrowUp':
      return Math.max(0, index - 1)
    case 'PageDown':
      return Math.min(last, index + Math.max(1, pageRows))
    case 'PageUp':
      return Math.max(0, index - Math.max(1, pageRows))
    case 'Home':
      return 0
    case 'End':
      return last
    default:
      return null
  }
}

/** Lists up to this many rows are drawn whole and grow the page instead of scrolling inside it. */
export const VIRTUALIZE_ABOVE = 50

/** A short list is as tall as its rows (no box scrolling inside a scrolling page); a long one is windowed in a box.
 *  `border` is the box's top and bottom border together. */
export function listLayout(input: {
  count: number
  rowHeight: number
  maxHeight: string
  virtualizeAbove?: number
  border?: number
}): { virtual: boolean; height: string } {
  const count = Math.max(0, Math.floor(input.count))
  const content = count * input.rowHeight + (input.border ?? 2)
  if (count <= (input.virtualizeAbove ?? VIRTUALIZE_ABOVE)) return { virtual: false, height: `${content}px` }
  return { virtual: true, height: `min(${input.maxHeight}, ${content}px)` }
}
