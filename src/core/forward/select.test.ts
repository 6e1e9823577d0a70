// Which targets get an event: each rule alone, and the test message, which every target takes
// whatever its events, as long as it is not paused and the moment suits it.
import { describe, expect, it } from 'vitest'
import { testEvent } from './event'
import { type TargetRules, targetsFor, targetWants } from './select'
import { forwardEvent } from './test-events'

const rules = (over: Partial<TargetRules> = {}): TargetRules => ({
  id: 'a',
  on: ['failed'],
  when: 'always',
  paused: false,
  quietHours: false,
  ...over
})
const failed = forwardEvent('t1', 'failed')
const here = { away: false, quiet: false }

describe('targetWants', () => {
  it('an event of its kinds, at any moment, when always', () => {
    expect(targetWants(rules(), failed, here)).toBe(true)
    expect(targetWants(rules(), failed, { away: true, quiet: true })).toBe(true)
    expect(targetWants(rules({ on: ['completed'] }), failed, here)).toBe(false)
    expect(targetWants(rules({ on: ['completed', 'failed'] }), failed, here)).toBe(true)
  })

  it('the test message whatever its kinds; never while paused', () => {
    expect(targetWants(rules({ on: [] }), testEvent(0, 'n'), here)).toBe(true)
    expect(targetWants(rules({ on: [], paused: true }), testEvent(0, 'n'), here)).toBe(false)
    expect(targetWants(rules({ when: 'away' }), testEvent(0, 'n'), here)).toBe(false)
  })

  it('quiet hours hold it only when it keeps them and they are on', () => {
    expect(targetWants(rules({ quietHours: true }), failed, here)).toBe(true)
    expect(targetWants(rules({ quietHours: true }), failed, { away: false, quiet: true })).toBe(false)
  })
})

it('targetsFor: the ids of the targets that want it, in order', () => {
  const targets = [
    rules({ id: 'a' }),
    rules({ id: 'b', paused: true }),
    rules({ id: 'c', when: 'away' }),
    rules({ id: 'd' })
  ]
  expect(targetsFor(targets, failed, here)).toEqual(['a', 'd'])
  expect(targetsFor(targets, failed, { away: true, quiet: false })).toEqual(['a', 'c', 'd'])
  expect(targetsFor([], failed, here)).toEqual([])
})
