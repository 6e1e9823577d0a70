import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { flushMicrotasks, ManualClock } from '../util/clock'
import { createOutbox, type Outbox, retryWaitMs } from './outbox'
import { fileOutboxStorage, memoryOutboxStorage, OUTBOX_FILE, type OutboxStorage } from './outbox-file'
import { createSender } from './send'
import type { ParsedTarget } from './target-url'
import { forwardEvent } from './test-events'
import { ANSWERS, deliveredKeys, type Receiver, startReceiver } from './test-receivers'

const cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

function setup(
  targets: Record<string, ParsedTarget>,
  storage: OutboxStorage = memoryOutboxStorage(),
  clock = new ManualClock(Date.UTC(2026, 10, 27, 9))
) {
  const giveUps: Array<{ targetId: string; reason: string }> = []
  const outbox = createOutbox({
    clock,
    storage,
    resolve: (id) => Promise.resolve(targets[id] ? { target: targets[id] } : null),
    send: createSender({ now: () => clock.now() }),
    onGiveUp: (targetId, _e, reason) => giveUps.push({ targetId, reason }),
    random: () => 0
  })
  cleanup.push(() => outbox.dispose())
  return { clock, outbox, giveUps }
}

async function receiver(fallback = ANSWERS.ok()): Promise<Receiver> {
  const r = await startReceiver(fallback)
  cleanup.push(() => r.close())
  return r
}

const webhook = (r: Receiver | string): ParsedTarget => ({
  kind: 'webhook',
  host: '127.0.0.1',
  url: typeof r === 'string' ? r : `${r.url}/hook`
})

/** Moves the clock in steps, letting each send finish, until `done` or `maxMs` has passed. */
async function runUntil(
  clock: ManualClock,
  outbox: Outbox,
  done: () => boolean,
  maxMs: number,
  stepMs = 60_000
): Promise<void> {
  const end = clock.now() + maxMs
  while (!done() && clock.now() < end) {
    await clock.advance(Math.min(stepMs, end - clock.now()))
    await outbox.idle()
    await flushMicrotasks()
  }
}

