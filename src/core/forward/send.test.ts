import { describe, expect, it } from 'vitest'
import { createSender, MAX_ANSWER_BYTES } from './send'
import type { ParsedTarget } from './target-url'
import { forwardEvent } from './test-events'
import { receiverForTest } from './test-receiver-for-test'
import { ANSWERS, type Receiver } from './test-receivers'

const receiver = receiverForTest

const webhook = (r: Receiver): ParsedTarget => ({ kind: 'webhook', host: '127.0.0.1', url: `${r.url}/hook` })
const send = createSender({ now: () => Date.UTC(2026, 10, 27, 9) })

describe('answers that are not final', () => {
  it('a redirect is not followed: nothing reaches where it points, and the send is tried again', async () => {
    const elsewhere = await receiver(ANSWERS.ok())
    const r = await receiver(ANSWERS.redirect(302, `${elsewhere.url}/hook`))
    await expect(send(webhook(r), forwardEvent('t1'))).resolves.toEqual({
      kind: 'retry',
      reason: 'HTTP 302: the target redirects; give its final URL.'
    })
    expect(elsewhere.received).toHaveLength(0)
  })
})

/** An answer whose body the test reads out chunk by chunk: what was read, and whether it was cancelled. */
function scripted(status: number, chunks: () => Uint8Array | undefined, headers: Record<string, string> = {}) {
  const seen = { reads: 0, cancelled: false, init: undefined as RequestInit | undefined, url: '' }
  const reader = {
    read: () => {
      seen.reads += 1
      const value = chunks()
      return Promise.resolve(value === undefined ? { done: true, value: undefined } : { done: false, value })
    },
    cancel: () => ((seen.cancelled = true), Promise.reject(new Error('already closed')))
  }
  const fetch = (url: string | URL | Request, init?: RequestInit) => {
    seen.url = String(url)
    seen.init = init
    return Promise.resolve({
      status,
      headers: new Headers(headers),
      body: { getReader: () => reader }
    } as unknown as Response)
  }
  return { fetch: fetch as typeof globalThis.fetch, seen }
}

const hook: ParsedTarget = {
  kind: 'webhook',
  host: 'example.com',
  url: 'https://example.com/hooks/abcdefghijklmnopqrstuvwxyz'
}

