// For tests: a loopback HTTP server that answers with the test's handler and keeps every request it received.
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

export type Handler = (req: Received, res: ServerResponse) => void

export interface TestServer {
  url: string
  received: Received[]
  /** Replaces the handler for the requests that follow. */
  handle(handler: Handler): void
  close(): Promise<void>
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(typeof body === 'string' ? body : JSON.stringify(body))
}

export async function startTestServer(): Promise<TestServer> {
  let handler: Handler = (_req, res) => json(res, 500, { message: 'no handler' })
  const received: Received[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const r = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8')
      }
      received.push(r)
      handler(r, res)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    handle: (h) => {
      handler = h
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