describe('the outbox', () => {
  it('500, then 429 with Retry-After, then 200: delivered once, waiting as long as the receiver said', async () => {
    const r = await receiver()
    r.script.push(ANSWERS.serverError(), ANSWERS.ntfyLimited(120))
    const { clock, outbox } = setup({ w: webhook(r) })
    outbox.enqueue(forwardEvent('t1'), ['w'])
    await r.arrived(1)
    await outbox.idle()
    expect(outbox.status('w')).toMatchObject({ pending: 1, lastError: 'HTTP 500: internal error' })
    await clock.advance(retryWaitMs(1, () => 0))
    await r.arrived(2)
    await outbox.idle()
    await clock.advance(119_999)
    await flushMicrotasks()
    expect(r.received).toHaveLength(2)
    await clock.advance(1)
    await r.arrived(3)
    await outbox.idle()
    expect(outbox.status('w')).toMatchObject({ pending: 0, lastDeliveredAt: clock.now() })
    expect(outbox.status('w').lastError).toBeUndefined()
    expect(r.received).toHaveLength(3)
    expect(deliveredKeys(r)).toEqual([forwardEvent('t1').id])
    // Told again (a restart's "while you were away", a second round): never sent again.
    outbox.enqueue(forwardEvent('t1'), ['w'])
    await runUntil(clock, outbox, () => false, 3_600_000)
    expect(r.received).toHaveLength(3)
  })

  it('a receiver down for an hour gets the event when it is back', async () => {
    const probe = await startReceiver()
    const port = probe.port
    await probe.close()
    const { clock, outbox } = setup({ w: webhook(`http://127.0.0.1:${port}/hook`) })
    outbox.enqueue(forwardEvent('t1'), ['w'])
    await runUntil(clock, outbox, () => false, 3_600_000)
    expect(outbox.status('w')).toMatchObject({ pending: 1, lastError: expect.stringContaining('not reachable') })
    const r = await startReceiver(ANSWERS.ok(), port)
    cleanup.push(() => r.close())
    await runUntil(clock, outbox, () => outbox.status('w').pending === 0, 3_600_000)
    expect(deliveredKeys(r)).toEqual([forwardEvent('t1').id])
    expect(r.received).toHaveLength(1)
  })

  it('in order per target; one failing target holds up no other', async () => {
    const good = await receiver(ANSWERS.slackOk())
    const bad = await receiver(ANSWERS.serverError())
    const { clock, outbox } = setup({ good: { kind: 'slack', host: 'h', url: good.url }, bad: webhook(bad) })
    for (const id of ['t1', 't2', 't3']) outbox.enqueue(forwardEvent(id), ['bad', 'good'])
    await runUntil(clock, outbox, () => good.received.length === 3, 600_000, 1_000)
    expect(good.received.map((x) => (JSON.parse(x.body) as { text: string }).text)).toEqual(
      ['t1', 't2', 't3'].map(() => expect.stringContaining('failed')) as unknown as string[]
    )
    expect(outbox.status('good').pending).toBe(0)
    expect(outbox.status('bad').pending).toBe(3)
    // The failing target is tried only with its first event, so its order holds.
    expect(new Set(deliveredKeys(bad))).toEqual(new Set([forwardEvent('t1').id]))
  })

  it("a refusal (Telegram's {ok:false}) is one notice and lets the next event through", async () => {
    const r = await receiver(ANSWERS.telegramOk())
    r.script.push(ANSWERS.telegramNotOk())
    const { clock, outbox, giveUps } = setup({ tg: { kind: 'telegram', host: 'h', url: r.url, channel: '1' } })
    outbox.enqueue(forwardEvent('t1'), ['tg'])
    outbox.enqueue(forwardEvent('t2'), ['tg'])
    await runUntil(clock, outbox, () => r.received.length === 2, 60_000, 1_000)
    await outbox.idle()
    expect(giveUps).toEqual([{ targetId: 'tg', reason: "Telegram: Bad Request: can't parse entities" }])
    expect(outbox.status('tg')).toMatchObject({ pending: 0, lastDeliveredAt: expect.any(Number) as unknown as number })
  })

  it('is written before it is sent, and a restart sends what was pending, once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'))
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }))
    const file = path.join(dir, OUTBOX_FILE)
    const r = await receiver()
    r.script.push({ status: 0, hang: true })
    const first = setup({ w: webhook(r) }, fileOutboxStorage(file))
    first.outbox.enqueue(forwardEvent('t1'), ['w'])
    await r.arrived(1)
    const written = JSON.parse(fs.readFileSync(file, 'utf8')) as { pending: Array<{ event: { id: string } }> }
    expect(written.pending.map((p) => p.event.id)).toEqual([forwardEvent('t1').id])
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    first.outbox.dispose()
    const second = setup({ w: webhook(r) }, fileOutboxStorage(file))
    await r.arrived(2)
    await second.outbox.idle()
    expect(second.outbox.status('w').pending).toBe(0)
    second.outbox.enqueue(forwardEvent('t1'), ['w'])
    await flushMicrotasks()
    const third = setup({ w: webhook(r) }, fileOutboxStorage(file))
    third.outbox.enqueue(forwardEvent('t1'), ['w'])
    await flushMicrotasks()
    expect(r.received).toHaveLength(2)
    expect(deliveredKeys(r)).toEqual([forwardEvent('t1').id])
  })

  it('a damaged file is kept aside and the outbox starts empty', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-'))
    cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }))
    const file = path.join(dir, OUTBOX_FILE)
    fs.writeFileSync(file, '{"version":1,"pend')
    expect(fileOutboxStorage(file, () => 7).read().pending).toEqual([])
    expect(fs.readdirSync(dir)).toEqual([`${OUTBOX_FILE}-damaged-7`])
  })

  it('a removed target drops its queue', async () => {
    const { outbox } = setup({})
    outbox.enqueue(forwardEvent('t1'), ['gone'])
    expect(outbox.status('gone').pending).toBe(1)
    await outbox.idle()
    expect(outbox.status('gone').pending).toBe(0)
  })
})
