import { describe, expect, it } from 'vitest'
import { flushMicrotasks } from '../util/clock'
import { IdleWaiters } from './waiters'

/** Whether the promise has settled by now. */
async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false
  void promise.then(() => (done = true))
  await flushMicrotasks(2)
  return done
}

describe('IdleWaiters', () => {
  it('lets everyone waiting go once idle, and keeps them while busy', async () => {
    const waiters = new IdleWaiters()
    const first = waiters.wait()
    const second = waiters.wait()
    waiters.settle(() => false)
    expect(await settled(first)).toBe(false)
    waiters.settle(() => true)
    expect(await settled(first)).toBe(true)
    expect(await settled(second)).toBe(true)
  })

  it('lets everyone go when released, busy or not', async () => {
    const waiters = new IdleWaiters()
    const waiting = waiters.wait()
    waiters.release()
    expect(await settled(waiting)).toBe(true)
  })

  it('a waiter let go is not waiting any more: a later wait waits afresh', async () => {
    const waiters = new IdleWaiters()
    waiters.settle(() => true)
    const later = waiters.wait()
    expect(await settled(later)).toBe(false)
    waiters.settle(() => true)
    expect(await settled(later)).toBe(true)
  })
})
