// The outbox's rules one by one against a scripted sender and key store (no HTTP): the waits'
// arithmetic, what a try records, the key store's failures, and what enqueue, forget, retain,
// noteTest and a restart do to the document.
import { afterEach, describe, expect, it } from 'vitest'
import { flushMicrotasks, ManualClock } from '../util/clock'
import type { ForwardEvent } from './event'
import {
  BACKOFF,
  backoffMs,
  createOutbox,
  GIVE_UP_AFTER_MS,
  KEY_STORE_UNREADABLE,
  MAX_PENDING_PER_TARGET,
  type OutboxDeps,
  retryWaitMs
} from './outbox'
import { DELIVERED_MEMORY, emptyOutbox, memoryOutboxStorage, type OutboxDocument } from './outbox-file'
import type { Outcome } from './response'
import type { ParsedTarget } from './target-url'
import { forwardEvent } from './test-events'

const cleanup: Array<() => unknown> = []
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn()
})

const TARGET: ParsedTarget = { kind: 'webhook', host: 'h', url: 'https://h.example/x' }
const START = Date.UTC(2026, 10, 27, 9)

function setup(
  answer: (event: ForwardEvent, n: number) => Outcome = () => ({ kind: 'delivered' }),
  deps: Partial<OutboxDeps> = {},
  initial?: OutboxDocument
) {
  const clock = new ManualClock(START)
  const storage = memoryOutboxStorage(initial)
  const tries: Array<{ at: number; id: string; secret: string | undefined }> = []
  const giveUps: string[] = []
  let writes = 0
  const write = storage.write
  storage.write = (doc) => (writes++, write(doc))
  const outbox = createOutbox({
    clock,
    storage,
    resolve: () => Promise.resolve({ target: TARGET, secret: 'the-secret-0123456' }),
    send: (_t, event, secret) => {
      tries.push({ at: clock.now(), id: event.id, secret })
      return Promise.resolve(answer(event, tries.length))
    },
    onGiveUp: (targetId, e, reason) => giveUps.push(`${targetId} ${e.task?.id} ${reason}`),
    random: () => 0,
    ...deps
  })
  cleanup.push(() => outbox.dispose())
  return { clock, outbox, tries, giveUps, storage, writes: () => writes }
}

describe('the waits', () => {
  it('backoff: doubling from the first step to the cap, half fixed and half jitter (clamped)', () => {
    expect([0, 1, 2, 3].map((n) => backoffMs(n, () => 0))).toEqual([2_500, 2_500, 5_000, 10_000])
    expect(backoffMs(1, () => 1)).toBe(5_000)
    expect(backoffMs(1, () => 0.5)).toBe(3_750)
    expect(backoffMs(1, () => 7)).toBe(5_000)
    expect(backoffMs(1, () => -3)).toBe(2_500)
    expect(backoffMs(30, () => 1)).toBe(BACKOFF.maxMs)
    expect(backoffMs(30, () => 0)).toBe(BACKOFF.maxMs / 2)
  })

  it("retryWaitMs: the receiver's wait, else backoff, within the first step and the hour", () => {
    expect(retryWaitMs(1, () => 0)).toBe(BACKOFF.firstMs)
    expect(retryWaitMs(3, () => 1)).toBe(20_000)
    expect(retryWaitMs(3, () => 1, 7_000)).toBe(7_000)
    expect(retryWaitMs(3, () => 1, 0)).toBe(BACKOFF.firstMs)
    expect(retryWaitMs(3, () => 1, 10 * 3_600_000)).toBe(3_600_000)
    expect(retryWaitMs(30, () => 1)).toBe(BACKOFF.maxMs)
  })
})

