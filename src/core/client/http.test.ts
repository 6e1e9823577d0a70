// One exchange against a stand-in pool, in-process: what each failure becomes, the caps, the codings
// and the deadline, each met exactly (the real sockets are in client.http and compression.http).
import { Readable } from 'node:stream'
import zlib from 'node:zlib'
import type { Dispatcher, Pool } from 'undici'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type Attempt, countAttempts, type Exchange, exchange } from './http'
import { ServiceError } from './service-error'
import { failure } from './test-failure'

const X: Exchange = {
  origin: 'http://svc.test',
  method: 'GET',
  path: '/p',
  headers: { accept: 'application/json' },
  connectMs: 5_000,
  headersMs: 10_000,
  bodyMs: 30_000,
  maxBytes: 1024
}

interface Answer {
  status?: number
  headers?: Dispatcher.ResponseData['headers']
  /** The body's chunks; none given: a body that never ends (until the request is aborted). */
  chunks?: Buffer[]
}

/** A pool that answers every request with `answer` (or fails with what `answer` throws), and keeps what it was asked. */
function pool(answer: Answer | (() => never)): Pool & { asked: Dispatcher.RequestOptions[]; body: Readable | null } {
  const fake = {
    asked: [] as Dispatcher.RequestOptions[],
    body: null as Readable | null,
    request(options: Dispatcher.RequestOptions) {
      fake.asked.push(options)
      if (typeof answer === 'function') return Promise.reject(answer() as unknown)
      const body = answer.chunks ? Readable.from(answer.chunks) : new Readable({ read() {} })
      // As undici's: an abort destroys the body, which a reader meets as an error (and no one else).
      body.on('error', () => undefined)
      ;(options.signal as AbortSignal | undefined)?.addEventListener(
        'abort',
        () => body.destroy(new Error('aborted')),
        { once: true }
      )
      fake.body = body
      return Promise.resolve({
        statusCode: answer.status ?? 200,
        headers: answer.headers ?? {},
        body
      } as unknown as Dispatcher.ResponseData)
    }
  }
  return fake as unknown as Pool & typeof fake
}

const failing = (error: unknown) => () => {
  throw error
}
const coded = (code: string, message = '') => Object.assign(new Error(message), { code })

afterEach(() => {
  vi.useRealTimers()
})

