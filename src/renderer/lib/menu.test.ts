import { describe, expect, it } from 'vitest'
import { menuMove } from './menu'

describe('menuMove', () => {
  it('wraps with the arrows and jumps with Home and End', () => {
    expect(menuMove('ArrowDown', 2, 3)).toBe(0)
    expect(menuMove('ArrowUp', 0, 3)).toBe(2)
    expect(menuMove('ArrowDown', -1, 3)).toBe(0)
    expect(menuMove('Home', 2, 3)).toBe(0)
    expect(menuMove('End', 0, 3)).toBe(2)
    expect(menuMove('a', 0, 3)).toBeNull()
    expect(menuMove('ArrowDown', 0, 0)).toBeNull()
  })
})
