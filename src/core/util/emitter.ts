// A tiny typed event emitter. A listener that throws is reported, never allowed to stop the
// monitor or the other listeners.

export type Listener<T> = (payload: T) => void

export class Emitter<Events extends object> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>()

  constructor(
    private readonly onListenerError: (error: unknown) => void = (e) => console.error('monitor listener failed:', e)
  ) {}

  /** Returns a function that removes the listener. */
  on<K extends keyof Events>(name: K, listener: Listener<Events[K]>): () => void {
    let set = this.listeners.get(name)
    if (!set) {
      set = new Set()
      this.listeners.set(name, set)
    }
    set.add(listener as Listener<never>)
    return () => this.off(name, listener)
  }

  off<K extends keyof Events>(name: K, listener: Listener<Events[K]>): void {
    this.listeners.get(name)?.delete(listener as Listener<never>)
  }

  emit<K extends keyof Events>(name: K, payload: Events[K]): void {
    const set = this.listeners.get(name)
    if (!set) return
    for (const listener of [...set]) {
      try {
        ;(listener as Listener<Events[K]>)(payload)
      } catch (error) {
        this.onListenerError(error)
      }
    }
  }

  /** Whether anyone listens: lets the caller skip building a costly payload. */
  has<K extends keyof Events>(name: K): boolean {
    return (this.listeners.get(name)?.size ?? 0) > 0
  }

  removeAll(): void {
    this.listeners.clear()
  }
}