describe('exchange', () => {
  it('asks the pool for the request as given, with its timeouts, and gives back status, headers, text and bytes', async () => {
    const p = pool({
      status: 201,
      headers: { 'Content-Type': 'application/json', 'Set-Cookie': ['a=1', 'b=2'] },
      chunks: [Buffer.from('{"id":'), Buffer.from('"é"}')]
    })
    const res = await exchange(p, { ...X, method: 'POST', body: '{}' })
    expect(p.asked[0]).toMatchObject({
      path: '/p',
      method: 'POST',
      headers: X.headers,
      body: '{}',
      headersTimeout: 10_000,
      bodyTimeout: 30_000
    })
    expect(res).toEqual({
      status: 201,
      headers: { 'content-type': 'application/json', 'set-cookie': 'a=1, b=2' },
      text: '{"id":"é"}',
      bytes: 11
    })
    await exchange(p, X)
    expect(p.asked[1]?.body).toBeNull()
  })

  it('a failure to connect, to answer or to go on sending is a timeout that says how long, in ms under a second', async () => {
    const timeout = async (code: string, x: Partial<Exchange>, message: string) => {
      const e = await failure(exchange(pool(failing(coded(code))), { ...X, ...x }))
      expect(e).toMatchObject({ kind: 'timeout', message })
      // undici may wrap the cause.
      const wrapped = await failure(
        exchange(pool(failing(Object.assign(new Error('fetch failed'), { cause: coded(code) }))), { ...X, ...x })
      )
      expect(wrapped).toMatchObject({ kind: 'timeout', message })
    }
    await timeout('UND_ERR_CONNECT_TIMEOUT', { connectMs: 999 }, 'Could not connect to the service within 999 ms.')
    await timeout('UND_ERR_CONNECT_TIMEOUT', { connectMs: 1_000 }, 'Could not connect to the service within 1 s.')
    await timeout('UND_ERR_HEADERS_TIMEOUT', { headersMs: 12_340 }, 'The service did not answer within 12.3 s.')
    await timeout('UND_ERR_BODY_TIMEOUT', { bodyMs: 30_000 }, 'The service stopped sending its answer for 30 s.')
  })

  it('any other failure is a network error naming its code and first words; a ServiceError passes as it is', async () => {
    expect(await failure(exchange(pool(failing(coded('ECONNRESET', 'socket hang up'))), X))).toMatchObject({
      kind: 'network',
      message: 'Could not talk to the service (ECONNRESET: socket hang up).'
    })
    expect((await failure(exchange(pool(failing(new Error('other side closed'))), X))).message).toBe(
      'Could not talk to the service (other side closed).'
    )
    expect((await failure(exchange(pool(failing(coded('EPIPE'))), X))).message).toBe(
      'Could not talk to the service (EPIPE: connection failed).'
    )
    expect((await failure(exchange(pool(failing('a string')), X))).message).toBe(
      'Could not talk to the service (connection failed).'
    )
    expect((await failure(exchange(pool(failing(null)), X))).message).toBe(
      'Could not talk to the service (connection failed).'
    )
    expect((await failure(exchange(pool(failing({ code: 7 })), X))).message).toBe(
      'Could not talk to the service (connection failed).'
    )
    const own = new ServiceError('auth', 'no')
    expect(await failure(exchange(pool(failing(own)), X))).toBe(own)
  })

  it('refuses an answer declared over the cap without reading it; one at the cap, or undeclared, is read', async () => {
    const over = pool({ headers: { 'content-length': '1025' }, chunks: [Buffer.from('[]')] })
    const e = await failure(exchange(over, X))
    expect(e).toMatchObject({
      kind: 'invalid_response',
      message: 'The service sent an answer larger than 1 KiB: not read.',
      details: { reason: 'too_large' }
    })
    expect(over.body?.destroyed).toBe(true)
    expect((await exchange(pool({ headers: { 'content-length': '1024' }, chunks: [Buffer.from('[]')] }), X)).text).toBe(
      '[]'
    )
    expect((await exchange(pool({ headers: { 'content-length': 'lots' }, chunks: [Buffer.from('[]')] }), X)).text).toBe(
      '[]'
    )
  })

  it('stops reading an answer the moment it passes the cap; one of exactly the cap is read whole', async () => {
    const over = pool({ chunks: [Buffer.alloc(1000, 0x20), Buffer.alloc(25, 0x20), Buffer.from('never read')] })
    expect(await failure(exchange(over, X))).toMatchObject({
      kind: 'invalid_response',
      details: { reason: 'too_large' }
    })
    expect(over.body?.destroyed).toBe(true)
    const at = await exchange(pool({ chunks: [Buffer.alloc(1000, 0x20), Buffer.alloc(24, 0x20)] }), X)
    expect(at.bytes).toBe(1024)
  })

  it('reads the codings it offers, in any case and spacing; refuses one it never offered, named and cut short', async () => {
    const json = Buffer.from('{"a":1}')
    const gzipped = zlib.gzipSync(json)
    const gz = await exchange(
      pool({ headers: { 'content-encoding': ' GZip ' }, chunks: [gzipped.subarray(0, 5), gzipped.subarray(5)] }),
      X
    )
    expect(gz).toMatchObject({ text: '{"a":1}', bytes: gzipped.length, headers: { 'content-encoding': ' GZip ' } })
    expect((await exchange(pool({ headers: { 'content-encoding': 'identity' }, chunks: [json] }), X)).text).toBe(
      '{"a":1}'
    )
    const odd = pool({ headers: { 'content-encoding': `deflate${'x'.repeat(50)}` }, chunks: [json] })
    const e = await failure(exchange(odd, X))
    expect(e).toMatchObject({
      kind: 'invalid_response',
      message: `The service's answer could not be read as "deflate${'x'.repeat(33)}": a content coding this client did not ask for.`,
      details: { reason: 'bad_encoding' }
    })
    expect(odd.body?.destroyed).toBe(true)
  })

  it('a 304, with no body, is read as empty whatever coding it names', async () => {
    expect(await exchange(pool({ status: 304, headers: { 'content-encoding': 'br' }, chunks: [] }), X)).toMatchObject({
      status: 304,
      text: '',
      bytes: 0
    })
  })

  it("a compressed answer that is not what it says is unreadable, with the decoder's words; one over the cap once inflated is too large", async () => {
    const e = await failure(
      exchange(pool({ headers: { 'content-encoding': 'gzip' }, chunks: [Buffer.from('not gzip at all')] }), X)
    )
    expect(e).toMatchObject({ kind: 'invalid_response', details: { reason: 'bad_encoding' } })
    expect(e.message).toMatch(/^The service's answer could not be read as gzip: .*header.*\.$/)
    const bomb = zlib.gzipSync(Buffer.alloc(10_000, 0x20))
    expect(await failure(exchange(pool({ headers: { 'content-encoding': 'gzip' }, chunks: [bomb] }), X))).toMatchObject(
      {
        message: 'The service sent an answer larger than 1 KiB: not read.',
        details: { reason: 'too_large' }
      }
    )
  })

  it('an answer still coming at the body deadline is a timeout that says so', async () => {
    const slow = pool({})
    const e = await failure(exchange(slow, { ...X, bodyMs: 40 }))
    expect(e).toMatchObject({ kind: 'timeout', message: 'The service took longer than 40 ms to send its answer.' })
    expect(slow.body?.destroyed).toBe(true)
  })

  it("the caller's abort ends it with the signal's own reason, before the request or during the body", async () => {
    const before = new AbortController()
    before.abort(new Error('gone'))
    const p = pool({ chunks: [] })
    await expect(exchange(p, { ...X, signal: before.signal })).rejects.toThrow('gone')
    expect(p.asked).toHaveLength(0)
    const during = new AbortController()
    const slow = pool({})
    const reading = exchange(slow, { ...X, signal: during.signal })
    await vi.waitFor(() => expect(slow.body).not.toBeNull())
    during.abort(new Error('unwatched'))
    await expect(reading).rejects.toThrow('unwatched')
  })

  it('leaves no timer and no listener behind once done', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const controller = new AbortController()
    const add = vi.spyOn(controller.signal, 'addEventListener')
    const remove = vi.spyOn(controller.signal, 'removeEventListener')
    await exchange(pool({ chunks: [Buffer.from('[]')] }), { ...X, signal: controller.signal })
    expect(vi.getTimerCount()).toBe(0)
    expect(remove).toHaveBeenCalledWith('abort', add.mock.calls[0]?.[1])
  })
})

