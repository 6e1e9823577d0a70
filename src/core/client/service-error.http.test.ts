// Error bodies over real HTTP, as a person sees them: the message of the client's error (what the
// command prints and the log writes) and the IpcError the window gets, for each body shape of this
// family of services and the reference service's own.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from '../../reference-service'
import { type Handlers, INVOKE_CHANNELS } from '../../shared/ipc'
import { dispatch } from '../app/dispatch'
import { createServiceClient, type ServiceClient } from './client'
import { failure } from './test-failure'

const KEY = 'key-errors-http-4d1f0b'
const BODIES: Record<string, { status: number; body: unknown; said: string }> = {
  'message-list': {
    status: 400,
    body: { statusCode: 400, message: ['name must be a string', 'ref_id must be shorter'], error: 'Bad Request' },
    said: 'name must be a string; ref_id must be shorter'
  },
  'message-string': {
    status: 422,
    body: { statusCode: 422, message: 'hostname is taken', error: 'Unprocessable Entity' },
    said: 'hostname is taken'
  },
  'error-object-list': { status: 409, body: { error: { code: 'conflict', message: ['one', 'two'] } }, said: 'one; two' }
}

let server: Server
let url: string
let reference: ReferenceService

beforeAll(async () => {
  server = createServer((req, res) => {
    const shape = BODIES[(req.url ?? '').split('/')[2] ?? '']
    res.writeHead(shape?.status ?? 500, { 'content-type': 'application/json' })
    res.end(JSON.stringify(shape?.body ?? {}))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  reference = await startReferenceService({ apiKey: KEY, port: 0, seed: 3, manualClock: true })
})
afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
  await reference.close()
})

/** What the window gets for project:get through the one IPC entry point, with a real client behind it. */
async function windowMessage(client: ServiceClient, projectId: string): Promise<string> {
  const handlers = Object.fromEntries(INVOKE_CHANNELS.map((c) => [c, async () => undefined])) as unknown as Handlers
  ;(handlers as unknown as Record<string, (r: { projectId: string }) => Promise<unknown>>)['project:get'] = (r) =>
    client.getProject(r.projectId)
  const result = await dispatch(handlers, 'project:get', { projectId })
  expect(result.ok).toBe(false)
  return result.ok ? '' : result.error.message
}

describe('error bodies are shown as plain text', () => {
  it.each(Object.entries(BODIES))('%s', async (shape, { status, said }) => {
    const client = createServiceClient({ baseUrl: url, apiKey: KEY, retry: { retries: 0 } })
    try {
      const e = await failure(client.getProject(shape))
      expect(e.status).toBe(status)
      expect(e.message).toMatch(new RegExp(`\\(HTTP ${status}\\)\\. Server said: ${said}$`))
      expect(e.message).not.toMatch(/[[\]{}"]/)
      expect(await windowMessage(client, shape)).toBe(e.message)
    } finally {
      await client.close()
    }
  })

  it("the reference service's own {error: {message}}", async () => {
    const client = createServiceClient({ baseUrl: reference.url, apiKey: KEY, retry: { retries: 0 } })
    try {
      const e = await failure(client.getProject('no-such-project'))
      expect(e.message).toBe(
        'Not found (HTTP 404): this project or task is gone. Server said: No project with id "no-such-project".'
      )
      expect(await windowMessage(client, 'no-such-project')).toBe(e.message)
    } finally {
      await client.close()
    }
  })
})
