import { afterEach, describe, expect, it } from 'vitest'
import { flushMicrotasks, ManualClock } from '../util/clock'
import { createOutbox, GIVE_UP_AFTER_MS } from './outbox'
import { memoryOutboxStorage } from './outbox-file'
import { createSender, MAX_ANSWER_BYTES } from './send'
import type { ParsedTarget } from './target'
import { forwardEvent } from './test-events'
import { ANSWERS, endless, gzipBomb, startReceiver, type Answer, type Receiver } from './test-receivers'

const cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

async function receiver(fallback: Answer): Promise<Receiver> {
  const r = await startReceiver(fallback)
  cleanup.push(() => r.close())
  return r
}

const webhook = (r: Receiver): ParsedTarget => ({ kind: 'webhook', host: '127.0.0.1', url: `${r.url}/hook` })
const send = createSender({ now: () => Date.UTC(2026, 10, 27, 9) })

describe('a hostile receiver costs nothing', () => {
  it('a 256 MiB gzip bomb: asks for no encoding, reads at most the cap decoded, memory stays bounded', async () => {
    const r = await receiver(await gzipBomb(256 * 1024 * 1024))
    const before = process.memoryUsage()
    let peak = 0
    const grew = () => {
      const m = process.memoryUsage()
      peak = Math.max(peak, m.rss - before.rss, m.arrayBuffers - before.arrayBuffers)
    }
    const sampler = setInterval(grew, 5)
    const outcome = await send(webhook(r), forwardEvent('t1')).finally(() => clearInterval(sampler))
    grew()
    expect(r.received[0]?.headers['accept-encoding']).toBe('identity')
    // Zeros decode to NUL characters, which the reason writes out; what matters is that it is short and says the status.
    expect(outcome).toMatchObject({ kind: 'retry', reason: expect.stringMatching(/^HTTP 500: /) })
    expect((outcome as { reason: string }).reason.length).toBeLessThan(300)
    // Inflated whole it is 256 MiB (and its string as much again); cut at the cap it costs little.
    expect(peak).toBeLessThan(32 * 1024 * 1024)
  })

  it('a body without end: the send finishes with a short reason, and the receiver wrote little before it was cut off', async () => {
    const r = await receiver(endless())
    const outcome = await createSender({ now: () => 0, timeoutMs: 10_000 })(webhook(r), forwardEvent('t1'))
    expect(outcome).toMatchObject({ kind: 'retry', reason: expect.stringMatching(/^HTTP 500: x{200}$/) })
    const written = await r.written(1)
    expect(written.complete).toBe(false)
    // The cap, and what the sockets' buffers took on the way.
    expect(written.bytes).toBeGreaterThan(MAX_ANSWER_BYTES)
    expect(written.bytes).toBeLessThan(16 * 1024 * 1024)
  })
})

describe('answers that are not final', () => {
  it('a redirect is not followed: nothing reaches where it points, and the send is tried again', async () => {
    const elsewhere = await receiver(ANSWERS.ok())
    const r = await receiver(ANSWERS.redirect(302, `${elsewhere.url}/hook`))
    await expect(send(webhook(r), forwardEvent('t1'))).resolves.toEqual({ kind: 'retry', reason: 'HTTP 302: the target redirects; give its final URL.' })
    expect(elsewhere.received).toHaveLength(0)
  })

  it('a 401 keeps its events: tried again with backoff, and given up only after 24 h, told once', async () => {
    const r = await receiver(ANSWERS.discordUnauthorized())
    const clock = new ManualClock(Date.UTC(2026, 10, 27, 9))
    const giveUps: string[] = []
    const outbox = createOutbox({
      clock,
      storage: memoryOutboxStorage(),
      resolve: () => Promise.resolve({ target: { kind: 'discord', host: '127.0.0.1', url: r.url } }),
      send: createSender({ now: () => clock.now() }),
      onGiveUp: (_id, _e, reason) => giveUps.push(reason),
      random: () => 0
    })
    cleanup.push(() => outbox.dispose())
    outbox.enqueue(forwardEvent('t1'), ['d'])
    outbox.enqueue(forwardEvent('t2'), ['d'])
    await r.arrived(1)
    await outbox.idle()
    expect(outbox.status('d')).toMatchObject({ pending: 2, lastError: expect.stringMatching(/^HTTP 401/) as unknown as string })
    expect(giveUps).toEqual([])
    while (outbox.status('d').pending > 0 && clock.now() < Date.UTC(2026, 10, 27, 9) + GIVE_UP_AFTER_MS + 3_600_000) {
      await clock.advance(15 * 60_000)
      await outbox.idle()
      await flushMicrotasks()
    }
    expect(clock.now() - Date.UTC(2026, 10, 27, 9)).toBeGreaterThanOrEqual(GIVE_UP_AFTER_MS - 15 * 60_000)
    expect(r.received.length).toBeGreaterThan(2)
    expect(giveUps).toEqual([expect.stringMatching(/^not delivered in 24 h: HTTP 401/)])
  })
})
