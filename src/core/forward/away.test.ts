import { describe, expect, it } from 'vitest'
import { ManualClock } from '../util/clock'
import { DEFAULT_AWAY_AFTER_MS, isAway } from './away'
import { type TargetRules, targetWants } from './select'
import { forwardEvent } from './test-events'

describe('away', () => {
  it('away when locked, back when unlocked; then away after 5 idle minutes, back on input', async () => {
    const clock = new ClockedPresence(new ManualClock())
    expect(clock.away()).toBe(false)
    clock.locked = true
    expect(clock.away()).toBe(true)
    clock.locked = false
    clock.input()
    expect(clock.away()).toBe(false)
    await clock.clock.advance(DEFAULT_AWAY_AFTER_MS - 1)
    expect(clock.away()).toBe(false)
    await clock.clock.advance(1)
    expect(clock.away()).toBe(true)
    clock.input()
    expect(clock.away()).toBe(false)
  })

  it('a set time replaces the default', () => {
    expect(isAway({ locked: false, idleMs: 60_000 }, 60_000)).toBe(true)
    expect(isAway({ locked: false, idleMs: 60_000 })).toBe(false)
  })

  it('a target set to away gets events only while away; paused gets none; quiet hours only when it asks', () => {
    const rules: TargetRules = { id: 'a', on: ['failed'], when: 'away', paused: false, quietHours: false }
    const failed = forwardEvent('t1', 'failed')
    expect(targetWants(rules, failed, { away: false, quiet: false })).toBe(false)
    expect(targetWants(rules, failed, { away: true, quiet: true })).toBe(true)
    expect(targetWants({ ...rules, quietHours: true }, failed, { away: true, quiet: true })).toBe(false)
    expect(targetWants({ ...rules, paused: true }, failed, { away: true, quiet: false })).toBe(false)
    expect(targetWants({ ...rules, when: 'always' }, failed, { away: false, quiet: false })).toBe(true)
    expect(targetWants(rules, forwardEvent('t1', 'completed'), { away: true, quiet: false })).toBe(false)
  })
})

/** Idle time as the OS reports it: time since the last input, read from the clock. */
class ClockedPresence {
  locked = false
  private lastInput: number
  constructor(readonly clock: ManualClock) {
    this.lastInput = clock.now()
  }
  input(): void {
    this.lastInput = this.clock.now()
  }
  away(): boolean {
    return isAway({ locked: this.locked, idleMs: this.clock.now() - this.lastInput })
  }
}
