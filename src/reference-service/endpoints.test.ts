import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PROJECT_UPDATE_FIELDS } from '../shared/service'
import { MAX_BODY_BYTES, type ReferenceService, startReferenceService, type WireProject, type WireTask } from './index'
import { call } from './test-client'

const KEY = 'test-key-endpoints'
let service: ReferenceService
const api = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
  call(service.url, method, path, { key: KEY, ...options })

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

function expectError(
  answer: { status: number; json: () => unknown },
  status: number,
  code: string,
  field?: string
): void {
  expect(answer.status).toBe(status)
  const body = answer.json() as { error: { code: string; message: string; field?: string } }
  expect(body.error.code).toBe(code)
  expect(body.error.message.length).toBeGreaterThan(5)
  if (field === undefined) expect(body.error.field).toBeUndefined()
  else expect(body.error.field).toBe(field)
}

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, manualClock: true, seed: 7 })
})
afterAll(() => service.close())

describe('POST /projects', () => {
  it('creates a project with every field of the interface', async () => {
    const res = await api('POST', '/projects', {
      body: {
        software_product_id: 'sp-1',
        name: 'Shop',
        description: 'A shop',
        project_type: 'web',
        user_email: 'a@example.com',
        return_url: 'https://example.com/back',
        ref_id: 'r-1'
      }
    })
    expect(res.status).toBe(201)
    expect(res.headers['content-type']).toMatch(/application\/json/)
    const p = res.json() as WireProject
    expect(Object.keys(p).sort()).toEqual(
      [
        'id',
        'software_product_id',
        'name',
        'description',
        'project_type',
        'project_template_type',
        'created_at',
        'updated_at',
        'user_email',
        'prebuilt_url',
        'return_url',
        'ref_id'
      ].sort()
    )
    expect(p).toMatchObject({
      software_product_id: 'sp-1',
      name: 'Shop',
      description: 'A shop',
      project_type: 'web',
      user_email: 'a@example.com',
      return_url: 'https://example.com/back',
      ref_id: 'r-1'
    })
    expect(typeof p.id).toBe('string')
    expect(p.project_template_type).toMatch(/-vite$/)
    expect(p.created_at).toMatch(ISO_MS)
    expect(p.created_at).toBe(service.control.now())
    expect(p.prebuilt_url).toBe(`${service.url}/prebuilt/${p.id}`)
    const page = await call(service.url, 'GET', `/prebuilt/${p.id}`, { key: null })
    expect(page.status).toBe(200)
    expect(page.text).toContain('<h1>Shop</h1>')
    // A strict policy: the page loads, runs, embeds and submits nothing, and is never framed.
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect(page.headers['referrer-policy']).toBe('no-referrer')
    // Without text_requirement no task is started.
    expect((await api('GET', `/projects/${p.id}/tasks`)).json()).toEqual([])
  })

  it('accepts an empty body and starts a first task for a text requirement', async () => {
    expect((await api('POST', '/projects')).status).toBe(201)
    const p = (
      await api('POST', '/projects', {
        body: {
          text_requirement: 'Build a todo app',
          files_requirement: [{ file_type: 'image', url: 'https://img.example.com/a.png' }]
        }
      })
    ).json() as WireProject
    const tasks = (await api('GET', `/projects/${p.id}/tasks`)).json() as WireTask[]
    expect(tasks).toHaveLength(1)
    expect(tasks[0]).toMatchObject({
      project_id: p.id,
      status: 'todo',
      text_requirement: 'Build a todo app',
      files_requirement: [{ file_type: 'image', url: 'https://img.example.com/a.png' }],
      steps: [],
      total_price: 0
    })
  })

  it.each([
    [{ name: 3 }, 'name'],
    [{ description: null }, 'description'],
    [{ project_type: 'mobile' }, 'project_type'],
    [{ files_requirement: 'x' }, 'files_requirement'],
    [{ files_requirement: ['x'] }, 'files_requirement[0]'],
    [{ files_requirement: [{ file_type: 'pdf', url: 'https://x.example/a.pdf' }] }, 'files_requirement[0].file_type'],
    [
      {
        files_requirement: [
          { file_type: 'image', url: 'https://x.example/a.png' },
          { file_type: 'image', url: 'ftp://x/a.png' }
        ]
      },
      'files_requirement[1].url'
    ],
    [{ files_requirement: [{ file_type: 'image', url: 'not a url' }] }, 'files_requirement[0].url'],
    [
      {
        files_requirement: [
          { file_type: 'image', url: 'https://x.example/a.PNG?v=1' },
          { file_type: 'image', url: 'https://x.example/readme.txt' }
        ]
      },
      'files_requirement[1].url'
    ],
    [{ files_requirement: [{ file_type: 'image', url: 'https://x.example/gallery' }] }, 'files_requirement[0].url'],
    [{ user_email: 'not-an-email' }, 'user_email'],
    [{ return_url: 'javascript:alert(1)' }, 'return_url'],
    [{ return_url: 'file:///etc/passwd' }, 'return_url'],
    [{ return_url: 'not a url' }, 'return_url'],
    [{ ref_id: 12 }, 'ref_id'],
    [[], 'body']
  ])('rejects %j naming %s', async (body, field) => {
    const before = service.control.listProjects().length
    expectError(await api('POST', '/projects', { body }), 400, 'bad_request', field)
    expect(service.control.listProjects()).toHaveLength(before)
  })

  it('rejects malformed JSON', async () => {
    expectError(await api('POST', '/projects', { raw: '{"name": ' }), 400, 'bad_request', 'body')
  })

  it('answers 413 to a body over 1 MiB', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(MAX_BODY_BYTES) })
    expectError(await api('POST', '/projects', { raw: big }), 413, 'payload_too_large')
  })
})

