// Loopback receivers for the forwarding tests: an HTTP server on 127.0.0.1 that answers from a
// script, as ntfy, Slack, Discord, Telegram or a webhook answer (or a hostile receiver: a gzip
// bomb, a body without end), and records every request and how much of each answer it wrote.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import zlib from 'node:zlib'

export interface Received {
  path: string
  headers: http.IncomingHttpHeaders
  body: string
}

export interface Answer {
  /** Never answer (the request is recorded; the connection stays open until close). */
  hang?: boolean
  status: number
  body?: string | Buffer
  headers?: Record<string, string>
  /** Written after `body`, a chunk at a time as the client takes them, until it ends or the client goes. */
  stream?: Iterator<Buffer>
}

/** What the server wrote of one answer, once it ended or the client went away. */
export interface Written {
  bytes: number
  /** Whether the whole answer was written (false: the client closed before its end). */
  complete: boolean
}

/** `decodedBytes` of zeros, gzipped (about a thousandth on the wire), built without holding them. */
export async function gzipBomb(decodedBytes: number, status = 500): Promise<Answer> {
  const gzip = zlib.createGzip({ level: 9 })
  const out: Buffer[] = []
  gzip.on('data', (c: Buffer) => out.push(c))
  const mib = Buffer.alloc(1024 * 1024)
  for (let left = decodedBytes; left > 0; left -= mib.length)
    gzip.write(left >= mib.length ? mib : mib.subarray(0, left))
  await new Promise<void>((resolve) => gzip.end(resolve))
  return { status, body: Buffer.concat(out), headers: { 'content-encoding': 'gzip', 'content-type': 'text/plain' } }
}

/** A body without end: 'x' in 16 KiB chunks, as chunked transfer encoding, for as long as the client reads. */
export function endless(status = 500): Answer {
  const chunk = Buffer.alloc(16 * 1024, 'x')
  return {
    status,
    headers: { 'content-type': 'text/plain' },
    stream: (function* () {
      for (;;) yield chunk
    })()
  }
}

export const ANSWERS = {
  ntfyOk: (): Answer => ({
    status: 200,
    body: '{"id":"x1","event":"message"}',
    headers: { 'content-type': 'application/json' }
  }),
  ntfyLimited: (seconds: number): Answer => ({
    status: 429,
    body: '{"code":42901,"http":429,"error":"limit reached: too many requests"}',
    headers: { 'retry-after': String(seconds) }
  }),
  slackOk: (): Answer => ({ status: 200, body: 'ok' }),
  slackGone: (): Answer => ({ status: 404, body: 'no_service' }),
  slackBad: (): Answer => ({ status: 400, body: 'invalid_payload' }),
  discordOk: (): Answer => ({ status: 204 }),
  discordLimited: (seconds: number): Answer => ({
    status: 429,
    body: JSON.stringify({ message: 'You are being rate limited.', retry_after: seconds, global: false }),
    headers: { 'content-type': 'application/json' }
  }),
  telegramOk: (): Answer => ({ status: 200, body: '{"ok":true,"result":{"message_id":1}}' }),
  telegramNoChat: (): Answer => ({
    status: 400,
    body: '{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}'
  }),
  telegramNotOk: (): Answer => ({
    status: 200,
    body: '{"ok":false,"error_code":400,"description":"Bad Request: can\'t parse entities"}'
  }),
  discordUnauthorized: (): Answer => ({
    status: 401,
    body: '{"message": "401: Unauthorized", "code": 0}',
    headers: { 'content-type': 'application/json' }
  }),
  telegramBlocked: (): Answer => ({
    status: 403,
    body: '{"ok":false,"error_code":403,"description":"Forbidden: bot was blocked by the user"}'
  }),
  redirect: (status: number, location: string): Answer => ({ status, headers: { location } }),
  serverError: (): Answer => ({ status: 500, body: 'internal error' }),
  ok: (): Answer => ({ status: 200, body: '' })
}

export interface Receiver {
  url: string
  port: number
  received: Received[]
  /** The next answers, in order; once used up, `fallback` answers. */
  script: Answer[]
  fallback: Answer
  /** Resolves when the n-th request (1-based) has arrived. */
  arrived(n: number): Promise<void>
  /** Resolves when the answer to the n-th request (1-based) has ended or its client has gone. */
  written(n: number): Promise<Written>
  close(): Promise<void>
}

export async function startReceiver(fallback: Answer = ANSWERS.ok(), port = 0): Promise<Receiver> {
  const waiters: Array<{ n: number; resolve: () => void }> = []
  const answers = new Map<number, { promise: Promise<Written>; resolve: (w: Written) => void }>()
  const answer = (n: number) => {
    let entry = answers.get(n)
    if (!entry) {
      let resolve!: (w: Written) => void
      entry = { promise: new Promise<Written>((r) => (resolve = r)), resolve }
      answers.set(n, entry)
    }
    return entry
  }
  const r: Receiver = {
    url: '',
    port: 0,
    received: [],
    script: [],
    fallback,
    arrived: (n) =>
      r.received.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
    written: (n) => answer(n).promise,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      r.received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') })
      const n = r.received.length
      const a = r.script.shift() ?? r.fallback
      for (const w of waiters.filter((w) => r.received.length >= w.n)) w.resolve()
      if (a.hang) return
      let bytes = 0
      let complete = false
      res.on('close', () => answer(n).resolve({ bytes, complete }))
      res.writeHead(a.status, a.headers ?? {})
      const body = a.body ?? ''
      bytes += Buffer.byteLength(body)
      const stream = a.stream
      if (!stream) {
        res.end(body, () => (complete = true))
        return
      }
      res.write(body)
      // Only as fast as the client reads (a full socket waits for 'drain'): what was written is what it took, and the sockets' buffers.
      const pour = (): void => {
        for (;;) {
          const next = stream.next()
          if (next.done) return void res.end(() => (complete = true))
          bytes += next.value.length
          if (!res.write(next.value)) return void res.once('drain', pour)
        }
      }
      pour()
    })
  })
  server.keepAliveTimeout = 1
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  r.port = (server.address() as AddressInfo).port
  r.url = `http://127.0.0.1:${r.port}`
  return r
}

/** Distinct Idempotency-Keys among the requests a receiver answered 2xx: what a webhook honouring the key delivered. */
export function deliveredKeys(r: Receiver, answered: (i: number) => boolean = () => true): string[] {
  return [...new Set(r.received.filter((_x, i) => answered(i)).map((x) => String(x.headers['idempotency-key'])))]
}
