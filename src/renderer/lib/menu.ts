// Keyboard moves inside an open menu (WAI-ARIA menu button pattern): arrows wrap, Home and End
// jump. Pure, so it is tested without a DOM.

/** The item index a key moves focus to, or null when the key is not a move. */
export function menuMove(key: string, index: number, count: number): number | null {
  if (count === 0) return null
  switch (key) {
    case 'ArrowDown':
      return (index + 1 + count) % count
    case 'ArrowUp':
      return (index - 1 + count) % count
    case 'Home':
      return 0
    case 'End':
      return count - 1
    default:
      return null
  }
}
