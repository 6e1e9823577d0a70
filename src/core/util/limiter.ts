// A counting semaphore: at most `max` tasks run at once, the rest wait in order. Several monitors
// (one per connection) share one, so every account's polls fit in one concurrency limit.

export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>
  /** A new limit; waiting tasks start at once if it grew. */
  setMax(max: number): void
  readonly active: number
  readonly waiting: number
}

export function createLimiter(max: number): Limiter {
  let limit = Math.max(1, Math.floor(max))
  let active = 0
  const queue: (() => void)[] = []

  const next = (): void => {
    while (active < limit && queue.length > 0) {
      active++
      queue.shift()!()
    }
  }

  return {
    run<T>(task: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        // The slot is free before the caller hears the outcome, so the next task is already started.
        const release = (): void => {
          active--
          next()
        }
        queue.push(() => {
          let started: Promise<T>
          try {
            started = task()
          } catch (error) {
            started = Promise.reject(error)
          }
          started.then(
            (value) => (release(), resolve(value)),
            (error: unknown) => (release(), reject(error))
          )
        })
        next()
      })
    },
    setMax(value) {
      limit = Math.max(1, Math.floor(value))
      next()
    },
    get active() {
      return active
    },
    get waiting() {
      return queue.length
    }
  }
}
