// The client against the reference service over real HTTP: every endpoint, the key, and each
// fault the service can inject. Only sleeping is faked (recorded), so retries take no time.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from '../../reference-service'
import { createServiceClient, type ServiceClient, type ServiceClientOptions } from './client'
import type { InvalidRecordIssue } from './parse'
import type { ServiceError } from './service-error'
import { failure } from './test-failure'

const KEY = 'ref-key-9c1e44d2b7a0f318'
let service: ReferenceService
const clients: ServiceClient[] = []

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 7, manualClock: true })
})
afterAll(async () => {
  await service.close()
})
afterEach(async () => {
  service.control.clearFaults()
  service.control.resetStats()
  while (clients.length) await clients.pop()?.close()
})

function client(
  extra: Partial<ServiceClientOptions> = {}
): ServiceClient & { waits: number[]; issues: InvalidRecordIssue[] } {
  const waits: number[] = []
  const issues: InvalidRecordIssue[] = []
  const c = createServiceClient({
    baseUrl: service.url,
    apiKey: KEY,
    random: () => 0.5,
    sleep: async (ms) => {
      waits.push(ms)
    },
    onInvalidRecord: (i) => issues.push(i),
    ...extra
  })
  clients.push(c)
  return Object.assign(c, { waits, issues })
}

const requests = (route: string): number => service.control.stats().byRoute[route]?.requests ?? 0

describe('every endpoint', () => {
  it('creates, reads and updates a project', async () => {
    const c = client()
    const created = await c.createProject({ name: 'Shop', description: 'A shop', project_type: 'web', ref_id: 'r-1' })
    expect(created).toMatchObject({ name: 'Shop', description: 'A shop', project_type: 'web', ref_id: 'r-1' })
    expect(created.id).not.toBe('')
    expect(created.prebuilt_url).toMatch(/^http/)
    expect(await c.getProject(created.id)).toEqual(created)
    const updated = await c.updateProject(created.id, { name: 'Shop 2', user_email: 'a@b.test' })
    expect(updated).toMatchObject({ id: created.id, name: 'Shop 2', user_email: 'a@b.test', description: 'A shop' })
  })

  it('lists tasks with their steps, steps alone, and steps with usage records', async () => {
    const c = client()
    const p = service.control.createProject({ name: 'With history' })
    const done = service.control.addTask(p.id, { name: 'Done', status: 'completed' })
    const tasks = await c.listTasks(p.id)
    expect(tasks.map((t) => t.id)).toContain(done.id)
    const task = tasks.find((t) => t.id === done.id)
    expect(task?.status).toBe('completed')
    expect(task?.steps.length).toBeGreaterThan(0)
    expect(typeof task?.total_price).toBe('number')

    const steps = await c.listSteps(done.id)
    expect(steps.map((s) => s.id)).toEqual(task?.steps.map((s) => s.id))
    const both = await c.getStepsAndUsages(done.id)
    expect(both.steps).toEqual(steps)
    expect(both.usages.length).toBeGreaterThan(0)
    for (const u of both.usages) {
      expect(u.task_id).toBe(done.id)
      expect(typeof u.final_price).toBe('number')
      expect(typeof u.usage_metadata.total_tokens).toBe('number')
    }
    expect(c.issues).toEqual([])
  })

  it('publishes, and returns a failed publish as a result rather than an error', async () => {
    const c = client()
    const a = service.control.createProject({ name: 'A' })
    const b = service.control.createProject({ name: 'B' })
    const hostname = `shop-${a.id.slice(0, 6)}.${service.publishingDomain}`
    expect(await c.publish(a.id, hostname)).toMatchObject({ status: 'success' })
    const taken = await c.publish(b.id, hostname)
    expect(taken.status).toBe('failed')
    expect(taken.message.join(' ')).toContain('already taken')
    const foreign = await c.publish(b.id, 'shop.example.com')
    expect(foreign.status).toBe('failed')
    expect(foreign.message.length).toBeGreaterThan(0)
  })

  it('checks the key: accepted, rejected', async () => {
    expect(await client().checkKey()).toBe(true)
    expect(await client({ apiKey: 'wrong-key-0000' }).checkKey()).toBe(false)
  })

  it('checks the key: a wrong path prefix (404 for any key) is not taken for an accepted key', async () => {
    for (const apiKey of [KEY, 'wrong-key-0000']) {
      const e = await failure(client({ baseUrl: `${service.url}/api/v1`, apiKey }).checkKey())
      expect(e.kind).toBe('not_found')
      expect(e.message).toBe(`Nothing at ${service.url}/api/v1 looks like the service: check the URL.`)
    }
  })
})

