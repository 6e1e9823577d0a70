// The standby outbox without the optional callbacks, and while nothing is open yet: no throw, and
// what status and idle say in between.
import { expect, it } from 'vitest'
import { ManualClock } from '../util/clock'
import type { Outbox } from './outbox'
import { FORWARDING_ELSEWHERE_APP, type OutboxLock } from './outbox-lock'
import { createStandbyOutbox } from './outbox-standby'

const noop: Outbox = {
  enqueue() {},
  forget() {},
  retain() {},
  status: () => ({ pending: 0 }),
  noteTest() {},
  idle: () => Promise.resolve(),
  dispose() {}
}

it('before the first try settles: pending only, no reason yet', async () => {
  let resolve: (l: OutboxLock | null) => void = () => {}
  const s = createStandbyOutbox({
    clock: new ManualClock(),
    open: () => noop,
    onError: () => {},
    take: () => new Promise((r) => (resolve = r))
  })
  expect(s.status('a')).toEqual({ pending: 0 })
  resolve(null)
  await s.ready
})

it('held elsewhere with no onChange: says so without a throw; idle settles with nothing open', async () => {
  const s = createStandbyOutbox({
    clock: new ManualClock(),
    open: () => noop,
    onError: () => {},
    take: () => Promise.resolve(null)
  })
  await expect(s.ready).resolves.toEqual({ held: false, reason: FORWARDING_ELSEWHERE_APP })
  await expect(s.idle()).resolves.toBeUndefined()
})

it('stopped while the try found the lock held: nothing to release', async () => {
  let resolve: (l: OutboxLock | null) => void = () => {}
  const s = createStandbyOutbox({
    clock: new ManualClock(),
    open: () => noop,
    onError: () => {},
    take: () => new Promise((r) => (resolve = r))
  })
  s.dispose()
  resolve(null)
  await expect(s.ready).resolves.toEqual({ held: false, reason: 'Forwarding stopped.' })
})

it('a lock lost twice, with no onChange: no throw', async () => {
  let lose: (e: Error) => void = () => {}
  const errors: unknown[] = []
  const s = createStandbyOutbox({
    clock: new ManualClock(),
    open: () => noop,
    onError: (e) => errors.push(e),
    take: (onLost) => ((lose = onLost), Promise.resolve({ release: () => Promise.resolve() }))
  })
  await s.ready
  lose(new Error('stale'))
  lose(new Error('stale'))
  expect(errors).toHaveLength(2)
  expect(s.status('a')).toEqual({ pending: 0, lastError: FORWARDING_ELSEWHERE_APP })
})