describe('GET and PATCH /projects/{id}', () => {
  let project: WireProject
  beforeAll(() => {
    project = service.control.createProject({ name: 'Before', user_email: 'x@example.com' })
  })

  it('gets the project', async () => {
    const res = await api('GET', `/projects/${project.id}`)
    expect(res.status).toBe(200)
    expect(res.json()).toEqual(project)
  })

  it("takes an app's own link as return_url, so the prebuilt interface can send the user back to the desktop", async () => {
    const res = await api('PATCH', `/projects/${project.id}`, {
      body: { return_url: `agent-tray://projects/${project.id}` }
    })
    expect(res.status).toBe(200)
    expect((res.json() as WireProject).return_url).toBe(`agent-tray://projects/${project.id}`)
  })

  it('updates the five fields and updated_at', async () => {
    service.control.advance(5000)
    const update = {
      name: 'After',
      description: 'd',
      user_email: 'y@example.com',
      return_url: 'http://localhost:3000/x',
      ref_id: 'ref'
    }
    const res = await api('PATCH', `/projects/${project.id}`, { body: update })
    expect(res.status).toBe(200)
    const p = res.json() as WireProject
    expect(p).toMatchObject(update)
    expect(p.created_at).toBe(project.created_at)
    expect(Date.parse(p.updated_at) - Date.parse(project.updated_at)).toBe(5000)
    expect((await api('GET', `/projects/${project.id}`)).json()).toEqual(p)
    project = p
  })

  it.each(['id', 'project_type', 'prebuilt_url', 'created_at', 'bogus'])(
    'refuses field %s without applying the rest',
    async (field) => {
      const res = await api('PATCH', `/projects/${project.id}`, { body: { name: 'Half applied', [field]: 'x' } })
      expectError(res, 400, 'bad_request', field)
      expect((await api('GET', `/projects/${project.id}`)).json()).toEqual(project)
    }
  )

  it.each([
    [{ name: 1 }, 'name'],
    [{ user_email: 'nope' }, 'user_email'],
    [{ return_url: 'vbscript:msgbox(1)' }, 'return_url'],
    [{ name: 'fine', ref_id: false }, 'ref_id']
  ])('rejects %j naming %s, unchanged', async (body, field) => {
    expectError(await api('PATCH', `/projects/${project.id}`, { body }), 400, 'bad_request', field)
    expect((await api('GET', `/projects/${project.id}`)).json()).toEqual(project)
  })

  it('lists exactly the update fields of the interface', () => {
    expect([...PROJECT_UPDATE_FIELDS]).toEqual(['name', 'description', 'user_email', 'return_url', 'ref_id'])
  })
})

