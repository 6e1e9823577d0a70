import { Socket } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { type ReferenceService, startReferenceService, type WireProject } from './index'
import { call } from './test-client'

const KEY = 'fault-key'
let service: ReferenceService
let project: WireProject
const getProject = () => call(service.url, 'GET', `/projects/${project.id}`, { key: KEY })

/** A raw HTTP/1.1 exchange, to see exactly what went over the wire. */
function rawGet(path: string): Promise<{ head: string; body: Buffer; ended: 'end' | 'error' }> {
  const url = new URL(service.url)
  return new Promise((resolve) => {
    const socket = new Socket()
    const chunks: Buffer[] = []
    const finish = (ended: 'end' | 'error') => {
      const all = Buffer.concat(chunks)
      const at = all.indexOf('\r\n\r\n')
      resolve({
        head: at < 0 ? all.toString() : all.subarray(0, at).toString(),
        body: at < 0 ? Buffer.alloc(0) : all.subarray(at + 4),
        ended
      })
    }
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('end', () => finish('end'))
    socket.on('error', () => finish('error'))
    socket.connect(Number(url.port), url.hostname, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: ${url.host}\r\nx-api-key: ${KEY}\r\nConnection: close\r\n\r\n`)
    })
  })
}

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, manualClock: true })
  project = service.control.createProject({ name: 'Faulty' })
})
afterAll(() => service.close())
beforeEach(() => service.control.clearFaults())

describe('faults', () => {
  it('answers 5xx to the next N matching requests only', async () => {
    service.control.setFaults({ rules: [{ kind: 'error', status: 503, method: 'GET', times: 2 }] })
    // A PATCH does not match and does not use up the rule.
    expect((await call(service.url, 'PATCH', `/projects/${project.id}`, { key: KEY, body: {} })).status).toBe(200)
    const first = await getProject()
    expect(first.status).toBe(503)
    expect((first.json() as { error: { code: string } }).error.code).toBe('internal')
    expect((await getProject()).status).toBe(503)
    expect((await getProject()).status).toBe(200)
  })

  it('scopes faults to a path prefix', async () => {
    service.control.setFaults({ rules: [{ kind: 'error', status: 500, pathPrefix: '/tasks/' }] })
    expect((await getProject()).status).toBe(200)
    expect((await call(service.url, 'GET', '/tasks/x/steps', { key: KEY })).status).toBe(500)
  })

  it('answers a share of requests with 5xx, deterministically', async () => {
    service.control.setFaults({ rules: [{ kind: 'error', probability: 0.5 }] })
    const statuses: number[] = []
    for (let i = 0; i < 40; i++) statuses.push((await getProject()).status)
    const errors = statuses.filter((s) => s === 503).length
    expect(errors).toBeGreaterThan(8)
    expect(errors).toBeLessThan(32)
    expect(statuses.filter((s) => s !== 503 && s !== 200)).toEqual([])
  })

  it('answers 429 with Retry-After in seconds or as an HTTP date', async () => {
    service.control.setFaults({
      rules: [
        { kind: 'rate_limit', retryAfterSeconds: 7, times: 1 },
        { kind: 'rate_limit', retryAfterSeconds: 30, httpDate: true, times: 1 }
      ]
    })
    const a = await getProject()
    expect(a.status).toBe(429)
    expect(a.headers['retry-after']).toBe('7')
    expect((a.json() as { error: { code: string } }).error.code).toBe('rate_limited')
    const b = await getProject()
    expect(b.status).toBe(429)
    const when = Date.parse(String(b.headers['retry-after']))
    expect(when - Date.now()).toBeGreaterThan(20_000)
    expect(when - Date.now()).toBeLessThan(40_000)
    expect((await getProject()).status).toBe(200)
  })

  it('adds latency', async () => {
    service.control.setFaults({ rules: [{ kind: 'latency', ms: 250, times: 1 }] })
    const t0 = performance.now()
    expect((await getProject()).status).toBe(200)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(240)
  })

  it('holds a request until released, then answers it as the other rules say', async () => {
    service.control.setFaults({
      rules: [
        { kind: 'hold', times: 1 },
        { kind: 'error', status: 502, times: 1 }
      ]
    })
    let answered = false
    const pending = getProject().then((res) => {
      answered = true
      return res
    })
    // The barrier: the request has reached the gate.
    await vi.waitFor(() => expect(service.control.held()).toBe(1))
    expect(answered).toBe(false)
    expect(service.control.release()).toBe(1)
    expect((await pending).status).toBe(502)
    expect(service.control.held()).toBe(0)
    // The rules were for one request each: the next one is answered at once.
    expect((await getProject()).status).toBe(200)
  })

  it('sends a malformed body', async () => {
    service.control.setFaults({ rules: [{ kind: 'malformed', times: 1 }] })
    const res = await getProject()
    expect(res.status).toBe(200)
    expect(() => res.json()).toThrow()
    expect(res.text.length).toBeGreaterThan(10)
  })

  it('sends a truncated body: Content-Length larger than what arrives', async () => {
    service.control.setFaults({ rules: [{ kind: 'truncated', times: 1 }] })
    const res = await rawGet(`/projects/${project.id}`)
    const length = Number(/content-length: (\d+)/i.exec(res.head)?.[1])
    expect(res.head).toMatch(/^HTTP\/1\.1 200/)
    expect(length).toBeGreaterThan(0)
    expect(res.body.length).toBeLessThan(length)
    await expect(getProject()).resolves.toMatchObject({ status: 200 })
  })

  it('drops the connection before any response', async () => {
    service.control.setFaults({ rules: [{ kind: 'drop', times: 1 }] })
    const res = await rawGet(`/projects/${project.id}`)
    expect(res.head).toBe('')
    await expect(getProject()).resolves.toMatchObject({ status: 200 })
  })

  it('trickles a slow body that still arrives whole', async () => {
    service.control.setFaults({ rules: [{ kind: 'slow', chunkBytes: 40, intervalMs: 20, times: 1 }] })
    const t0 = performance.now()
    const res = await getProject()
    const chunks = Math.ceil(Buffer.byteLength(res.text) / 40)
    expect(performance.now() - t0).toBeGreaterThanOrEqual((chunks - 1) * 20 - 5)
    expect(res.json()).toEqual(service.control.listProjects().find((p) => p.id === project.id))
  })

  it('breaks one record of a list: its id becomes null, the others and the tag follow the broken body', async () => {
    const a = service.control.addTask(project.id, { name: 'A', status: 'completed' })
    service.control.addTask(project.id, { name: 'B', status: 'completed' })
    const path = `/projects/${project.id}/tasks`
    const intact = await call(service.url, 'GET', path, { key: KEY })
    service.control.setFaults({ rules: [{ kind: 'corrupt_record', index: 1, times: 1 }] })
    const broken = await call(service.url, 'GET', path, { key: KEY })
    expect(broken.status).toBe(200)
    const ids = (broken.json() as { id: unknown }[]).map((t) => t.id)
    expect(ids).toEqual((intact.json() as { id: string }[]).map((t, i) => (i === 1 ? null : t.id)))
    expect(broken.headers.etag).not.toBe(intact.headers.etag)
    // Even asked conditionally with the intact list's tag: the broken list is not that list.
    service.control.setFaults({ rules: [{ kind: 'corrupt_record', times: 1 }] })
    const conditional = await call(service.url, 'GET', path, {
      key: KEY,
      headers: { 'if-none-match': String(intact.headers.etag) }
    })
    expect(conditional.status).toBe(200)
    expect((conditional.json() as { id: unknown }[])[0]?.id).toBeNull()
    // steps-and-usages: the steps list is the one broken.
    service.control.setFaults({ rules: [{ kind: 'corrupt_record', times: 1 }] })
    const both = (await call(service.url, 'GET', `/tasks/${a.id}/steps-and-usages`, { key: KEY })).json() as {
      steps: { id: unknown }[]
    }
    expect(both.steps[0]?.id).toBeNull()
    expect(both.steps.slice(1).every((s) => typeof s.id === 'string')).toBe(true)
    // all: every record of the list.
    service.control.setFaults({ rules: [{ kind: 'corrupt_record', all: true, times: 1 }] })
    expect(
      ((await call(service.url, 'GET', path, { key: KEY })).json() as { id: unknown }[]).every((t) => t.id === null)
    ).toBe(true)
    expect(() => service.control.setFaults({ rules: [{ kind: 'corrupt_record', index: -1 }] })).toThrow(/index/)
    expect(() => service.control.setFaults({ rules: [{ kind: 'corrupt_record', all: 'yes' }] } as never)).toThrow(/all/)
  })

  it('never touches the control routes', async () => {
    service.control.setFaults({ rules: [{ kind: 'drop' }] })
    const res = await call(service.url, 'GET', '/__control/stats', { key: KEY })
    expect(res.status).toBe(200)
  })

  it('refuses a malformed plan', () => {
    expect(() => service.control.setFaults({ rules: [{ kind: 'explode' }] } as never)).toThrow(/kind/)
  })
})
