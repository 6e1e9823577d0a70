// Time as the monitor sees it, injected so schedules and backoff are tested without sleeping.
// `systemClock` is the real one; `ManualClock` is driven by tests (usable by any test in core).

export type TimerHandle = unknown

export interface Clock {
  now(): number
  setTimeout(fn: () => void, ms: number): TimerHandle
  clearTimeout(handle: TimerHandle): void
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, Math.max(0, ms))
    // Polling alone must never keep a process (e.g. the command) alive.
    t.unref?.()
    return t
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>)
}

interface ManualTimer {
  id: number
  at: number
  fn: () => void
}

/** Lets pending promise callbacks (e.g. a poll's continuation) run before time moves on. */
export async function flushMicrotasks(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve))
}

/** A clock that only moves when told to. Timers fire in time order, in the same call. */
export class ManualClock implements Clock {
  private current: number
  private nextId = 1
  private timers: ManualTimer[] = []

  constructor(start: number | Date = Date.UTC(2025, 0, 1, 9, 0, 0)) {
    this.current = typeof start === 'number' ? start : start.getTime()
  }

  now(): number {
    return this.current
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const timer = { id: this.nextId++, at: this.current + Math.max(0, ms), fn }
    this.timers.push(timer)
    return timer.id
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers = this.timers.filter((t) => t.id !== handle)
  }

  /** How many timers are waiting. */
  get pending(): number {
    return this.timers.length
  }

  /** When the next timer fires, or null. */
  nextAt(): number | null {
    return this.timers.reduce<number | null>((min, t) => (min === null || t.at < min ? t.at : min), null)
  }

  /** Fires due timers in order, letting each one's async work settle, since a timer may await and set another. */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms
    for (;;) {
      await flushMicrotasks()
      const next = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0]
      if (!next) break
      this.timers = this.timers.filter((t) => t !== next)
      this.current = Math.max(this.current, next.at)
      next.fn()
    }
    this.current = target
    await flushMicrotasks()
  }

  /** Moves time to just when the next timer fires, and fires it. */
  async runNext(): Promise<void> {
    const at = this.nextAt()
    if (at !== null) await this.advance(at - this.current)
  }
}
