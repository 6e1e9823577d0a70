// The outbox's waits and bounds against a scripted sender (no HTTP): what the receiver or the key
// store says decides each outcome, and the clock shows when each try was made.
import { afterEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../util/clock'
import type { ForwardEvent } from './event'
import {
  BACKOFF,
  createOutbox,
  GIVE_UP_AFTER_MS,
  MAX_PENDING_PER_TARGET,
  MAX_RETRY_AFTER_MS,
  type OutboxDeps
} from './outbox'
import { memoryOutboxStorage } from './outbox-file'
import type { Outcome } from './response'
import type { ParsedTarget } from './target-url'
import { forwardEvent } from './test-events'

const cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

const TARGET: ParsedTarget = { kind: 'webhook', host: '127.0.0.1', url: 'http://127.0.0.1:9/hook' }
const START = Date.UTC(2026, 10, 27, 9)

/** An outbox whose sends answer from `answer` (delivered when absent), each try recorded with its time. */
function setup(
  answer: (event: ForwardEvent, n: number) => Outcome = () => ({ kind: 'delivered' }),
  deps: Partial<OutboxDeps> = {}
) {
  const clock = new ManualClock(START)
  const tries: Array<{ at: number; id: string }> = []
  const giveUps: Array<{ targetId: string; reason: string }> = []
  const outbox = createOutbox({
    clock,
    storage: memoryOutboxStorage(),
    resolve: () => Promise.resolve({ target: TARGET }),
    send: (_t, event) => {
      tries.push({ at: clock.now(), id: event.id })
      return Promise.resolve(answer(event, tries.length))
    },
    onGiveUp: (targetId, _e, reason) => giveUps.push({ targetId, reason }),
    random: () => 0,
    ...deps
  })
  cleanup.push(() => outbox.dispose())
  return { clock, outbox, tries, giveUps }
}

describe('a retry waits', () => {
  // Retry-After: 0, a past date, or Discord's retry_after: 0 all arrive as 0 ms.
  it('at least the first backoff step when the receiver says to try again at once', async () => {
    const { clock, outbox, tries } = setup((_e, n) =>
      n < 3 ? { kind: 'retry', reason: 'HTTP 429', retryAfterMs: 0 } : { kind: 'delivered' }
    )
    outbox.enqueue(forwardEvent('t1'), ['w'])
    await outbox.idle()
    await clock.advance(BACKOFF.firstMs - 1)
    expect(tries).toHaveLength(1)
    await clock.advance(1)
    await outbox.idle()
    expect(tries).toHaveLength(2)
    await clock.advance(BACKOFF.firstMs)
    await outbox.idle()
    expect(tries.map((t) => t.at - START)).toEqual([0, BACKOFF.firstMs, 2 * BACKOFF.firstMs])
    expect(outbox.status('w').pending).toBe(0)
  })

  it('at most the cap when the receiver asks for days', async () => {
    const { clock, outbox, tries } = setup((_e, n) =>
      n < 2 ? { kind: 'retry', reason: 'HTTP 429', retryAfterMs: 3 * GIVE_UP_AFTER_MS } : { kind: 'delivered' }
    )
    outbox.enqueue(forwardEvent('t1'), ['w'])
    await outbox.idle()
    await clock.advance(MAX_RETRY_AFTER_MS)
    await outbox.idle()
    expect(tries.map((t) => t.at - START)).toEqual([0, MAX_RETRY_AFTER_MS])
  })
})

describe('the queue of a target', () => {
  it(`holds at most ${MAX_PENDING_PER_TARGET} events: the oldest are given up (never the one being sent), told once`, async () => {
    const { clock, outbox, giveUps, tries } = setup(() => ({ kind: 'retry', reason: 'HTTP 500' }))
    outbox.enqueue(forwardEvent('t0'), ['w'])
    await outbox.idle()
    for (let i = 1; i <= MAX_PENDING_PER_TARGET + 4; i++) outbox.enqueue(forwardEvent(`t${i}`), ['w'])
    expect(outbox.status('w')).toMatchObject({ pending: MAX_PENDING_PER_TARGET, givenUp: 5 })
    expect(giveUps).toEqual([
      { targetId: 'w', reason: expect.stringContaining(`more than ${MAX_PENDING_PER_TARGET}`) as unknown as string }
    ])
    outbox.enqueue(forwardEvent('t-next'), ['w'])
    await outbox.idle()
    expect(outbox.status('w')).toMatchObject({ pending: MAX_PENDING_PER_TARGET, givenUp: 6 })
    expect(giveUps).toHaveLength(1)
    // t0 went while it waited; t1, sent when it became the head, stays at the head.
    await clock.advance(MAX_RETRY_AFTER_MS)
    await outbox.idle()
    expect(tries.map((t) => t.id).slice(0, 3)).toEqual([
      forwardEvent('t0').id,
      forwardEvent('t1').id,
      forwardEvent('t1').id
    ])
  })
})
