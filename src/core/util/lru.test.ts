import { describe, expect, it } from 'vitest'
import { LruMap } from './lru'

describe('LruMap', () => {
  it('evicts the least recently used entry', () => {
    const lru = new LruMap<string, number>(2)
    lru.set('a', 1)
    lru.set('b', 2)
    expect(lru.get('a')).toBe(1)
    lru.set('c', 3)
    expect(lru.has('b')).toBe(false)
    expect([...lru.entries()].map(([k]) => k)).toEqual(['a', 'c'])
    expect(() => new LruMap(0)).toThrow(RangeError)
  })
})