describe('auth, unknown ids, paths and methods', () => {
  let project: WireProject
  let task: WireTask
  beforeAll(() => {
    project = service.control.createProject({ name: 'Auth' })
    task = service.control.addTask(project.id, { status: 'completed' })
  })

  const endpoints = (): [string, string, unknown?][] => [
    ['POST', '/projects', {}],
    ['GET', `/projects/${project.id}`],
    ['PATCH', `/projects/${project.id}`, { name: 'n' }],
    ['GET', `/projects/${project.id}/tasks`],
    ['POST', `/projects/${project.id}/publish`, { hostname: 'auth.apps.agent-tray.test' }],
    ['GET', `/tasks/${task.id}/steps`],
    ['GET', `/tasks/${task.id}/steps-and-usages`]
  ]

  it('answers 401 on every endpoint without a key or with a wrong one', async () => {
    for (const [method, path, body] of endpoints()) {
      expectError(await call(service.url, method, path, { key: null, body }), 401, 'unauthorized')
      expectError(await call(service.url, method, path, { key: `${KEY}x`, body }), 401, 'unauthorized')
      expectError(await call(service.url, method, path, { key: '', body }), 401, 'unauthorized')
    }
    const errors = (await api('GET', `/projects/${project.id}`)).json() as WireProject
    expect(errors.name).toBe('Auth')
  })

  it('never echoes the key', async () => {
    const res = await call(service.url, 'GET', `/projects/${project.id}`, { key: 'wrong-secret-123' })
    expect(res.text).not.toContain('wrong-secret-123')
    expect(res.text).not.toContain(KEY)
  })

  it('answers 404 for unknown projects and tasks', async () => {
    expectError(await api('GET', '/projects/nope'), 404, 'not_found')
    expectError(await api('PATCH', '/projects/nope', { body: { name: 'x' } }), 404, 'not_found')
    expectError(await api('GET', '/projects/nope/tasks'), 404, 'not_found')
    expectError(
      await api('POST', '/projects/nope/publish', { body: { hostname: 'a.apps.agent-tray.test' } }),
      404,
      'not_found'
    )
    expectError(await api('GET', '/tasks/nope/steps'), 404, 'not_found')
    expectError(await api('GET', '/tasks/nope/steps-and-usages'), 404, 'not_found')
  })

  it('answers 404 for unknown paths', async () => {
    expectError(await api('GET', '/nothing'), 404, 'not_found')
    // An id that is not valid percent-encoding names nothing: 404, never a 500.
    expectError(await api('GET', '/projects/%E0%A4%A'), 404, 'not_found')
    expectError(await api('GET', '/tasks/%zz/steps'), 404, 'not_found')
    // GET /projects is the real service's product listing (extensions.test.ts): it needs the product.
    expectError(await api('GET', '/projects'), 400, 'bad_request', 'software_product_id')
    expectError(await api('GET', `/projects/${project.id}/tasks/extra`), 404, 'not_found')
  })

  it('answers 405 with Allow on known paths', async () => {
    const cases: [string, string, string][] = [
      ['DELETE', `/projects/${project.id}`, 'GET, PATCH'],
      ['PUT', '/projects', 'POST, GET'],
      ['POST', `/projects/${project.id}/tasks`, 'GET'],
      ['GET', `/projects/${project.id}/publish`, 'POST'],
      ['DELETE', `/tasks/${task.id}/steps`, 'GET'],
      ['POST', `/tasks/${task.id}/steps-and-usages`, 'GET']
    ]
    for (const [method, path, allow] of cases) {
      const res = await api(method, path)
      expectError(res, 405, 'method_not_allowed')
      expect(res.headers.allow).toBe(allow)
    }
  })
})

