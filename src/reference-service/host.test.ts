// The reference service (shipped in demo mode) answers to its own address only: a request whose
// Host names anything else, as a DNS-rebinding page's does, gets 421 on every route, control
// routes and the prebuilt page included, and changes nothing. Real HTTP, with the Host header set.
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from './index'

const KEY = 'host-check-key-5b1e'
let service: ReferenceService
let port: number

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 2, manualClock: true })
  port = Number(new URL(service.url).port)
})
afterAll(async () => {
  await service.close()
})

function get(path: string, host: string, method = 'GET', body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: { host, 'x-api-key': KEY, 'content-type': 'application/json' }
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (s: string) => (text += s))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
      }
    )
    req.on('error', reject)
    req.end(body)
  })
}

describe('the Host header', () => {
  it('its own address and localhost, with its port, are served', async () => {
    const p = service.control.createProject({ name: 'Mine' })
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      expect((await get(`/projects/${p.id}`, host)).status, host).toBe(200)
      expect((await get(`/prebuilt/${p.id}`, host)).status, host).toBe(200)
    }
  })

  it('any other name gets 421 on every route, and nothing changes', async () => {
    const p = service.control.createProject({ name: 'Theirs' })
    const before = service.control.listProjects().length
    for (const host of [
      `rebind.example:${port}`,
      `localhost.rebind.example:${port}`,
      `127.0.0.1:${port + 1}`,
      'rebind.example'
    ]) {
      for (const [method, path, body] of [
        ['GET', `/projects/${p.id}`],
        ['GET', `/prebuilt/${p.id}`],
        ['POST', '/projects', '{"name":"planted"}'],
        ['POST', '/__control/faults', '{"rules":[]}'],
        ['GET', '/__control/stats']
      ] as const) {
        const r = await get(path, host, method, body)
        expect(r.status, `${method} ${path} with Host ${host}`).toBe(421)
        expect(JSON.parse(r.body)).toMatchObject({ error: { code: 'misdirected' } })
        expect(r.body).not.toContain('Theirs')
      }
    }
    expect(service.control.listProjects()).toHaveLength(before)
  })
})