describe('the answer is read up to MAX_ANSWER_BYTES, then cancelled', () => {
  it('an endless body: four 16 KiB chunks read, the rest cancelled unread', async () => {
    const { fetch, seen } = scripted(500, () => new Uint8Array(16 * 1024).fill(0x78))
    const outcome = await createSender({ now: () => 0, fetch })(hook, forwardEvent('t1'))
    expect(outcome).toEqual({ kind: 'retry', reason: `HTTP 500: ${'x'.repeat(200)}` })
    expect(seen.reads).toBe(MAX_ANSWER_BYTES / (16 * 1024))
    expect(seen.cancelled).toBe(true)
  })

  it('a chunk that crosses the cap is cut at it: what lies beyond is never decoded', async () => {
    // Telegram's answer is JSON: spaces up to the cap parse, the garbage past it would not.
    const body = Buffer.from(`{"ok":true}${' '.repeat(MAX_ANSWER_BYTES)}garbage`)
    let given = false
    const { fetch, seen } = scripted(200, () => (given ? undefined : ((given = true), body)))
    const telegram: ParsedTarget = {
      kind: 'telegram',
      host: 'api.telegram.org',
      url: 'https://api.telegram.org/bot123:abcdefghijkl/sendMessage',
      channel: '42'
    }
    await expect(createSender({ now: () => 0, fetch })(telegram, forwardEvent('t1'))).resolves.toEqual({
      kind: 'delivered'
    })
    expect(seen.reads).toBe(1)
    expect(seen.cancelled).toBe(true)
  })

  it('a short body is read to its end, in pieces', async () => {
    const parts = ['no_', 'service']
    const { fetch, seen } = scripted(404, () => (parts.length > 0 ? Buffer.from(parts.shift()!) : undefined))
    await expect(createSender({ now: () => 0, fetch })(hook, forwardEvent('t1'))).resolves.toEqual({
      kind: 'refused',
      reason: 'HTTP 404: no_service'
    })
    expect(seen.reads).toBe(3)
  })

  it('no body at all reads as the status alone', async () => {
    const fetch = (() =>
      Promise.resolve({
        status: 503,
        headers: new Headers({ 'retry-after': '7' }),
        body: null
      })) as unknown as typeof globalThis.fetch
    await expect(createSender({ now: () => 0, fetch })(hook, forwardEvent('t1'))).resolves.toEqual({
      kind: 'retry',
      reason: 'HTTP 503',
      retryAfterMs: 7_000
    })
  })

  it('asks for no encoding, follows no redirect, and POSTs the rendered request', async () => {
    const { fetch, seen } = scripted(204, () => undefined)
    const event = forwardEvent('t1')
    await expect(createSender({ now: () => 0, fetch })(hook, event, 'a-signing-secret-0123')).resolves.toEqual({
      kind: 'delivered'
    })
    expect(seen.url).toBe(hook.url)
    expect(seen.init).toMatchObject({
      method: 'POST',
      redirect: 'manual',
      body: expect.stringContaining(event.id) as unknown as string
    })
    const headers = seen.init?.headers as Record<string, string>
    expect(headers['accept-encoding']).toBe('identity')
    expect(headers['idempotency-key']).toBe(event.id)
    expect(headers['x-agent-tray-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/)
    expect(seen.init?.signal).toBeInstanceOf(AbortSignal)
  })
})

describe('a send that fails says why, without the target secrets', () => {
  const failing = (error: unknown) => (() => Promise.reject(error)) as unknown as typeof globalThis.fetch

  it("the network's cause, else the error's message, else what was thrown", async () => {
    const viaCause = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 10.0.0.1:443') })
    await expect(createSender({ now: () => 0, fetch: failing(viaCause) })(hook, forwardEvent('t1'))).resolves.toEqual({
      kind: 'retry',
      reason: 'not reachable: connect ECONNREFUSED 10.0.0.1:443'
    })
    await expect(
      createSender({ now: () => 0, fetch: failing(new Error('socket hang up')) })(hook, forwardEvent('t1'))
    ).resolves.toEqual({ kind: 'retry', reason: 'not reachable: socket hang up' })
    await expect(createSender({ now: () => 0, fetch: failing('down') })(hook, forwardEvent('t1'))).resolves.toEqual({
      kind: 'retry',
      reason: 'not reachable: down'
    })
  })

  it('no answer within timeoutMs is said so', async () => {
    const fetch = ((_url: string, init: RequestInit) =>
      new Promise((_resolve, reject) =>
        init.signal!.addEventListener('abort', () => reject(init.signal!.reason))
      )) as unknown as typeof globalThis.fetch
    await expect(createSender({ now: () => 0, fetch, timeoutMs: 5 })(hook, forwardEvent('t1'))).resolves.toEqual({
      kind: 'retry',
      reason: 'no answer in time'
    })
    const timeout = Object.assign(new Error('late'), { name: 'TimeoutError' })
    await expect(createSender({ now: () => 0, fetch: failing(timeout) })(hook, forwardEvent('t1'))).resolves.toEqual({
      kind: 'retry',
      reason: 'no answer in time'
    })
  })

  it("the URL's token and the signing secret are taken out of every reason", async () => {
    const token = 'abcdefghijklmnopqrstuvwxyz'
    const echo = new Error(`refused https://example.com/hooks/${token} signed with a-signing-secret-0123`)
    const reason = (
      (await createSender({ now: () => 0, fetch: failing(echo) })(
        hook,
        forwardEvent('t1'),
        'a-signing-secret-0123'
      )) as { reason: string }
    ).reason
    expect(reason).not.toContain(token)
    expect(reason).not.toContain('a-signing-secret-0123')
    expect(reason).toMatch(/^not reachable: refused /)
  })
})

describe('the cap and the redaction, across chunks', () => {
  it('a later chunk is cut at what is left of the cap', async () => {
    const head = Buffer.from('{"ok":true}')
    const parts = [head, Buffer.from(`${' '.repeat(MAX_ANSWER_BYTES - head.length)}garbage`)]
    const { fetch } = scripted(200, () => parts.shift())
    const telegram: ParsedTarget = {
      kind: 'telegram',
      host: 'api.telegram.org',
      url: 'https://api.telegram.org/bot123:abcdefghijkl/sendMessage',
      channel: '42'
    }
    await expect(createSender({ now: () => 0, fetch })(telegram, forwardEvent('t1'))).resolves.toEqual({
      kind: 'delivered'
    })
  })

  it("only the target's secrets are taken out of a reason: other words stay", async () => {
    const fetch = (() =>
      Promise.reject(new Error('Stryker was here, and so was everyone else'))) as unknown as typeof globalThis.fetch
    await expect(createSender({ now: () => 0, fetch })(hook, forwardEvent('t1'))).resolves.toEqual({
      kind: 'retry',
      reason: 'not reachable: Stryker was here, and so was everyone else'
    })
  })
})
