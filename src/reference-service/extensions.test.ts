// The real service's two endpoints outside the interface document, as the reference service
// implements them: GET /projects?software_product_id=…&order_by=… and POST /tasks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService, type WireProject, type WireTask } from './index'
import { call } from './test-client'

const KEY = 'test-key-extensions'
let service: ReferenceService
let plain: ReferenceService
const api = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
  call(service.url, method, path, { key: KEY, ...options })

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, manualClock: true, seed: 11 })
  plain = await startReferenceService({ apiKey: KEY, manualClock: true, seed: 11, extensions: false })
})
afterAll(async () => {
  await service.close()
  await plain.close()
})

function expectBadRequest(answer: { status: number; json: () => unknown }, field: string): void {
  expect(answer.status).toBe(400)
  expect(answer.json()).toMatchObject({ error: { code: 'bad_request', field } })
}

describe('GET /projects (a product, outside the interface)', () => {
  it("lists one product's projects by creation time, newest first unless asked ASC", async () => {
    const a = service.control.createProject({ name: 'A', software_product_id: 'prod-1' })
    service.control.advance(1000)
    const b = service.control.createProject({ name: 'B', software_product_id: 'prod-1' })
    service.control.createProject({ name: 'Other', software_product_id: 'prod-2' })
    const desc = await api('GET', '/projects?software_product_id=prod-1')
    expect(desc.status).toBe(200)
    expect((desc.json() as WireProject[]).map((p) => p.id)).toEqual([b.id, a.id])
    const asc = await api('GET', '/projects?software_product_id=prod-1&order_by=ASC')
    expect((asc.json() as WireProject[]).map((p) => p.name)).toEqual(['A', 'B'])
    expect((await api('GET', '/projects?software_product_id=none')).json()).toEqual([])
  })

  it('needs the product (400 naming it), a known order (400), and the key (401)', async () => {
    expectBadRequest(await api('GET', '/projects'), 'software_product_id')
    expectBadRequest(await api('GET', '/projects?software_product_id='), 'software_product_id')
    expectBadRequest(await api('GET', '/projects?software_product_id=p&order_by=NEWEST'), 'order_by')
    expect((await api('GET', '/projects?software_product_id=p', { key: 'wrong' })).status).toBe(401)
  })

  it('is absent from a server without the extensions: 405, POST only', async () => {
    const res = await call(plain.url, 'GET', '/projects?software_product_id=p', { key: KEY })
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('POST')
    expect((await api('PUT', '/projects')).headers.allow).toBe('POST, GET')
  })
})

describe('POST /tasks (outside the interface)', () => {
  it('starts a task that then runs like any other', async () => {
    const project = service.control.createProject({ name: 'P' })
    const res = await api('POST', '/tasks', {
      body: {
        project_id: project.id,
        name: 'Add a contact form',
        text_requirement: 'A form with name and e-mail',
        flow: 'new_task'
      }
    })
    expect(res.status).toBe(201)
    const task = res.json() as WireTask
    expect(task).toMatchObject({
      project_id: project.id,
      name: 'Add a contact form',
      status: 'todo',
      text_requirement: 'A form with name and e-mail'
    })
    const listed = (await api('GET', `/projects/${project.id}/tasks`)).json() as WireTask[]
    expect(listed.map((t) => t.id)).toContain(task.id)
    service.control.advance(60 * 60 * 1000)
    expect(['completed', 'failed', 'cancelled']).toContain(service.control.getTask(task.id)?.status)
  })

  it('checks every field (400 naming it) and the project (404)', async () => {
    const project = service.control.createProject({ name: 'Q' })
    const good = { project_id: project.id, name: 'N', text_requirement: 'T' }
    for (const field of ['project_id', 'name', 'text_requirement'] as const) {
      const { [field]: _left, ...rest } = good
      expectBadRequest(await api('POST', '/tasks', { body: rest }), field)
      expectBadRequest(await api('POST', '/tasks', { body: { ...good, [field]: 42 } }), field)
    }
    expectBadRequest(await api('POST', '/tasks', { body: { ...good, flow: 1 } }), 'flow')
    const missing = await api('POST', '/tasks', {
      body: { ...good, project_id: '00000000-0000-0000-0000-000000000000' }
    })
    expect(missing.status).toBe(404)
  })

  it('is absent from a server without the extensions: 404', async () => {
    const res = await call(plain.url, 'POST', '/tasks', {
      key: KEY,
      body: { project_id: 'p', name: 'n', text_requirement: 't' }
    })
    expect(res.status).toBe(404)
  })
})
