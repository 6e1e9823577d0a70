// Loopback receivers for the forwarding tests: an HTTP server on 127.0.0.1 that answers from a
// script, as ntfy, Slack, Discord, Telegram or a webhook answer, and records every request.
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  path: string
  headers: http.IncomingHttpHeaders
  body: string
}

export interface Answer {
  /** Never answer (the request is recorded; the connection stays open until close). */
  hang?: boolean
  status: number
  body?: string
  headers?: Record<string, string>
}

export const ANSWERS = {
  ntfyOk: (): Answer => ({ status: 200, body: '{"id":"x1","event":"message"}', headers: { 'content-type': 'application/json' } }),
  ntfyLimited: (seconds: number): Answer => ({ status: 429, body: '{"code":42901,"http":429,"error":"limit reached: too many requests"}', headers: { 'retry-after': String(seconds) } }),
  slackOk: (): Answer => ({ status: 200, body: 'ok' }),
  slackGone: (): Answer => ({ status: 404, body: 'no_service' }),
  slackBad: (): Answer => ({ status: 400, body: 'invalid_payload' }),
  discordOk: (): Answer => ({ status: 204 }),
  discordLimited: (seconds: number): Answer => ({ status: 429, body: JSON.stringify({ message: 'You are being rate limited.', retry_after: seconds, global: false }), headers: { 'content-type': 'application/json' } }),
  telegramOk: (): Answer => ({ status: 200, body: '{"ok":true,"result":{"message_id":1}}' }),
  telegramNoChat: (): Answer => ({ status: 400, body: '{"ok":false,"error_code":400,"description":"Bad Request: chat not found"}' }),
  telegramNotOk: (): Answer => ({ status: 200, body: '{"ok":false,"error_code":400,"description":"Bad Request: can\'t parse entities"}' }),
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
  close(): Promise<void>
}

export async function startReceiver(fallback: Answer = ANSWERS.ok(), port = 0): Promise<Receiver> {
  const waiters: Array<{ n: number; resolve: () => void }> = []
  const r: Receiver = {
    url: '',
    port: 0,
    received: [],
    script: [],
    fallback,
    arrived: (n) => (r.received.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve }))),
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
      const answer = r.script.shift() ?? r.fallback
      for (const w of waiters.filter((w) => r.received.length >= w.n)) w.resolve()
      if (answer.hang) return
      res.writeHead(answer.status, answer.headers ?? {})
      res.end(answer.body ?? '')
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
