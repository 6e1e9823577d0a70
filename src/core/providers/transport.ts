// One exchange with a provider's service over the client's HTTP layer (client/http.ts): the shared undici Agent, the
// timeouts, the response cap, decoding. The key travels only in the adapter's headers, to the checked origin, and is
// redacted from every error; retries and waits are each adapter's etiquette, not this file's.
import { checkBaseUrl, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUTS, USER_AGENT } from '../client/client'
import { ACCEPT_ENCODING, exchange, type RawResponse } from '../client/http'
import { leaseAgent } from '../client/pool'
import { parseRetryAfter } from '../client/retry'
import { isServiceError, ServiceError } from '../client/service-error'
import { secretRedactor } from '../secrets/redact'
import type { ReportDropped } from './records'

export interface TransportOptions {
  baseUrl: string
  /** The key as sent: checked before any request, redacted from every error. */
  secret: string
  /** The headers that carry the key (never a URL). */
  authHeaders: (secret: string) => Record<string, string>
  /** Sent with every request (Accept, an API version). */
  headers?: Record<string, string>
  /** "GitHub", "Jules": for the words of a key that cannot be sent. */
  serviceName: string
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number }
  maxResponseBytes?: number
  /** For reading a `Retry-After` given as a date. */
  now?: () => number
}

/** What every adapter's client is opened with, besides its key. */
export interface AdapterClientOptions {
  /** The account's name, for the words of an error. */
  account: string
  baseUrl?: string
  now?: () => number
  timeouts?: TransportOptions['timeouts']
  onDropped?: ReportDropped
}

/** An adapter's words for an answer that is not 2xx: its body already redacted, its `Retry-After` read. */
export type RefusalWords = (status: number, body: string, retryAfterMs: number | undefined) => Error

export interface Request {
  method: 'GET' | 'POST'
  /** Below the base URL, with its query: '/agents/tasks?per_page=100'. */
  path: string
  headers?: Record<string, string>
  /** JSON, sent as application/json. */
  body?: unknown
  signal?: AbortSignal
}

/** A long-lived answer read as it arrives (server-sent events). */
export interface StreamResponse {
  status: number
  headers: Record<string, string>
  body: AsyncIterable<Uint8Array>
  /** The whole body as text (for a refusal, which is short). */
  text(): Promise<string>
}

export interface Transport {
  /** The response whatever its status; network failures, timeouts and oversize answers throw ServiceError. */
  send(request: Request): Promise<RawResponse>
  /** A 2xx answer; any other is thrown as `refusal` words it. */
  ok(request: Request, refusal: RefusalWords): Promise<RawResponse>
  /** A path below the base URL for an absolute URL the service sent (a Link), only if it is on the same origin and
   * below the base URL: the key is never sent anywhere else. */
  relativePath(url: string): string | null
  /** A GET whose body is read as it comes, with no body deadline: the caller's signal ends it. Same key and origin rule
   * as send. */
  open(request: Omit<Request, 'method' | 'body'>): Promise<StreamResponse>
  redact(text: string): string
  close(): Promise<void>
}

/** One path segment: encoded, and never '.' or '..'. */
export function pathSegment(value: string, what: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new ServiceError(
      'bad_request',
      `${/^[aeiou]/i.test(what) ? 'An' : 'A'} ${what} is required and cannot be "${value}".`
    )
  }
  return encodeURIComponent(value)
}

export function createTransport(options: TransportOptions): Transport {
  const { origin, prefix } = checkBaseUrl(options.baseUrl)
  const secret = options.secret.trim()
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES
  const redact = secretRedactor([secret], '[api key]')
  const lease = leaseAgent(timeouts.connectMs)
  let closed = false

  function keyProblem(): ServiceError | undefined {
    if (secret === '') return new ServiceError('auth', `No ${options.serviceName} key is set: add one.`)
    if (!/^[\x21-\x7e]+$/.test(secret)) {
      return new ServiceError(
        'auth',
        `The ${options.serviceName} key contains characters that cannot be sent (spaces, line breaks or non-ASCII): check it.`
      )
    }
    return undefined
  }

  function check(path: string): void {
    if (closed) throw new ServiceError('network', 'The service client was closed.')
    const problem = keyProblem()
    if (problem) throw problem
    if (!path.startsWith('/')) throw new ServiceError('bad_request', 'A request path must start with "/".')
  }

  const transport: Transport = {
    async send(request) {
      check(request.path)
      const headers: Record<string, string> = {
        accept: 'application/json',
        'accept-encoding': ACCEPT_ENCODING,
        'user-agent': USER_AGENT,
        ...options.headers,
        ...request.headers,
        ...options.authHeaders(secret)
      }
      const body = request.body === undefined ? undefined : JSON.stringify(request.body)
      if (body !== undefined) headers['content-type'] = 'application/json'
      try {
        return await exchange(lease.agent, {
          origin,
          method: request.method,
          path: prefix + request.path,
          headers,
          body,
          signal: request.signal,
          ...timeouts,
          maxBytes
        })
      } catch (e) {
        if (!isServiceError(e)) throw e
        const message = redact(e.message)
        return Promise.reject(
          message === e.message ? e : new ServiceError(e.kind, message, { status: e.status, details: e.details })
        )
      }
    },
    async open(request) {
      check(request.path)
      // Identity coding: events must be read as they arrive, not when a compressed block completes.
      const headers: Record<string, string> = {
        accept: 'text/event-stream',
        'user-agent': USER_AGENT,
        ...options.headers,
        ...request.headers,
        'accept-encoding': 'identity',
        ...options.authHeaders(secret)
      }
      let res
      try {
        res = await lease.agent.request({
          origin,
          method: 'GET',
          path: prefix + request.path,
          headers,
          signal: request.signal,
          headersTimeout: timeouts.headersMs,
          bodyTimeout: 0
        })
      } catch (e) {
        if (request.signal?.aborted) throw request.signal.reason ?? e
        throw new ServiceError('network', redact(`The event stream could not be opened: ${(e as Error).message}`))
      }
      const flat: Record<string, string> = {}
      for (const [k, v] of Object.entries(res.headers))
        if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v
      const body = res.body
      return {
        status: res.statusCode,
        headers: flat,
        body: body as AsyncIterable<Uint8Array>,
        text: async () => redact((await body.text()).slice(0, 64 * 1024))
      }
    },
    async ok(request, refusal) {
      const res = await transport.send(request)
      if (res.status >= 200 && res.status < 300) return res
      throw refusal(
        res.status,
        redact(res.text),
        parseRetryAfter(res.headers['retry-after'], (options.now ?? Date.now)())
      )
    },
    relativePath(url) {
      let parsed: URL
      try {
        parsed = new URL(url)
      } catch {
        return null
      }
      if (parsed.origin !== origin || parsed.username !== '' || parsed.password !== '') return null
      if (!parsed.pathname.startsWith(prefix + '/')) return null
      return parsed.pathname.slice(prefix.length) + parsed.search
    },
    redact,
    async close() {
      if (closed) return
      closed = true
      await lease.release()
    }
  }
  return transport
}