describe('a try', () => {
  it('sends with the secret; a failure records the reason, the time and the attempt, and waits the backoff', async () => {
    const { clock, outbox, tries, storage } = setup((_e, n) =>
      n === 1 ? { kind: 'retry', reason: 'HTTP 500' } : { kind: 'delivered' }
    )
    outbox.enqueue(forwardEvent('t1'), ['w'])
    await outbox.idle()
    expect(tries).toEqual([{ at: START, id: forwardEvent('t1').id, secret: 'the-secret-0123456' }])
    expect(storage.doc.pending).toMatchObject([
      { targetId: 'w', attempts: 1, lastError: 'HTTP 500', enqueuedAt: START, nextAt: START + BACKOFF.firstMs }
    ])
    expect(outbox.status('w')).toEqual({ pending: 1, lastError: 'HTTP 500', lastErrorAt: START })
    await clock.advance(BACKOFF.firstMs)
    await outbox.idle()
    expect(outbox.status('w')).toEqual({ pending: 0, lastDeliveredAt: START + BACKOFF.firstMs })
    expect(storage.doc.delivered).toEqual({ w: [forwardEvent('t1').id] })
  })

  it('a send that throws is a failed try, said by its message', async () => {
    const { outbox } = setup(
      () => {
        throw new Error('boom')
      },
      { send: () => Promise.reject(new Error('boom')) }
    )
    outbox.enqueue(forwardEvent('t1'), ['w'])
    await outbox.idle()
    expect(outbox.status('w')).toMatchObject({ pending: 1, lastError: 'boom' })
    const other = setup(undefined, { send: () => Promise.reject('down') })
    other.outbox.enqueue(forwardEvent('t1'), ['w'])
    await other.outbox.idle()
    expect(other.outbox.status('w').lastError).toBe('down')
  })

  it('a refusal gives the event up at once, told once until a delivery, counted', async () => {
    const { outbox, giveUps } = setup((e) =>
      e.task?.id === 't3' ? { kind: 'delivered' } : { kind: 'refused', reason: 'HTTP 404' }
    )
    for (const id of ['t1', 't2']) outbox.enqueue(forwardEvent(id), ['w'])
    await outbox.idle()
    await outbox.idle()
    expect(outbox.status('w')).toEqual({ pending: 0, givenUp: 2, lastError: 'HTTP 404', lastErrorAt: START })
    expect(giveUps).toEqual(['w t1 HTTP 404'])
    outbox.enqueue(forwardEvent('t3'), ['w'])
    await outbox.idle()
    expect(outbox.status('w')).toEqual({ pending: 0, lastDeliveredAt: START })
    outbox.enqueue(forwardEvent('t4'), ['w'])
    await outbox.idle()
    expect(giveUps).toEqual(['w t1 HTTP 404', 'w t4 HTTP 404'])
  })

  it('given up once the next wait would pass 24 h from when it was queued, not before', async () => {
    const { clock, outbox, tries, giveUps } = setup(() => ({
      kind: 'retry',
      reason: 'HTTP 503',
      retryAfterMs: 3_600_000
    }))
    outbox.enqueue(forwardEvent('t1'), ['w'])
    for (let i = 0; i < 30 && outbox.status('w').pending > 0; i++) {
      await outbox.idle()
      await clock.advance(3_600_000)
    }
    // Tried at 0 h … 24 h: the wait after the try at 23 h ends at 24 h exactly (still within), the next past it.
    expect(tries.map((t) => (t.at - START) / 3_600_000)).toEqual(Array.from({ length: 25 }, (_, i) => i))
    expect(giveUps).toEqual(['w t1 not delivered in 24 h: HTTP 503'])
    expect(GIVE_UP_AFTER_MS).toBe(24 * 3_600_000)
  })

  it('a target whose entry is missing: each event given up, told once', async () => {
    const { outbox, giveUps, tries } = setup(undefined, {
      resolve: () => Promise.resolve({ missing: 'gone from the key store' })
    })
    outbox.enqueue(forwardEvent('t1'), ['w'])
    outbox.enqueue(forwardEvent('t2'), ['w'])
    await outbox.idle()
    await outbox.idle()
    expect(tries).toEqual([])
    expect(giveUps).toEqual(['w t1 gone from the key store'])
    expect(outbox.status('w')).toMatchObject({ pending: 0, givenUp: 2 })
  })

  it('a key store that throws: retried with backoff, told once until a read succeeds, then again', async () => {
    let locked = true
    const told: string[] = []
    const { clock, outbox, tries } = setup(
      (_e, n) => (n === 1 ? { kind: 'retry', reason: 'HTTP 500' } : { kind: 'delivered' }),
      {
        resolve: () => (locked ? Promise.reject(new Error('locked')) : Promise.resolve({ target: TARGET })),
        onKeyStoreFailure: (id, reason) => told.push(`${id} ${reason}`)
      }
    )
    outbox.enqueue(forwardEvent('t1'), ['w'])
    await outbox.idle()
    await clock.advance(BACKOFF.firstMs)
    await outbox.idle()
    expect(told).toEqual([`w ${KEY_STORE_UNREADABLE} locked`])
    expect(outbox.status('w')).toMatchObject({ pending: 1, lastError: `${KEY_STORE_UNREADABLE} locked` })
    locked = false
    await clock.advance(BACKOFF.firstMs * 2)
    await outbox.idle()
    expect(tries).toHaveLength(1)
    locked = true
    await clock.advance(BACKOFF.maxMs)
    await outbox.idle()
    expect(told).toHaveLength(2)
  })

  it('a target gone from the settings: its queue dropped without a word', async () => {
    const { outbox, giveUps, storage } = setup(undefined, { resolve: () => Promise.resolve(null) })
    outbox.enqueue(forwardEvent('t1'), ['w'])
    outbox.enqueue(forwardEvent('t1'), ['v'])
    await outbox.idle()
    expect(storage.doc.pending).toEqual([])
    expect(giveUps).toEqual([])
    expect(outbox.status('w')).toEqual({ pending: 0 })
  })

  it('disposed while the key store was read: nothing sent, nothing recorded', async () => {
    let release: () => void = () => {}
    const { outbox, tries, storage } = setup(undefined, {
      resolve: () => new Promise((r) => (release = () => r({ target: TARGET })))
    })
    outbox.enqueue(forwardEvent('t1'), ['w'])
    outbox.dispose()
    release()
    await outbox.idle()
    expect(tries).toEqual([])
    expect(storage.doc.pending).toHaveLength(1)
  })
})

