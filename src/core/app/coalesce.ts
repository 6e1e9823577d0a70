// Many changes in a burst (a poll cycle touching ten projects) become one push: the first change
// after a quiet spell goes out on the next tick, later ones at most once per interval.
import type { Clock, TimerHandle } from '../util/clock'

export interface Coalescer {
  /** Asks for a run; several asks before it happens make one run. */
  request(): void
  /** Runs now if a run is pending. */
  flush(): void
  /** Drops a pending run and stops. */
  cancel(): void
}

export function createCoalescer(run: () => void, intervalMs: number, clock: Clock): Coalescer {
  let timer: TimerHandle | null = null
  let lastRunAt = Number.NEGATIVE_INFINITY
  let stopped = false

  const fire = (): void => {
    timer = null
    lastRunAt = clock.now()
    run()
  }

  return {
    request() {
      if (stopped || timer !== null) return
      const wait = Math.max(0, lastRunAt + intervalMs - clock.now())
      timer = clock.setTimeout(fire, wait)
    },
    flush() {
      if (timer === null) return
      clock.clearTimeout(timer)
      fire()
    },
    cancel() {
      stopped = true
      if (timer !== null) clock.clearTimeout(timer)
      timer = null
    }
  }
}