describe('errors from the service', () => {
  it('a wrong key is auth (401) with the service message', async () => {
    const e = await failure(client({ apiKey: 'wrong-key-0000' }).listTasks('anything'))
    expect(e.kind).toBe('auth')
    expect(e.status).toBe(401)
    expect(e.message).toMatch(/^The API key was rejected \(HTTP 401\): check or replace it\. Server said: /)
  })

  it('an unknown project or task is not_found', async () => {
    const c = client()
    const e = await failure(c.getProject('no-such-project'))
    expect(e.kind).toBe('not_found')
    expect(e.message).toContain('No project with id "no-such-project"')
    expect((await failure(c.listSteps('no-such-task'))).kind).toBe('not_found')
    expect(c.waits).toEqual([])
  })

  it('a refused update is bad_request naming the field', async () => {
    const p = service.control.createProject({ name: 'X' })
    const e = await failure(client().updateProject(p.id, { name: 5 as unknown as string }))
    expect(e.kind).toBe('bad_request')
    expect(e.status).toBe(400)
    expect(e.details?.field).toBe('name')
  })
})

describe('with faults on', () => {
  it('a share of 5xx answers: GETs are retried and succeed', async () => {
    const p = service.control.createProject({ name: 'Flaky' })
    service.control.setFaults({ rules: [{ kind: 'error', status: 500, method: 'GET', probability: 0.3 }] })
    const c = client()
    for (let i = 0; i < 15; i++) expect((await c.getProject(p.id)).id).toBe(p.id)
    expect(c.waits.length).toBeGreaterThan(0)
    expect(requests('GET /projects/{id}')).toBe(15 + c.waits.length)
  })

  it('503 twice, then the answer', async () => {
    const p = service.control.createProject({ name: 'Busy' })
    service.control.setFaults({ rules: [{ kind: 'error', times: 2 }] })
    const c = client({ retry: { baseDelayMs: 100 } })
    expect((await c.listTasks(p.id)).length).toBeGreaterThanOrEqual(0)
    expect(c.waits).toEqual([50, 100])
  })

  it('429 with Retry-After in seconds: waits that long', async () => {
    const p = service.control.createProject({ name: 'Limited' })
    service.control.setFaults({ rules: [{ kind: 'rate_limit', retryAfterSeconds: 3, times: 1 }] })
    const c = client()
    await c.getProject(p.id)
    expect(c.waits).toEqual([3000])
  })

  it('429 with Retry-After as an HTTP date: waits until then', async () => {
    const p = service.control.createProject({ name: 'Limited by date' })
    service.control.setFaults({ rules: [{ kind: 'rate_limit', retryAfterSeconds: 4, httpDate: true, times: 1 }] })
    const c = client({ now: Date.now })
    await c.getProject(p.id)
    expect(c.waits).toHaveLength(1)
    // An HTTP date has whole seconds: the wait is within a second below the asked 4 s.
    expect(c.waits[0]).toBeGreaterThan(2500)
    expect(c.waits[0]).toBeLessThanOrEqual(4000)
  })

  it('429 for longer than the maximum wait: rate_limited with the wait, no retry', async () => {
    service.control.setFaults({ rules: [{ kind: 'rate_limit', retryAfterSeconds: 120 }] })
    const c = client({ retry: { maxDelayMs: 60_000 } })
    const e = await failure(c.getProject('p'))
    expect(e).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 120_000 })
    expect(c.waits).toEqual([])
  })

  it('a malformed body is invalid_response, not retried', async () => {
    const p = service.control.createProject({ name: 'Garbled' })
    service.control.setFaults({ rules: [{ kind: 'malformed' }] })
    const e = await failure(client().listTasks(p.id))
    expect(e.kind).toBe('invalid_response')
    expect(e.details?.reason).toBe('not_json')
    expect(requests('GET /projects/{id}/tasks')).toBe(1)
  })

  it('a truncated body is a network error after retries; once only, the retry succeeds', async () => {
    const p = service.control.createProject({ name: 'Cut' })
    service.control.setFaults({ rules: [{ kind: 'truncated' }] })
    const c = client()
    expect((await failure(c.getProject(p.id))).kind).toBe('network')
    expect(c.waits).toHaveLength(3)
    service.control.setFaults({ rules: [{ kind: 'truncated', times: 1 }] })
    expect((await c.getProject(p.id)).id).toBe(p.id)
  })

  it('a dropped connection: retried, then a network error', async () => {
    service.control.setFaults({ rules: [{ kind: 'drop' }] })
    const c = client({ retry: { retries: 2 } })
    const e = await failure(c.listSteps('t'))
    expect(e.kind).toBe('network')
    expect(c.waits).toHaveLength(2)
    expect(requests('GET /tasks/{id}/steps')).toBe(3)
  })

  it('a body trickled beyond the body timeout is a timeout', async () => {
    const p = service.control.createProject({ name: 'Slow' })
    service.control.setFaults({ rules: [{ kind: 'slow', chunkBytes: 8, intervalMs: 40 }] })
    const e = await failure(client({ timeouts: { bodyMs: 300 }, retry: { retries: 0 } }).getProject(p.id))
    expect(e.kind).toBe('timeout')
  })

  it('latency beyond the headers timeout is a timeout', async () => {
    service.control.setFaults({ rules: [{ kind: 'latency', ms: 1500 }] })
    const e = await failure(client({ timeouts: { headersMs: 200 }, retry: { retries: 0 } }).getProject('p'))
    expect(e.kind).toBe('timeout')
  })

  it('a POST is never retried on 503', async () => {
    service.control.setFaults({ rules: [{ kind: 'error', status: 503, method: 'POST' }] })
    const c = client()
    const e = await failure(c.createProject({ name: 'Never twice' }))
    expect(e.kind).toBe('rate_limited')
    expect(e.status).toBe(503)
    expect((await failure(c.publish('p', `x.${service.publishingDomain}`))).kind).toBe('rate_limited')
    expect(c.waits).toEqual([])
    expect(requests('POST /projects')).toBe(1)
    expect(requests('POST /projects/{id}/publish')).toBe(1)
    expect(service.control.listProjects().some((p) => p.name === 'Never twice')).toBe(false)
  })

  it('never puts the key in an error, whatever the fault', async () => {
    const c = client({ retry: { retries: 1 } })
    const bad = client({ apiKey: 'wrong-key-0000' })
    const p = service.control.createProject({ name: 'Keyless' })
    const errors: ServiceError[] = [await failure(bad.getProject('x')), await failure(c.getProject('x'))]
    for (const kind of ['error', 'rate_limit', 'malformed', 'truncated', 'drop'] as const) {
      service.control.setFaults({ rules: [{ kind }] })
      errors.push(await failure(c.listTasks(p.id)))
    }
    expect(errors.map((e) => e.kind)).toEqual([
      'auth',
      'not_found',
      'rate_limited',
      'rate_limited',
      'invalid_response',
      'network',
      'network'
    ])
    for (const e of errors) {
      for (const text of [e.message, e.stack ?? '', JSON.stringify(e)]) expect(text).not.toContain(KEY)
    }
  })
})
