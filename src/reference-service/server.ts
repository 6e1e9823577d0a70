// startReferenceService: the HTTP server that wires requests to the store, the faults, the
// stats and the control surface.
import { createHash, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ApiError } from './api-error'
import { createSimClock } from './clock'
import { chooseCoding } from './compression'
import { createControl, handleControl } from './control'
import { corruptRecord, Faults } from './faults'
import { isOwnHost } from './host-header'
import { errorReply, etagMatches, notModified, parseJson, readBody, type Reply, send, weakEtag } from './http'
import { streamFor } from './random'
import { matchRoute } from './routes'
import { ReferenceState } from './state'
import { Stats } from './stats'
import {
  DEFAULT_PUBLISHING_DOMAIN,
  MANUAL_START_TIME,
  type ReferenceService,
  type ReferenceServiceOptions
} from './types'

const CONTROL_PREFIX = '/__control/'

const digest = (s: string): Buffer => createHash('sha256').update(s).digest()

const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name]
  return Array.isArray(v) ? v.join(', ') : v
}

/** Every GET answered 200 carries an ETag; a request that already has it gets 304 instead. */
function conditional(method: string, reply: Reply, ifNoneMatch: string | undefined): Reply {
  if (method !== 'GET' || reply.status !== 200) return reply
  const etag = reply.etag ?? weakEtag(reply.body)
  return etagMatches(ifNoneMatch, etag) ? notModified(etag) : { ...reply, etag }
}

export async function startReferenceService(options: ReferenceServiceOptions): Promise<ReferenceService> {
  if (typeof options.apiKey !== 'string' || options.apiKey === '')
    throw new Error('The reference service needs a non-empty API key.')
  const seed = options.seed ?? 1
  const manual = options.manualClock ?? false
  const startMs = Date.parse(options.startTime ?? (manual ? MANUAL_START_TIME : new Date().toISOString()))
  if (!Number.isFinite(startMs)) throw new Error(`startTime is not an ISO date: ${options.startTime}`)
  const speed = options.speed ?? 1
  if (!(speed > 0)) throw new Error(`speed must be positive, got ${speed}`)
  const clock = createSimClock({ startMs, manual, speed })
  const publishingDomain = (options.publishingDomain ?? DEFAULT_PUBLISHING_DOMAIN).toLowerCase()
  const keyDigest = digest(options.apiKey)
  const etags = options.etags ?? true
  const compression = options.compression ?? true
  const extensions = options.extensions ?? true
  let baseUrl = ''
  const host = options.host ?? '127.0.0.1'
  /** Known once listening (the port may be the system's choice). */
  const listening = { host, port: -1 }
  const store = new ReferenceState(seed, clock, publishingDomain, () => baseUrl)
  const faults = new Faults(streamFor(seed, 'faults'))
  const stats = new Stats()
  const control = createControl(store, clock, faults, stats)
  const timers = new Set<NodeJS.Timeout>()

  const authorised = (req: IncomingMessage): boolean => {
    const key = req.headers['x-api-key']
    return typeof key === 'string' && timingSafeEqual(digest(key), keyDigest)
  }

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Before anything else, control routes included: a page reaching us by DNS rebinding names its own host.
    if (!isOwnHost(req.headers.host, listening)) {
      send(
        res,
        errorReply(
          new ApiError(
            'misdirected',
            'This is a loopback service: ask for it by its own address (the Host header names another).'
          )
        ),
        undefined,
        timers
      )
      return
    }
    const method = req.method ?? 'GET'
    const requestUrl = new URL(req.url ?? '/', 'http://service.invalid')
    const path = requestUrl.pathname
    const body = async (): Promise<unknown> => parseJson(await readBody(req))
    const guard = async (run: () => Promise<Reply> | Reply): Promise<Reply> => {
      try {
        return await run()
      } catch (e) {
        if (e instanceof ApiError) return errorReply(e)
        return errorReply(new ApiError('internal', 'The reference service failed to answer.'))
      }
    }

    if (path.startsWith(CONTROL_PREFIX)) {
      const reply = await guard(() => {
        if (!authorised(req)) throw new ApiError('unauthorized', 'The x-api-key header is missing or wrong.')
        return handleControl(control, method, path.slice(CONTROL_PREFIX.length), body)
      })
      send(res, reply, undefined, timers)
      return
    }

    const decision = faults.decide(method, path)
    if (decision.hold) await faults.held()
    if (decision.latencyMs > 0) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          timers.delete(t)
          resolve()
        }, decision.latencyMs)
        timers.add(t)
      })
    }
    const match = matchRoute(path, method, extensions)
    const routeKey = `${method} ${match ? match.route.key : '(unmatched)'}`
    const fault = decision.fault
    if (fault?.kind === 'drop') {
      stats.record(routeKey, 0, 0)
      req.socket.destroy()
      return
    }
    const reply = await guard(async () => {
      if (fault?.kind === 'error') {
        return errorReply(new ApiError('internal', 'Simulated server error.', undefined, fault.status ?? 503))
      }
      if (fault?.kind === 'rate_limit') {
        const seconds = fault.retryAfterSeconds ?? 1
        const retryAfter = fault.httpDate ? new Date(Date.now() + seconds * 1000).toUTCString() : String(seconds)
        return errorReply(
          new ApiError('rate_limited', 'Too many requests; slow down.', undefined, 429, { 'retry-after': retryAfter })
        )
      }
      if (!match) throw new ApiError('not_found', `No route ${path}.`)
      const { route, id } = match
      if (route.auth && !authorised(req))
        throw new ApiError('unauthorized', 'The x-api-key header is missing or wrong.')
      const run = route.methods[method]
      if (!run) {
        const allow = match.allow.join(', ')
        throw new ApiError('method_not_allowed', `${method} is not allowed on ${path}; use ${allow}.`, undefined, 405, {
          allow
        })
      }
      // A broken answer never matches the tag a client holds, so it is never a 304.
      const ifNoneMatch = etags && fault?.kind !== 'corrupt_record' ? header(req, 'if-none-match') : undefined
      const reply = await run(store, id, body, {
        query: requestUrl.searchParams,
        ifNoneMatch
      })
      if (fault?.kind === 'corrupt_record' && reply.status === 200) {
        reply.body = corruptRecord(reply.body, fault.all ? 'all' : (fault.index ?? 0))
        // The stored tag names the intact list; the broken one gets its own from its body.
        delete reply.etag
      }
      if (etags) return conditional(method, reply, ifNoneMatch)
      delete reply.etag
      return reply
    })
    // What the answer took on the socket, counted once it is all handed over (one answer at a time
    // per connection: no pipelining). Captured now: the response lets go of its socket on finish.
    const socket = req.socket
    const before = socket.bytesWritten
    let meant = 0
    res.once('finish', () => stats.record(routeKey, meant, socket.bytesWritten - before))
    res.once('close', () => {
      if (!res.writableFinished) stats.record(routeKey, meant, socket.bytesWritten - before)
    })
    meant = send(res, reply, fault, timers, compression ? chooseCoding(header(req, 'accept-encoding')) : undefined)
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent)
        send(res, errorReply(new ApiError('internal', 'The reference service failed to answer.')), undefined, timers)
      else res.destroy()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  listening.port = port
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host
  baseUrl = `http://${shownHost}:${port}`

  return {
    url: baseUrl,
    publishingDomain,
    control,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t)
        timers.clear()
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
