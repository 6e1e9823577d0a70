// The outbox while another process may hold its lock, in process: a fake lock and a recording
// outbox stand for outbox-lock.ts and outbox.ts (outbox.writers.test.ts runs two real processes).
import { describe, expect, it } from 'vitest'
import { flushMicrotasks, ManualClock } from '../util/clock'
import type { Outbox } from './outbox'
import { MAX_PENDING_PER_TARGET } from './outbox'
import { FORWARDING_ELSEWHERE_APP, type OutboxLock } from './outbox-lock'
import { createStandbyOutbox, type StandbyDeps } from './outbox-standby'
import { forwardEvent } from './test-events'

function recordingOutbox() {
  const calls: string[] = []
  const outbox: Outbox = {
    enqueue: (e, ids) => void calls.push(`enqueue ${e.id.slice(0, 4)} ${ids.join(',')}`),
    forget: (id) => void calls.push(`forget ${id}`),
    retain: (ids) => void calls.push(`retain ${ids.join(',')}`),
    status: (id) => ({ pending: 7, lastError: `outbox ${id}` }),
    noteTest: (id, o) => void calls.push(`noteTest ${id} ${o.kind}`),
    idle: () => Promise.resolve(void calls.push('idle')),
    dispose: () => void calls.push('dispose')
  }
  return { calls, outbox }
}

/** A lock held elsewhere for the first `busy` tries; each taken lock records its release. */
function fakeLock(busy: number) {
  let tries = 0
  const log: string[] = []
  let lost: (error: Error) => void = () => {}
  const take = (onLost: (error: Error) => void): Promise<OutboxLock | null> => {
    tries += 1
    lost = onLost
    if (tries <= busy) return Promise.resolve(null)
    return Promise.resolve({ release: () => Promise.resolve(void log.push('released')) })
  }
  return { take, log, tries: () => tries, lose: (e: Error) => lost(e) }
}

function setup(extra: Partial<StandbyDeps> = {}) {
  const clock = new ManualClock(Date.UTC(2026, 10, 27, 9))
  const rec = recordingOutbox()
  const errors: string[] = []
  let opens = 0
  let changes = 0
  const standby = createStandbyOutbox({
    clock,
    open: () => ((opens += 1), rec.outbox),
    onError: (e) => void errors.push(e instanceof Error ? e.message : String(e)),
    onChange: () => void (changes += 1),
    ...extra
  })
  return { clock, standby, calls: rec.calls, errors, opens: () => opens, changes: () => changes }
}

const e1 = forwardEvent('t1')
const e2 = forwardEvent('t2')

describe('without a lock to take (memory storage)', () => {
  it('opens at once and passes everything to the outbox', async () => {
    const s = setup()
    await expect(s.standby.ready).resolves.toEqual({ held: true })
    expect(s.opens()).toBe(1)
    s.standby.enqueue(e1, ['a'])
    s.standby.forget('a')
    s.standby.retain(['b'])
    s.standby.noteTest('b', { kind: 'delivered' })
    await s.standby.idle()
    expect(s.standby.status('b')).toEqual({ pending: 7, lastError: 'outbox b' })
    expect(s.calls).toEqual([`enqueue ${e1.id.slice(0, 4)} a`, 'forget a', 'retain b', 'noteTest b delivered', 'idle'])
  })
})