describe('GET tasks, steps and steps-and-usages', () => {
  it('returns tasks with nested steps and the steps of a task', async () => {
    const project = service.control.createProject({ name: 'Steps' })
    const added = service.control.addTask(project.id, { status: 'completed', name: 'Done task' })
    const tasks = (await api('GET', `/projects/${project.id}/tasks`)).json() as WireTask[]
    expect(tasks).toHaveLength(1)
    const t = tasks[0] as WireTask
    expect(t).toEqual(added)
    expect(Object.keys(t).sort()).toEqual(
      [
        'id',
        'project_id',
        'name',
        'description',
        'status',
        'text_requirement',
        'files_requirement',
        'created_at',
        'updated_at',
        'steps',
        'branch',
        'total_price'
      ].sort()
    )
    expect(t.status).toBe('completed')
    expect(t.steps.length).toBeGreaterThan(5)
    const steps = (await api('GET', `/tasks/${t.id}/steps`)).json()
    expect(steps).toEqual(t.steps)
    const both = (await api('GET', `/tasks/${t.id}/steps-and-usages`)).json() as {
      steps: unknown[]
      usages: { task_id: string; final_price: number }[]
    }
    expect(Object.keys(both).sort()).toEqual(['steps', 'usages'])
    expect(both.steps).toEqual(t.steps)
    expect(both.usages.length).toBeGreaterThanOrEqual(t.steps.length)
    expect(both.usages.every((u) => u.task_id === t.id)).toBe(true)
    const sum = both.usages.reduce((s, u) => s + u.final_price, 0)
    expect(Math.abs(sum - t.total_price)).toBeLessThan(1e-6)
  })
})

describe('POST /projects/{id}/publish', () => {
  it('publishes, is idempotent, refuses taken, bad and foreign hostnames', async () => {
    const a = service.control.createProject({ name: 'A' })
    const b = service.control.createProject({ name: 'B' })
    const publish = async (id: string, hostname: unknown) =>
      (await api('POST', `/projects/${id}/publish`, { body: { hostname } })).json()
    expect(await publish(a.id, 'my-shop.apps.agent-tray.test')).toEqual({
      status: 'success',
      message: ['Published to https://my-shop.apps.agent-tray.test']
    })
    expect(await publish(a.id, 'my-shop.apps.agent-tray.test')).toEqual({
      status: 'success',
      message: ['Published to https://my-shop.apps.agent-tray.test']
    })
    const taken = (await publish(b.id, 'my-shop.apps.agent-tray.test')) as { status: string; message: string[] }
    expect(taken.status).toBe('failed')
    expect(taken.message.join(' ')).toMatch(/taken/)
    for (const bad of [
      'my-shop.example.com',
      'My-Shop.apps.agent-tray.test',
      '-x.apps.agent-tray.test',
      'a.b.apps.agent-tray.test',
      'apps.agent-tray.test',
      ''
    ]) {
      const res = (await publish(b.id, bad)) as { status: string; message: string[] }
      expect(res.status, bad).toBe('failed')
      expect(res.message.length, bad).toBeGreaterThan(0)
    }
    // Moving A elsewhere frees its old sub-domain.
    expect(((await publish(a.id, 'shop2.apps.agent-tray.test')) as { status: string }).status).toBe('success')
    expect(((await publish(b.id, 'my-shop.apps.agent-tray.test')) as { status: string }).status).toBe('success')
  })

  it('answers 400 for a missing or non-string hostname', async () => {
    const p = service.control.createProject()
    expectError(await api('POST', `/projects/${p.id}/publish`, { body: {} }), 400, 'bad_request', 'hostname')
    expectError(
      await api('POST', `/projects/${p.id}/publish`, { body: { hostname: 42 } }),
      400,
      'bad_request',
      'hostname'
    )
    expectError(await api('POST', `/projects/${p.id}/publish`, { raw: 'nope' }), 400, 'bad_request', 'body')
  })

  it('uses the configured publishing domain', async () => {
    const other = await startReferenceService({ apiKey: KEY, manualClock: true, publishingDomain: 'pub.example.org' })
    try {
      const p = other.control.createProject()
      const ok = await call(other.url, 'POST', `/projects/${p.id}/publish`, {
        key: KEY,
        body: { hostname: 'x.pub.example.org' }
      })
      expect(ok.json()).toEqual({ status: 'success', message: ['Published to https://x.pub.example.org'] })
      const no = await call(other.url, 'POST', `/projects/${p.id}/publish`, {
        key: KEY,
        body: { hostname: 'x.apps.agent-tray.test' }
      })
      expect((no.json() as { status: string }).status).toBe('failed')
    } finally {
      await other.close()
    }
  })
})
