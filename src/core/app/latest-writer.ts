// Persists only the newest value: one write at a time, and values that arrive during a write
// collapse into a single follow-up write. A failed write is reported, never thrown at the caller.

export interface LatestWriter<T> {
  write(value: T): void
  /** Resolves once everything asked for so far is written (or has failed). */
  settled(): Promise<void>
}

export function createLatestWriter<T>(
  save: (value: T) => Promise<void>,
  onError: (error: unknown) => void
): LatestWriter<T> {
  let pending: { value: T } | null = null
  let running: Promise<void> | null = null

  const drain = async (): Promise<void> => {
    while (pending) {
      const { value } = pending
      pending = null
      try {
        await save(value)
      } catch (error) {
        onError(error)
      }
    }
    running = null
  }

  return {
    write(value) {
      pending = { value }
      running ??= drain()
    },
    settled() {
      return running ?? Promise.resolve()
    }
  }
}
