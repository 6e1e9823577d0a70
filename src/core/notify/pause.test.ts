import { describe, expect, it } from 'vitest'
import { ManualClock } from '../util/clock'
import { createPauseTimers, pauseEnd, pauseInEffect, pauseShown } from './pause'

const NOW = Date.parse('2026-03-01T12:00:00.000Z')

describe('the pause rule', () => {
  it('is in effect strictly before its end, and never for none or an unreadable end', () => {
    const end = pauseEnd(NOW, 30)
    expect(end).toBe('2026-03-01T12:30:00.000Z')
    expect(pauseInEffect(end, NOW)).toBe(true)
    expect(pauseInEffect(end, NOW + 30 * 60_000 - 1)).toBe(true)
    expect(pauseInEffect(end, NOW + 30 * 60_000)).toBe(false)
    for (const none of [null, undefined, '', 'soon']) expect(pauseInEffect(none, NOW)).toBe(false)
    expect(pauseShown(end, NOW)).toBe(end)
    expect(pauseShown(end, NOW + 31 * 60_000)).toBeNull()
  })
})

describe('pause timers', () => {
  it('keep one timer per scope, call back once the pause is over, and clear on resume, forget and dispose', async () => {
    const clock = new ManualClock(NOW)
    let ended = 0
    const timers = createPauseTimers(clock, () => ended++)
    const after = (minutes: number): string => pauseEnd(clock.now(), minutes)
    timers.paused({ all: true }, after(10))
    timers.paused({ all: true }, after(20))
    timers.paused({ connectionId: 'c1' }, after(5))
    expect(clock.pending).toBe(2)
    await clock.advance(5 * 60_000)
    expect(ended).toBe(0)
    await clock.advance(1)
    expect(ended).toBe(1)
    expect(pauseInEffect(pauseEnd(NOW, 5), clock.now())).toBe(false)
    timers.paused({ connectionId: 'c2' }, after(5))
    timers.forget('c2')
    timers.paused({ connectionId: 'c3' }, after(5))
    timers.paused({ connectionId: 'c3' }, null)
    expect(clock.pending).toBe(1)
    timers.dispose()
    expect(clock.pending).toBe(0)
    timers.paused({ all: true }, after(10))
    expect(clock.pending).toBe(0)
    await clock.advance(60 * 60_000)
    expect(ended).toBe(1)
  })

  it('set from a stored end: one still in effect calls back when it ends, one over or unreadable sets nothing', async () => {
    const clock = new ManualClock(NOW)
    let ended = 0
    const timers = createPauseTimers(clock, () => ended++)
    timers.paused({ all: true }, pauseEnd(NOW - 60 * 60_000, 30))
    timers.paused({ connectionId: 'c1' }, 'not a time')
    expect(clock.pending).toBe(0)
    timers.paused({ connectionId: 'c2' }, pauseEnd(NOW - 60_000, 3))
    await clock.advance(2 * 60_000)
    expect(ended).toBe(0)
    await clock.advance(1)
    expect(ended).toBe(1)
  })
})
