// Simulated time. The simulation reads time only through this clock: manual (moves only with
// advance) or scaled real time (speed simulated ms per real ms) plus whatever was advanced.

export interface SimClock {
  /** Simulated epoch ms. */
  now(): number
  advance(ms: number): void
}

export function createSimClock(options: {
  startMs: number
  manual: boolean
  speed: number
  realNow?: () => number
}): SimClock {
  const realNow = options.realNow ?? (() => Date.now())
  const realStart = realNow()
  let advanced = 0
  return {
    now() {
      const scaled = options.manual ? 0 : (realNow() - realStart) * options.speed
      return Math.floor(options.startMs + scaled + advanced)
    },
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new Error(`advance needs a non-negative number of ms, got ${ms}`)
      advanced += ms
    }
  }
}
