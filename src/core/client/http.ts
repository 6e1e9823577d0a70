// One HTTP exchange with the three timeouts, the size cap (on the wire and decompressed) and gzip/br decoding; failures
// come out as ServiceError, a caller's abort as the signal's own reason.
import zlib from 'node:zlib'
import type { Dispatcher } from 'undici'
import { ServiceError } from './service-error'

// node:zlib's one-shot decoders, each stopped at the response cap (maxOutputLength) so a bomb is never inflated whole.
// zstd only where this Node has it (22.15+).
type Decoder = (
  input: Buffer,
  options: { maxOutputLength: number },
  done: (e: Error | null, out: Buffer) => void
) => void
const zstd = (zlib as unknown as { zstdDecompress?: Decoder }).zstdDecompress
const DECODERS: Record<string, Decoder> = {
  gzip: zlib.gunzip,
  'x-gzip': zlib.gunzip,
  br: zlib.brotliDecompress,
  ...(typeof zstd === 'function' ? { zstd } : {})
}

/** What every request offers (the Accept-Encoding header): the codings above, best first. */
export const ACCEPT_ENCODING = typeof zstd === 'function' ? 'gzip, br, zstd' : 'gzip, br'

export interface Exchange {
  origin: string
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
  /** Content-Encoding and Content-Length are those of the wire, as the server sent them. */
  headers: Record<string, string | undefined>
  /** The body, decoded (decompressed, then UTF-8). */
  text: string
  /** The body's bytes on the wire (compressed, when it was). */
  bytes: number
}

type Cause = 'caller' | 'body-deadline' | 'too-large' | 'unreadable'

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

function unreadable(coding: string, why: string): ServiceError {
  return new ServiceError('invalid_response', `The service's answer could not be read as ${coding}: ${why}.`, {
    details: { reason: 'bad_encoding' }
  })
}

/** The coding of a body we can read: '' for none; an error for one we never offered. */
function codingOf(header: string | undefined): string {
  const coding = (header ?? '').trim().toLowerCase()
  if (coding === '' || coding === 'identity') return ''
  if (coding in DECODERS) return coding
  throw unreadable(JSON.stringify(coding.slice(0, 40)), 'a content coding this client did not ask for')
}

/** At most `maxBytes` are ever inflated, so a small bomb costs no more memory than an honest answer at the cap. */
export async function decodeCompressed(
  coding: string,
  chunks: readonly Uint8Array[],
  maxBytes: number
): Promise<string> {
  const decode = DECODERS[coding] as Decoder
  const input =
    chunks.length === 1
      ? Buffer.from(
          (chunks[0] as Uint8Array).buffer,
          (chunks[0] as Uint8Array).byteOffset,
          (chunks[0] as Uint8Array).byteLength
        )
      : Buffer.concat(chunks)
  const out = await new Promise<Buffer>((resolve, reject) => {
    decode(input, { maxOutputLength: maxBytes }, (e, result) => {
      if (!e) resolve(result)
      else if (codeOf(e) === 'ERR_BUFFER_TOO_LARGE') reject(tooLarge(maxBytes))
      else reject(unreadable(coding, e.message || 'corrupt data'))
    })
  })
  return out.toString('utf8')
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

// One buffer reused for every body: joining a 750 KB list's chunks in a fresh buffer cost more than decoding them. The
// copy and decode are one synchronous step, so no other body can use it in between.
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

/** An answer as an undici interceptor sees it: one per dispatch, so one per attempt. */
export interface Attempt {
  method: string
  path: string
  status: number
  /** The body's bytes on the wire. */
  bytes: number
  ms: number
}

/** A compose interceptor that tells `onAttempt` of each answer received in full, retries included. */
export function countAttempts(onAttempt: (attempt: Attempt) => void): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const started = performance.now()
    let status = 0
    let bytes = 0
    return dispatch(opts, {
      onRequestStart: (c, context: unknown) => handler.onRequestStart?.(c, context),
      onRequestUpgrade: (c, code, headers, socket) => handler.onRequestUpgrade?.(c, code, headers, socket),
      onResponseStart: (c, code, headers, message) => {
        status = code
        handler.onResponseStart?.(c, code, headers, message)
      },
      onResponseData: (c, chunk) => {
        bytes += chunk.length
        handler.onResponseData?.(c, chunk)
      },
      onResponseEnd: (c, trailers) => {
        onAttempt({ method: opts.method, path: opts.path, status, bytes, ms: performance.now() - started })
        handler.onResponseEnd?.(c, trailers)
      },
      onResponseError: (c, e) => handler.onResponseError?.(c, e)
    })
  }
}

export async function exchange(dispatcher: Dispatcher, x: Exchange): Promise<RawResponse> {
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
      res = await dispatcher.request({
        origin: x.origin,
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
    let coding: string
    try {
      coding = codingOf(headers['content-encoding'])
    } catch (e) {
      stop('unreadable')
      res.body.destroy()
      throw e
    }
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
    // A 304 has no body whatever its headers say.
    const text =
      coding === '' || bytes === 0 ? decodeChunks(chunks, bytes) : await decodeCompressed(coding, chunks, x.maxBytes)
    return { status: res.statusCode, headers, text, bytes }
  } finally {
    if (deadline) clearTimeout(deadline)
    x.signal?.removeEventListener('abort', onCallerAbort)
  }
}
