// What is asked before the app is ready is done in order once it is, and a keyed action asked twice only once.

export interface ReadyQueue<T> {
  run(key: string, action: (ready: T) => void): void
  /** The app is ready: does what waited, in order. Later calls are ignored. */
  ready(value: T): void
  readonly isReady: boolean
}

export function createReadyQueue<T>(onError: (key: string, error: unknown) => void): ReadyQueue<T> {
  let value: { v: T } | null = null
  const waiting = new Map<string, (ready: T) => void>()
  const perform = (key: string, action: (ready: T) => void, v: T): void => {
    try {
      action(v)
    } catch (err) {
      onError(key, err)
    }
  }
  return {
    run(key, action) {
      if (value) return perform(key, action, value.v)
      // Asked again while waiting: done once, where it was first asked.
      waiting.set(key, action)
    },
    ready(v) {
      if (value) return
      value = { v }
      const pending = [...waiting]
      waiting.clear()
      for (const [key, action] of pending) perform(key, action, v)
    },
    get isReady() {
      return value !== null
    }
  }
}
