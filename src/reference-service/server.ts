// startReferenceService: Workser's fake, its requests wired to the store and the control surface through the shared
// pipeline (serve.ts: faults, stats, compression).
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { ApiError } from './api-error'
import { createSimClock } from './clock'
import { createControl, handleControl } from './control'
import { corruptRecord, Faults } from './faults'
import { errorReply, etagMatches, notModified, type Reply, weakEtag } from './http'
import { streamFor } from './random'
import { matchRoute } from './routes'
import { type FakeApi, header, serveFake } from './serve'
import { ReferenceState } from './state'
import { Stats } from './stats'
import {
  DEFAULT_PUBLISHING_DOMAIN,
  type ErrorCode,
  MANUAL_START_TIME,
  type ReferenceService,
  type ReferenceServiceOptions
} from './types'

const digest = (s: string): Buffer => createHash('sha256').update(s).digest()

/** The code of an answer the shared pipeline makes (a fault, a misdirected request, a failure). */
function codeOf(status: number): ErrorCode {
  if (status === 401) return 'unauthorized'
  if (status === 404) return 'not_found'
  if (status === 421) return 'misdirected'
  if (status === 429) return 'rate_limited'
  return 'internal'
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
  const store = new ReferenceState(seed, clock, publishingDomain, () => baseUrl)
  const faults = new Faults(streamFor(seed, 'faults'))
  const stats = new Stats()
  const control = createControl(store, clock, faults, stats)
  const authorised = (req: IncomingMessage): boolean => {
    const key = req.headers['x-api-key']
    return typeof key === 'string' && timingSafeEqual(digest(key), keyDigest)
  }
  const unauthorized = () => new ApiError('unauthorized', 'The x-api-key header is missing or wrong.')

  const api: FakeApi = {
    routeKey: (method, path) => {
      const match = matchRoute(path, method, extensions)
      return `${method} ${match ? match.route.key : '(unmatched)'}`
    },
    error: (status, message, headers) => errorReply(new ApiError(codeOf(status), message, undefined, status, headers)),
    fromError: (e) => (e instanceof ApiError ? errorReply(e) : undefined),
    control: async (req, method, path, body) => {
      if (!authorised(req)) throw unauthorized()
      return handleControl(control, method, path, body)
    },
    async answer({ req, method, path, query, body, fault }) {
      const match = matchRoute(path, method, extensions)
      if (!match) throw new ApiError('not_found', `No route ${path}.`)
      const { route, id } = match
      if (route.auth && !authorised(req)) throw unauthorized()
      const run = route.methods[method]
      if (!run) {
        const allow = match.allow.join(', ')
        throw new ApiError('method_not_allowed', `${method} is not allowed on ${path}; use ${allow}.`, undefined, 405, {
          allow
        })
      }
      // A broken answer never matches the tag a client holds, so it is never a 304.
      const ifNoneMatch = etags && fault?.kind !== 'corrupt_record' ? header(req, 'if-none-match') : undefined
      const reply = await run(store, id, body, { query, ifNoneMatch })
      if (fault?.kind === 'corrupt_record' && reply.status === 200) {
        reply.body = corruptRecord(reply.body, fault.all ? 'all' : (fault.index ?? 0))
        // The stored tag names the intact list; the broken one gets its own from its body.
        delete reply.etag
      }
      if (etags) return conditional(method, reply, ifNoneMatch)
      delete reply.etag
      return reply
    }
  }
  const served = await serveFake({ port: options.port, host: options.host, faults, stats, compression }, (url) => {
    baseUrl = url
    return api
  })

  return {
    url: baseUrl,
    publishingDomain,
    control,
    close: () => served.close()
  }
}
