// The hostile receivers, over real sockets: a 256 MiB gzip bomb and a body without end. Outside the
// mutation run (seconds and hundreds of MiB a run); send.test.ts states the read cap with a fake fetch.
import { describe, expect, it } from 'vitest'
import { createSender, MAX_ANSWER_BYTES } from './send'
import type { ParsedTarget } from './target-url'
import { forwardEvent } from './test-events'
import { receiverForTest } from './test-receiver-for-test'
import { endless, gzipBomb, type Receiver } from './test-receivers'

const receiver = receiverForTest

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
