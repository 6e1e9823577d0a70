// A day of failures over real loopback sockets: a 500 and a 401 are tried for 24 h, then given up
// with one notice. Outside the mutation run (about 2 s each, reaching most of outbox, send and
// render): outbox.rules.test.ts states the 24 h bound exactly, response.test.ts that a 401 retries.
import { afterEach, expect, it } from 'vitest'
import { flushMicrotasks, ManualClock } from '../util/clock'
import { createOutbox, GIVE_UP_AFTER_MS } from './outbox'
import { memoryOutboxStorage } from './outbox-file'
import { createSender } from './send'
import { forwardEvent } from './test-events'
import { receiverForTest } from './test-receiver-for-test'
import { ANSWERS, type Receiver } from './test-receivers'

const START = Date.UTC(2026, 10, 27, 9)
const STEP = 15 * 60_000
const cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

const receiver = receiverForTest

function setup(r: Receiver, kind: 'webhook' | 'discord') {
  const clock = new ManualClock(START)
  const giveUps: string[] = []
  const outbox = createOutbox({
    clock,
    storage: memoryOutboxStorage(),
    resolve: () =>
      Promise.resolve({ target: { kind, host: '127.0.0.1', url: kind === 'webhook' ? `${r.url}/hook` : r.url } }),
    send: createSender({ now: () => clock.now() }),
    onGiveUp: (_id, _e, reason) => giveUps.push(reason),
    random: () => 0
  })
  cleanup.push(() => outbox.dispose())
  return { clock, outbox, giveUps }
}

/** Moves the clock in 15-minute steps, letting each send finish, until nothing waits or a day and an hour passed. */
async function aDay(clock: ManualClock, outbox: ReturnType<typeof createOutbox>): Promise<void> {
  while (outbox.status('w').pending > 0 && clock.now() < START + GIVE_UP_AFTER_MS + 3_600_000) {
    await clock.advance(STEP)
    await outbox.idle()
    await flushMicrotasks()
  }
}

it('gives up after 24 h, with one notice for all it gave up', async () => {
  const r = await receiver(ANSWERS.serverError())
  const { clock, outbox, giveUps } = setup(r, 'webhook')
  outbox.enqueue(forwardEvent('t1'), ['w'])
  outbox.enqueue(forwardEvent('t2'), ['w'])
  await aDay(clock, outbox)
  expect(outbox.status('w').pending).toBe(0)
  expect(giveUps).toEqual([expect.stringMatching(/^not delivered in 24 h: HTTP 500/)])
  expect(clock.now() - START).toBeGreaterThanOrEqual(GIVE_UP_AFTER_MS - STEP)
})

it('a 401 keeps its events: tried again with backoff, and given up only after 24 h, told once', async () => {
  const r = await receiver(ANSWERS.discordUnauthorized())
  const { clock, outbox, giveUps } = setup(r, 'discord')
  outbox.enqueue(forwardEvent('t1'), ['w'])
  outbox.enqueue(forwardEvent('t2'), ['w'])
  await r.arrived(1)
  await outbox.idle()
  expect(outbox.status('w')).toMatchObject({
    pending: 2,
    lastError: expect.stringMatching(/^HTTP 401/) as unknown as string
  })
  expect(giveUps).toEqual([])
  await aDay(clock, outbox)
  expect(clock.now() - START).toBeGreaterThanOrEqual(GIVE_UP_AFTER_MS - STEP)
  expect(r.received.length).toBeGreaterThan(2)
  expect(giveUps).toEqual([expect.stringMatching(/^not delivered in 24 h: HTTP 401/)])
})