describe('countAttempts', () => {
  /** A dispatch that answers `status` with `chunks`, or fails mid-body when `fail` is given. */
  const answering =
    (status: number, chunks: string[], fail?: Error): Dispatcher.Dispatch =>
    (_opts, handler) => {
      const c = {} as Dispatcher.DispatchController
      handler.onResponseStart?.(c, status, {}, '')
      for (const chunk of chunks) handler.onResponseData?.(c, Buffer.from(chunk))
      if (fail) handler.onResponseError?.(c, fail)
      else handler.onResponseEnd?.(c, {})
      return true
    }

  it('tells of each answer received whole: method, path, status, bytes on the wire, time; passes every call on', () => {
    const seen: Attempt[] = []
    const got: string[] = []
    const downstream: Dispatcher.DispatchHandler = {
      onResponseStart: (_c, status) => void got.push(`start ${status}`),
      onResponseData: (_c, chunk) => void got.push(`data ${chunk.length}`),
      onResponseEnd: () => void got.push('end'),
      onResponseError: (_c, e) => void got.push(`error ${e.message}`)
    }
    vi.spyOn(performance, 'now').mockReturnValueOnce(1_000).mockReturnValueOnce(1_250)
    countAttempts((a) => seen.push(a))(answering(503, ['busy', '!!']))({ method: 'GET', path: '/p' }, downstream)
    countAttempts((a) => seen.push(a))(answering(200, ['{"i'], new Error('cut')))(
      { method: 'GET', path: '/p' },
      downstream
    )
    expect(seen).toEqual([{ method: 'GET', path: '/p', status: 503, bytes: 6, ms: 250 }])
    expect(got).toEqual(['start 503', 'data 4', 'data 2', 'end', 'start 200', 'data 3', 'error cut'])
  })
})
