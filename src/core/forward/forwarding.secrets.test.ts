// Forwarding when the key store fails: a locked or denied key store is a failed try (backoff, told
// once, given up after 24 h), a target whose entry is gone says so and gives its events up with
// one notice, and only a target removed from the settings loses its queue without a word.
import { afterEach, expect, it } from 'vitest'
import type { ForwardTarget } from '../../shared/forward-target'
import { flushMicrotasks, ManualClock } from '../util/clock'
import { createForwarding, NOT_IN_KEY_STORE } from './forwarding'
import { BACKOFF, GIVE_UP_AFTER_MS, KEY_STORE_UNREADABLE } from './outbox'
import { memoryOutboxStorage } from './outbox-file'
import { NAMES, taskEnded, WEBHOOK_TARGET } from './test-events'

const cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

/** Forwarding whose key store answers with `get`; every send is recorded and delivered. */
function open(get: () => Promise<string | null>, targets: ForwardTarget[] = [WEBHOOK_TARGET]) {
  const clock = new ManualClock(Date.UTC(2026, 10, 27, 9))
  const told = { giveUps: [] as string[], keyStore: [] as string[], reads: 0, sent: 0 }
  const settings = { forwarding: { targets }, watched: {}, connectionNotifications: {} }
  const forwarding = createForwarding({
    storage: memoryOutboxStorage(),
    clock,
    secrets: {
      get: () => {
        told.reads++
        return get()
      }
    },
    settings: () => settings,
    names: NAMES,
    moment: () => ({ away: true, quiet: false }),
    onGiveUp: (_id, reason) => told.giveUps.push(reason),
    onKeyStoreFailure: (_id, reason) => told.keyStore.push(reason),
    random: () => 1,
    fetch: () => {
      told.sent++
      return Promise.resolve(new Response('', { status: 200 }))
    }
  })
  cleanup.push(() => forwarding.dispose())
  return { clock, forwarding, told, settings }
}

/** A key store that fails as a locked keychain does, a moment later (so a hot loop would show). */
const locked = () =>
  new Promise<string | null>((_resolve, reject) => setImmediate(() => reject(new Error('The keychain is locked.'))))

it('a key store that cannot be read is retried with backoff, told once, and given up after 24 h', async () => {
  const { clock, forwarding, told } = open(locked)
  forwarding.forward('c1', [taskEnded('t1')])
  await flushMicrotasks()
  await forwarding.idle()
  expect(told.reads).toBe(1)
  expect(forwarding.status('f1')).toMatchObject({
    pending: 1,
    lastError: `${KEY_STORE_UNREADABLE} The keychain is locked.`
  })
  await clock.advance(BACKOFF.firstMs - 1)
  await forwarding.idle()
  expect(told.reads).toBe(1)
  await clock.advance(1)
  await forwarding.idle()
  expect(told.reads).toBe(2)
  for (let ms = 0; ms < GIVE_UP_AFTER_MS && forwarding.status('f1').pending > 0; ms += 15 * 60_000) {
    await clock.advance(15 * 60_000)
    await forwarding.idle()
  }
  expect(forwarding.status('f1')).toMatchObject({ pending: 0, givenUp: 1 })
  expect(told.giveUps).toEqual([`not delivered in 24 h: ${KEY_STORE_UNREADABLE} The keychain is locked.`])
  expect(told.keyStore).toEqual([`${KEY_STORE_UNREADABLE} The keychain is locked.`])
  // Backoff, not a loop: one read per step, the steps at their top (15 min) after a few.
  expect(told.reads).toBeLessThan(GIVE_UP_AFTER_MS / BACKOFF.maxMs + 10)
  expect(told.sent).toBe(0)
})

it('a target whose entry left the key store says so, and gives its events up with one notice', async () => {
  const { forwarding, told } = open(() => Promise.resolve(null))
  forwarding.forward('c1', [taskEnded('t1'), taskEnded('t2')])
  await flushMicrotasks()
  await forwarding.idle()
  expect(forwarding.status('f1')).toMatchObject({ pending: 0, givenUp: 2, lastError: NOT_IN_KEY_STORE })
  expect(told.giveUps).toEqual([NOT_IN_KEY_STORE])
})

it('a target removed from the settings loses its queue without a word', async () => {
  const { forwarding, told, settings } = open(
    () => new Promise((resolve) => setImmediate(() => resolve(JSON.stringify({ url: 'http://127.0.0.1:9/hook' }))))
  )
  forwarding.forward('c1', [taskEnded('t1')])
  settings.forwarding.targets = []
  await flushMicrotasks()
  await forwarding.idle()
  expect(forwarding.status('f1')).toMatchObject({ pending: 0 })
  expect(forwarding.status('f1').lastError).toBeUndefined()
  expect(told.giveUps).toEqual([])
  expect(told.sent).toBe(0)
})
