// What every fake of the reference service does the same way, whatever service it stands in for: the Host check, the
// control routes behind the key, the injected faults (held, slowed, dropped, 5xx, 429 with Retry-After, malformed,
// truncated, trickled), the stats and the compression. A service gives its answers and its error bodies.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { chooseCoding } from './compression'
import type { DecisiveFault, Faults } from './faults'
import { isOwnHost } from './host-header'
import { parseJson, readBody, type Reply, send } from './http'
import type { Stats } from './stats'

const CONTROL_PREFIX = '/__control/'

export const header = (req: IncomingMessage, name: string): string | undefined => {
  const v = req.headers[name]
  return Array.isArray(v) ? v.join(', ') : v
}

export interface ApiRequest {
  req: IncomingMessage
  method: string
  /** The path without its query. */
  path: string
  query: URLSearchParams
  body: () => Promise<unknown>
  /** The decisive fault this request gets, for a service that shapes its answer by it (a corrupt record). */
  fault: DecisiveFault | undefined
}

/** One service's side of the fake: its answers, its control routes and the words of its errors. */
export interface FakeApi {
  /** The stats key of a request, e.g. `GET /agents/tasks/{id}`. */
  routeKey(method: string, path: string): string
  answer(request: ApiRequest): Promise<Reply>
  /** A route under /__control/ (`path` without the prefix), refused without the service's key. */
  control(req: IncomingMessage, method: string, path: string, body: () => Promise<unknown>): Promise<Reply>
  /** The service's error body for an injected fault, a refused control call or a failure of the fake itself. */
  error(status: number, message: string, headers?: Record<string, string>): Reply
  /** What a thrown error answers (a service's own error class), else undefined for a plain 500. */
  fromError?(error: unknown): Reply | undefined
}

export interface ServeOptions {
  port?: number
  host?: string
  faults: Faults
  stats: Stats
  /** Default true: answers compressed when the request allows. */
  compression?: boolean
}

export interface Served {
  /** e.g. http://127.0.0.1:40123, no trailing slash. */
  url: string
  close(): Promise<void>
}

/** Starts the HTTP server; `api` is asked for its answers once the address is known (some answers name it). */
export async function serveFake(options: ServeOptions, api: (baseUrl: string) => FakeApi): Promise<Served> {
  const { faults, stats } = options
  const compression = options.compression ?? true
  const host = options.host ?? '127.0.0.1'
  const listening = { host, port: -1 }
  const timers = new Set<NodeJS.Timeout>()
  let fake: FakeApi | null = null

  const handle = async (req: IncomingMessage, res: ServerResponse, api: FakeApi): Promise<void> => {
    const failed = (e: unknown): Reply =>
      api.fromError?.(e) ?? api.error(500, 'The reference service failed to answer.')
    const guard = async (run: () => Promise<Reply> | Reply): Promise<Reply> => {
      try {
        return await run()
      } catch (e) {
        return failed(e)
      }
    }
    // Before anything else, control routes included: a page reaching us by DNS rebinding names its own host.
    if (!isOwnHost(req.headers.host, listening)) {
      const message = 'This is a loopback service: ask for it by its own address (the Host header names another).'
      send(res, api.error(421, message), undefined, timers)
      return
    }
    const method = req.method ?? 'GET'
    const requestUrl = new URL(req.url ?? '/', 'http://service.invalid')
    const path = requestUrl.pathname
    const body = async (): Promise<unknown> => parseJson(await readBody(req))

    if (path.startsWith(CONTROL_PREFIX)) {
      const reply = await guard(() => api.control(req, method, path.slice(CONTROL_PREFIX.length), body))
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
    const routeKey = api.routeKey(method, path)
    const fault = decision.fault
    if (fault?.kind === 'drop') {
      stats.record(routeKey, 0, 0)
      req.socket.destroy()
      return
    }
    const reply = await guard(async () => {
      if (fault?.kind === 'error') return api.error(fault.status ?? 503, 'Simulated server error.')
      if (fault?.kind === 'rate_limit') {
        const seconds = fault.retryAfterSeconds ?? 1
        const retryAfter = fault.httpDate ? new Date(Date.now() + seconds * 1000).toUTCString() : String(seconds)
        return api.error(429, 'Too many requests; slow down.', { 'retry-after': retryAfter })
      }
      return api.answer({ req, method, path, query: requestUrl.searchParams, body, fault })
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
    if (reply.stream) {
      // Events go out as they happen: never compressed, never cut by a fault.
      res.writeHead(reply.status, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        ...reply.headers
      })
      reply.stream(res)
      return
    }
    meant = send(res, reply, fault, timers, compression ? chooseCoding(header(req, 'accept-encoding')) : undefined)
  }

  const server = createServer((req, res) => {
    const api = fake as FakeApi
    handle(req, res, api).catch(() => {
      if (!res.headersSent) send(res, api.error(500, 'The reference service failed to answer.'), undefined, timers)
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
  const url = `http://${shownHost}:${port}`
  fake = api(url)
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t)
        timers.clear()
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
