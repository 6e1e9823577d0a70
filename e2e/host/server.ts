// The host's HTTP server on loopback: the renderer's files, the IPC transport (invoke over POST,
// events over Server-Sent Events), the bridge script, and the test control routes. The app's
// composition registered its IPC handlers (with main's sender check) on the HTTP ipcMain and sends
// its events to the hub: only the transport is the host's.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { isOwnHost } from '../../src/reference-service/host-header'
import { bridgeScript } from './bridge-script'
import { type ControlParts, handleControl } from './control-routes'
import type { EventHub } from './events'
import type { HttpIpcMain } from './ipc-over-http'
import { staticFile } from './static-files'

const LISTEN_HOST = '127.0.0.1'
const MAX_BODY_BYTES = 1024 * 1024
const INVOKE_PREFIX = '/__ipc/invoke/'
const CONTROL_PREFIX = '/__host/control/'
const HOST_PREFIX = '/__host/'

export interface HostServer {
  url: string
  close(): Promise<void>
}

class BodyTooLarge extends Error {}

/** A body must say it is JSON: a cross-origin page can send text/plain or a form without asking (no preflight), never JSON. */
function isJson(req: IncomingMessage): boolean {
  const type = req.headers['content-type']?.split(';')[0]?.trim().toLowerCase()
  return type === 'application/json'
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge()
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
  res.end(text)
}

export async function startHostServer(options: {
  port: number
  rendererDir: string | null
  /** Where the composed app registered its IPC handlers. */
  ipcMain: HttpIpcMain
  /** Where the composed app sends its events. */
  events: EventHub
  control: Omit<ControlParts, 'emit'>
  onInternalError: (channel: string, error: unknown) => void
  /** What main would log (e.g. a refused sender). */
  log: (message: string) => void
}): Promise<HostServer> {
  const { ipcMain, events } = options
  const bridge = bridgeScript()
  // Known once listening (the port may be chosen by the system).
  let ownOrigin = ''
  let ownPort = -1

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Before anything else: a page that reaches us by DNS rebinding names its own host, and would
    // otherwise read the files, the event stream and the control routes' answers as same-origin.
    if (!isOwnHost(req.headers.host, { host: LISTEN_HOST, port: ownPort })) {
      return sendJson(res, 421, { error: 'This host answers to its own address only.' })
    }
    const method = req.method ?? 'GET'
    const path = new URL(req.url ?? '/', 'http://host.invalid').pathname
    const origin = req.headers.origin

    if (path.startsWith(INVOKE_PREFIX)) {
      if (method !== 'POST') return sendJson(res, 405, { error: 'Use POST.' })
      if (!isJson(req)) return sendJson(res, 415, { error: 'Send the request as application/json.' })
      let raw: string
      try {
        raw = await readBody(req)
      } catch (error) {
        if (error instanceof BodyTooLarge) return sendJson(res, 413, { error: 'The request is too large.' })
        throw error
      }
      let request: unknown
      try {
        request = raw.trim() === '' ? undefined : JSON.parse(raw)
      } catch {
        return sendJson(res, 200, {
          ok: false,
          error: { kind: 'invalid_argument', message: 'The request is not JSON.' }
        })
      }
      let channel: string
      try {
        channel = decodeURIComponent(path.slice(INVOKE_PREFIX.length))
      } catch {
        channel = ''
      }
      // The Origin is the sender's frame URL: main's sender check refuses any other page.
      const result = ipcMain.invoke(channel, origin, request)
      // As Electron, which rejects an invoke of a channel nobody handles.
      if (!result) return sendJson(res, 404, { error: `No handler registered for '${channel.slice(0, 60)}'` })
      return sendJson(res, 200, await result)
    }

    if (path === '/__ipc/events') return events.add(res, (listener) => req.on('close', listener))

    if (path === '/__bridge.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' })
      res.end(bridge)
      return
    }

    if (path.startsWith(CONTROL_PREFIX) || path.startsWith(HOST_PREFIX)) {
      const route = path.startsWith(CONTROL_PREFIX) ? path.slice(CONTROL_PREFIX.length) : path.slice(HOST_PREFIX.length)
      // Anything that changes something must come from the host's own origin (a test's request
      // context sends it); another page on this machine must not drive the service or the app.
      if (method !== 'GET' && method !== 'HEAD' && origin !== ownOrigin) {
        options.log(`host: refused ${method} ${route} from ${origin ?? 'a request without an Origin'}`)
        return sendJson(res, 403, { error: 'Only the host’s own page may change things.' })
      }
      let body: unknown
      try {
        const raw = await readBody(req)
        if (raw.trim() !== '' && !isJson(req))
          return sendJson(res, 415, { error: 'Send the body as application/json.' })
        body = raw.trim() === '' ? undefined : JSON.parse(raw)
      } catch (error) {
        if (error instanceof BodyTooLarge) return sendJson(res, 413, { error: 'The request is too large.' })
        return sendJson(res, 400, { error: 'The body is not JSON.' })
      }
      const reply = handleControl(method, route, body, {
        ...options.control,
        emit: (channel, payload) => events.broadcast(channel, payload)
      })
      return sendJson(res, reply.status, reply.body)
    }

    if (method !== 'GET' && method !== 'HEAD') return sendJson(res, 405, { error: 'Use GET.' })
    const file = await staticFile(options.rendererDir, path)
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
      res.end('Not found')
      return
    }
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' })
    res.end(method === 'HEAD' ? undefined : file.body)
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.onInternalError('host', error)
      if (!res.headersSent) sendJson(res, 500, { error: 'The test host failed.' })
      else res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, LISTEN_HOST, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  ownPort = port
  ownOrigin = `http://${LISTEN_HOST}:${port}`
  return {
    url: ownOrigin,
    async close() {
      events.closeAll()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}
