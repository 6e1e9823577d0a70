// A small least-recently-used map: the monitor keeps the latest steps and usages of the tasks
// someone looked at or that changed, without growing for ever.

export class LruMap<K, V> {
  private readonly map = new Map<K, V>()

  constructor(private readonly capacity: number) {
    if (!(capacity >= 1)) throw new RangeError('LruMap capacity must be at least 1')
  }

  get(key: K): V | undefined {
    const value = this.map.get(key)
    if (value === undefined) return undefined
    // Re-insert so iteration order is least recently used first.
    this.map.delete(key)
    this.map.set(key, value)
    return value
  }

  /** Reads without counting as a use. */
  peek(key: K): V | undefined {
    return this.map.get(key)
  }

  set(key: K, value: V): void {
    this.map.delete(key)
    this.map.set(key, value)
    while (this.map.size > this.capacity) {
      const oldest = this.map.keys().next().value as K
      this.map.delete(oldest)
    }
  }

  has(key: K): boolean {
    return this.map.has(key)
  }

  delete(key: K): void {
    this.map.delete(key)
  }

  get size(): number {
    return this.map.size
  }

  entries(): IterableIterator<[K, V]> {
    return this.map.entries()
  }
}