describe('the document', () => {
  it('enqueue: once per target, never again once delivered; nothing written when nothing is added', async () => {
    const { outbox, tries, writes } = setup()
    outbox.enqueue(forwardEvent('t1'), ['a', 'b', 'a'])
    expect(outbox.status('a').pending).toBe(1)
    await outbox.idle()
    const before = writes()
    outbox.enqueue(forwardEvent('t1'), ['a', 'b'])
    expect(writes()).toBe(before)
    expect(tries).toHaveLength(2)
  })

  it(`remembers the last ${DELIVERED_MEMORY} delivered per target`, async () => {
    const initial = emptyOutbox()
    initial.delivered.w = Array.from({ length: DELIVERED_MEMORY }, (_, i) => `old${i}`)
    const { outbox, storage } = setup(undefined, {}, initial)
    outbox.enqueue(forwardEvent('t1'), ['w'])
    await outbox.idle()
    expect(storage.doc.delivered.w).toHaveLength(DELIVERED_MEMORY)
    expect(storage.doc.delivered.w![0]).toBe('old1')
    expect(storage.doc.delivered.w!.at(-1)).toBe(forwardEvent('t1').id)
  })

  it('forget and retain: a target’s queue, memory and status go; retain writes only when something went', async () => {
    const { outbox, storage, writes } = setup(() => ({ kind: 'retry', reason: 'HTTP 500' }))
    outbox.enqueue(forwardEvent('t1'), ['a', 'b', 'c'])
    await outbox.idle()
    const before = writes()
    outbox.retain(['a', 'b', 'c'])
    expect(writes()).toBe(before)
    outbox.retain(['a', 'b'])
    expect(Object.keys(storage.doc.status).sort()).toEqual(['a', 'b'])
    outbox.forget('a')
    expect(storage.doc.pending.map((p) => p.targetId)).toEqual(['b'])
    expect(storage.doc.status).not.toHaveProperty('a')
    expect(storage.doc.delivered).not.toHaveProperty('a')
  })

  it('noteTest: a delivery clears the error, a failure records it', () => {
    const { outbox } = setup()
    outbox.noteTest('w', { kind: 'refused', reason: 'HTTP 404' })
    expect(outbox.status('w')).toEqual({ pending: 0, lastError: 'HTTP 404', lastErrorAt: START })
    outbox.noteTest('w', { kind: 'delivered' })
    expect(outbox.status('w')).toEqual({ pending: 0, lastDeliveredAt: START })
  })

  it('a restart: what was due goes at once, the rest when due; a file over the bound is cut and written', async () => {
    const initial = emptyOutbox()
    const entry = (id: string, targetId: string, nextAt: number) => ({
      targetId,
      event: forwardEvent(id),
      enqueuedAt: START,
      attempts: 1,
      nextAt
    })
    initial.pending.push(entry('t1', 'due', START - 1), entry('t2', 'later', START + 60_000))
    for (let i = 0; i <= MAX_PENDING_PER_TARGET; i++) initial.pending.push(entry(`b${i}`, 'big', START + 3_600_000))
    const { clock, outbox, tries, storage, giveUps } = setup(undefined, {}, initial)
    expect(storage.doc.pending.filter((p) => p.targetId === 'big')).toHaveLength(MAX_PENDING_PER_TARGET)
    expect(giveUps).toEqual([
      `big b0 more than ${MAX_PENDING_PER_TARGET} notifications were waiting: the oldest were given up.`
    ])
    await flushMicrotasks()
    await outbox.idle()
    expect(tries.map((t) => t.id)).toEqual([forwardEvent('t1').id])
    await clock.advance(59_999)
    expect(tries).toHaveLength(1)
    await clock.advance(1)
    await outbox.idle()
    expect(tries).toHaveLength(2)
  })

  it('a file written at or under the bound is read as it is, not written again', () => {
    const initial = emptyOutbox()
    initial.pending.push({
      targetId: 'w',
      event: forwardEvent('t1'),
      enqueuedAt: START,
      attempts: 0,
      nextAt: START + 1_000
    })
    const { writes } = setup(undefined, {}, initial)
    expect(writes()).toBe(0)
  })

  it('told after every change; a file that cannot be written is an error, and the next try waits', async () => {
    let changes = 0
    const errors: unknown[] = []
    const { outbox, storage } = setup(() => ({ kind: 'retry', reason: 'HTTP 500' }), {
      onChange: () => changes++,
      onError: (e) => errors.push(e)
    })
    outbox.enqueue(forwardEvent('t1'), ['w'])
    expect(changes).toBe(1)
    storage.write = () => {
      throw new Error('disk full')
    }
    await outbox.idle()
    expect(errors).toEqual([new Error('disk full')])
  })
})
