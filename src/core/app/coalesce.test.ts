import { describe, expect, it } from 'vitest'
import { ManualClock } from '../util/clock'
import { createCoalescer } from './coalesce'

describe('createCoalescer', () => {
  it('turns a burst into one run on the next tick', async () => {
    const clock = new ManualClock(0)
    let runs = 0
    const c = createCoalescer(() => runs++, 100, clock)
    c.request()
    c.request()
    c.request()
    expect(runs).toBe(0)
    await clock.advance(0)
    expect(runs).toBe(1)
  })

  it('runs at most once per interval, and never drops the last change', async () => {
    const clock = new ManualClock(0)
    const at: number[] = []
    const c = createCoalescer(() => at.push(clock.now()), 100, clock)
    c.request()
    await clock.advance(10)
    c.request()
    await clock.advance(50)
    c.request()
    await clock.advance(100)
    expect(at).toEqual([0, 100])
    await clock.advance(500)
    c.request()
    await clock.advance(0)
    expect(at).toEqual([0, 100, 660])
  })

  it('flush runs a pending request now; cancel drops it for good', async () => {
    const clock = new ManualClock(0)
    let runs = 0
    const c = createCoalescer(() => runs++, 100, clock)
    c.flush()
    expect(runs).toBe(0)
    c.request()
    c.flush()
    expect(runs).toBe(1)
    c.request()
    c.cancel()
    c.request()
    await clock.advance(1000)
    expect(runs).toBe(1)
  })
})