describe('while another process holds the lock', () => {
  it('keeps what is queued in memory, says why, and hands it to the outbox once it takes the lock', async () => {
    const lock = fakeLock(1)
    const s = setup({ take: lock.take, retryMs: 15_000 })
    await expect(s.standby.ready).resolves.toEqual({ held: false, reason: FORWARDING_ELSEWHERE_APP })
    expect(s.opens()).toBe(0)
    expect(s.changes()).toBe(1)
    s.standby.enqueue(e1, ['a', 'b'])
    s.standby.enqueue(e2, ['a'])
    s.standby.noteTest('a', { kind: 'delivered' })
    expect(s.standby.status('a')).toEqual({ pending: 2, lastError: FORWARDING_ELSEWHERE_APP })
    expect(s.standby.status('b')).toEqual({ pending: 1, lastError: FORWARDING_ELSEWHERE_APP })
    s.standby.forget('b')
    expect(s.standby.status('b')).toEqual({ pending: 0, lastError: FORWARDING_ELSEWHERE_APP })
    s.standby.retain(['a', 'c'])
    await s.clock.advance(14_999)
    expect(lock.tries()).toBe(1)
    await s.clock.advance(1)
    expect(lock.tries()).toBe(2)
    expect(s.opens()).toBe(1)
    // The targets kept are told first, then the waiting events in the order they came.
    expect(s.calls).toEqual(['retain a,c', `enqueue ${e1.id.slice(0, 4)} a`, `enqueue ${e2.id.slice(0, 4)} a`])
    expect(s.changes()).toBe(2)
    // The first try's answer stays what `ready` says.
    await expect(s.standby.ready).resolves.toEqual({ held: false, reason: FORWARDING_ELSEWHERE_APP })
    await s.standby.close()
    expect(lock.log).toEqual(['released'])
  })

  it('retain drops the targets not kept from what waits', async () => {
    const s = setup({ take: fakeLock(1).take })
    await s.standby.ready
    s.standby.enqueue(e1, ['a', 'b'])
    s.standby.retain(['b'])
    expect(s.standby.status('a').pending).toBe(0)
    expect(s.standby.status('b').pending).toBe(1)
  })

  it(`holds at most ${MAX_PENDING_PER_TARGET} waiting rounds, dropping the oldest`, async () => {
    const lock = fakeLock(1)
    const s = setup({ take: lock.take, retryMs: 1_000 })
    await s.standby.ready
    for (let i = 0; i <= MAX_PENDING_PER_TARGET; i++) s.standby.enqueue(forwardEvent(`t${i}`), ['a'])
    expect(s.standby.status('a').pending).toBe(MAX_PENDING_PER_TARGET)
    await s.clock.advance(1_000)
    expect(s.calls[0]).toBe(`enqueue ${forwardEvent('t1').id.slice(0, 4)} a`)
    expect(s.calls).toHaveLength(MAX_PENDING_PER_TARGET)
  })

  it('without retryMs (the command) tries once', async () => {
    const lock = fakeLock(1)
    const s = setup({ take: lock.take })
    await s.standby.ready
    expect(s.clock.pending).toBe(0)
    await s.clock.advance(3_600_000)
    expect(lock.tries()).toBe(1)
  })

  it('a lock that cannot be made is said as it is, told as an error, and tried again', async () => {
    let tries = 0
    const take = () =>
      ++tries === 1 ? Promise.reject(new Error('EACCES: no')) : Promise.resolve({ release: () => Promise.resolve() })
    const s = setup({ take, retryMs: 5_000 })
    const reason = 'Forwarding cannot lock its outbox: EACCES: no'
    await expect(s.standby.ready).resolves.toEqual({ held: false, reason })
    expect(s.errors).toEqual(['EACCES: no'])
    expect(s.standby.status('a')).toEqual({ pending: 0, lastError: reason })
    await s.clock.advance(5_000)
    expect(s.opens()).toBe(1)
  })

  it('a thrown non-Error is said too', async () => {
    const s = setup({ take: () => Promise.reject('gone') })
    await expect(s.standby.ready).resolves.toEqual({ held: false, reason: 'Forwarding cannot lock its outbox: gone' })
  })

  it('stopped before the retry: no further try', async () => {
    const lock = fakeLock(1)
    const s = setup({ take: lock.take, retryMs: 1_000 })
    await s.standby.ready
    s.standby.dispose()
    expect(s.clock.pending).toBe(0)
    await s.clock.advance(10_000)
    expect(lock.tries()).toBe(1)
  })
})

describe('holding the lock', () => {
  it('opens the outbox, and close disposes it and releases the lock once', async () => {
    const lock = fakeLock(0)
    const s = setup({ take: lock.take })
    await expect(s.standby.ready).resolves.toEqual({ held: true })
    expect(s.standby.status('a')).toEqual({ pending: 7, lastError: 'outbox a' })
    await s.standby.close()
    await s.standby.close()
    expect(s.calls).toEqual(['dispose', 'dispose'])
    expect(lock.log).toEqual(['released'])
  })

  it('stopped while the lock was being taken: it is released, and nothing opens', async () => {
    let resolve: (l: OutboxLock) => void = () => {}
    const log: string[] = []
    const s = setup({ take: () => new Promise<OutboxLock>((r) => (resolve = r)) })
    s.standby.dispose()
    resolve({ release: () => Promise.resolve(void log.push('released')) })
    await expect(s.standby.ready).resolves.toEqual({ held: false, reason: 'Forwarding stopped.' })
    expect(log).toEqual(['released'])
    expect(s.opens()).toBe(0)
  })

  it('a lost lock stops writing, says so, and takes the lock again later', async () => {
    const lock = fakeLock(0)
    const s = setup({ take: lock.take, retryMs: 15_000 })
    await s.standby.ready
    lock.lose(new Error('stale'))
    expect(s.calls).toEqual(['dispose'])
    expect(s.errors).toEqual(["Forwarding stopped: the outbox's lock was lost (stale)."])
    expect(s.standby.status('a')).toEqual({ pending: 0, lastError: FORWARDING_ELSEWHERE_APP })
    s.standby.enqueue(e1, ['a'])
    expect(s.standby.status('a').pending).toBe(1)
    expect(s.changes()).toBe(2)
    await s.clock.advance(15_000)
    await flushMicrotasks()
    expect(s.opens()).toBe(2)
    expect(s.calls).toEqual(['dispose', `enqueue ${e1.id.slice(0, 4)} a`])
  })

  it('idle waits for the outbox', async () => {
    const s = setup({ take: fakeLock(0).take })
    await s.standby.idle()
    expect(s.calls).toEqual(['idle'])
  })

  it('a second close waits for the same release as the first', async () => {
    let finish: () => void = () => {}
    const s = setup({ take: () => Promise.resolve({ release: () => new Promise<void>((r) => (finish = r)) }) })
    await s.standby.ready
    const order: string[] = []
    const first = s.standby.close().then(() => order.push('first'))
    const second = s.standby.close().then(() => order.push('second'))
    await flushMicrotasks()
    expect(order).toEqual([])
    finish()
    await Promise.all([first, second])
    expect(order).toEqual(['first', 'second'])
  })
})
