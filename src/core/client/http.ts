// One HTTP exchange over the shared pool, with the three timeouts and the size cap. Failures
// come out as ServiceError (network, timeout, invalid_response/too_large); a caller's abort
// comes out as the signal's own reason.
import type { Dispatcher, Pool } from 'undici'
import { ServiceError } from './errors'

export interface Exchange {
  method: 'GET' | 'POST' | 'PATCH'
  path: string
  headers: Record<string, string>
  body?: string
  signal?: AbortSignal
  connectMs: number
  headersMs: number
  bodyMs: number
  maxBytes: number
}

export interface RawResponse {
  status: number
  headers: Record<string, string | undefined>
  text: string
  bytes: number
}

type Cause = 'caller' | 'body-deadline' | 'too-large'

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`
}

function tooLarge(maxBytes: number): ServiceError {
  return new ServiceError(
    'invalid_response',
    `The service sent an answer larger than ${Math.round(maxBytes / 1024)} KiB: not read.`,
    { details: { reason: 'too_large' } }
  )
}

function flatHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {}
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v
  return out
}

function codeOf(e: unknown): string | undefined {
  if (e !== null && typeof e === 'object' && 'code' in e && typeof e.code === 'string') return e.code
  return undefined
}

/** An undici or socket failure as a ServiceError. */
function translate(e: unknown, x: Exchange): ServiceError {
  const code = codeOf(e) ?? codeOf((e as { cause?: unknown } | null)?.cause)
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new ServiceError('timeout', `Could not connect to the service within ${seconds(x.connectMs)}.`)
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new ServiceError('timeout', `The service did not answer within ${seconds(x.headersMs)}.`)
    case 'UND_ERR_BODY_TIMEOUT':
      return new ServiceError('timeout', `The service stopped sending its answer for ${seconds(x.bodyMs)}.`)
  }
  const why = e instanceof Error && e.message ? e.message : 'connection failed'
  return new ServiceError('network', `Could not talk to the service (${code ? `${code}: ` : ''}${why}).`)
}

/**
 * One buffer reused for every body: a list of 750 KB arrives in many chunks, and joining them in a
 * fresh buffer each time cost more than decoding them (new pages to fault in, then to collect).
 * The copy and the decode are one synchronous step, so no other body can use it in between.
 */
let scratch = Buffer.allocUnsafeSlow(0)
/** Larger bodies get a buffer of their own rather than keeping one that large for good. */
const SCRATCH_MAX = 4 * 1024 * 1024

/** The body's text, decoded from UTF-8 once. */
export function decodeChunks(chunks: readonly Uint8Array[], bytes: number): string {
  if (chunks.length === 1) {
    const only = chunks[0] as Uint8Array
    return Buffer.from(only.buffer, only.byteOffset, only.byteLength).toString('utf8')
  }
  let target = scratch
  if (bytes > target.length) {
    target = Buffer.allocUnsafeSlow(bytes)
    if (bytes <= SCRATCH_MAX) scratch = target
  }
  let at = 0
  for (const chunk of chunks) {
    target.set(chunk, at)
    at += chunk.byteLength
  }
  return target.toString('utf8', 0, bytes)
}

export async function exchange(pool: Pool, x: Exchange): Promise<RawResponse> {
  x.signal?.throwIfAborted()
  const controller = new AbortController()
  let cause: Cause | undefined
  const stop = (why: Cause) => {
    cause ??= why
    controller.abort()
  }
  const onCallerAbort = () => stop('caller')
  x.signal?.addEventListener('abort', onCallerAbort, { once: true })
  let deadline: NodeJS.Timeout | undefined

  const fail = (e: unknown): unknown => {
    if (cause === 'caller') return x.signal?.reason ?? e
    if (cause === 'too-large') return tooLarge(x.maxBytes)
    if (cause === 'body-deadline') {
      return new ServiceError('timeout', `The service took longer than ${seconds(x.bodyMs)} to send its answer.`)
    }
    return e instanceof ServiceError ? e : translate(e, x)
  }

  try {
    let res: Dispatcher.ResponseData
    try {
      res = await pool.request({
        path: x.path,
        method: x.method,
        headers: x.headers,
        body: x.body ?? null,
        signal: controller.signal,
        headersTimeout: x.headersMs,
        bodyTimeout: x.bodyMs
      })
    } catch (e) {
      throw fail(e)
    }
    // undici's bodyTimeout is per chunk; this bounds the whole body, however slowly it trickles.
    deadline = setTimeout(() => stop('body-deadline'), x.bodyMs)
    const headers = flatHeaders(res.headers)
    const declared = Number(headers['content-length'])
    if (Number.isFinite(declared) && declared > x.maxBytes) {
      stop('too-large')
      res.body.destroy()
      throw tooLarge(x.maxBytes)
    }
    const chunks: Uint8Array[] = []
    let bytes = 0
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        bytes += chunk.length
        if (bytes > x.maxBytes) {
          stop('too-large')
          res.body.destroy()
          throw tooLarge(x.maxBytes)
        }
        chunks.push(chunk)
      }
    } catch (e) {
      throw fail(e)
    }
    return { status: res.statusCode, headers, text: decodeChunks(chunks, bytes), bytes }
  } finally {
    if (deadline) clearTimeout(deadline)
    x.signal?.removeEventListener('abort', onCallerAbort)
  }
}
