// The client's own decisions, with the exchange (http.ts) stood in for: what each call asks for,
// the options it falls back to, how it reads each status, and the words of its refusals. The
// same calls over real sockets are in client.test.ts and client.http.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  createServiceClient,
  DEFAULT_MAX_RESPONSE_BYTES,
  type ServiceClient,
  type ServiceClientOptions,
  USER_AGENT
} from './client'
import type * as http from './http'
import { ACCEPT_ENCODING, type Exchange, exchange, type RawResponse } from './http'
import { ServiceError } from './service-error'
import { failure } from './test-failure'

vi.mock('./http', async (original) => ({ ...(await original<typeof http>()), exchange: vi.fn() }))

const KEY = 'key-5d0c2e9a7b13f864'
const PROJECT = { id: 'p1', name: 'Shop' }
const exchanged = vi.mocked(exchange)
const asked = (n = 0): Exchange => exchanged.mock.calls[n]![1]

type Reply = Partial<RawResponse> | Error
/** Answers the exchanges in turn: a status and a JSON body (or text), or a failure. */
function replies(...list: Reply[]): void {
  for (const r of list) {
    exchanged.mockImplementationOnce(async () => {
      if (r instanceof Error) throw r
      return { status: 200, headers: {}, text: JSON.stringify(PROJECT), bytes: 10, ...r }
    })
  }
}
const json = (status: number, body: unknown, headers: RawResponse['headers'] = {}): Partial<RawResponse> => ({
  status,
  text: JSON.stringify(body),
  headers
})

const clients: ServiceClient[] = []
function client(extra: Partial<ServiceClientOptions> = {}): ServiceClient & { waits: number[] } {
  const waits: number[] = []
  const c = createServiceClient({
    baseUrl: 'https://svc.test/api',
    apiKey: KEY,
    random: () => 0.5,
    sleep: async (ms) => void waits.push(ms),
    ...extra
  })
  clients.push(c)
  return Object.assign(c, { waits })
}

beforeEach(() => {
  exchanged.mockReset()
})
afterEach(async () => {
  vi.restoreAllMocks()
  while (clients.length) await clients.pop()?.close()
})

describe('what a call asks for', () => {
  it('the key (trimmed), JSON, the codings it reads and its name; a body only with its content type', async () => {
    replies({}, {})
    const c = client({ apiKey: `  ${KEY}\n` })
    await c.getProject('p1')
    expect(asked()).toMatchObject({ method: 'GET', path: '/api/projects/p1', maxBytes: DEFAULT_MAX_RESPONSE_BYTES })
    expect(asked().headers).toEqual({
      'x-api-key': KEY,
      accept: 'application/json',
      'accept-encoding': ACCEPT_ENCODING,
      'user-agent': USER_AGENT
    })
    expect(asked().body).toBeUndefined()
    expect(asked().signal).toBeUndefined()
    await c.updateProject('p1', { name: 'Shop 2', description: undefined })
    expect(asked(1)).toMatchObject({ method: 'PATCH', body: '{"name":"Shop 2"}' })
    expect(asked(1).headers['content-type']).toBe('application/json')
  })

  it("passes the caller's signal on", async () => {
    replies({})
    const signal = new AbortController().signal
    await client().getProject('p1', signal)
    expect(asked().signal).toBe(signal)
  })

  it('timeouts, the size cap and the retry policy as given; a value that is not a positive number falls back to the default', async () => {
    replies({}, {})
    await client({
      timeouts: { connectMs: 1_500, headersMs: 2_500, bodyMs: 3_500 },
      maxResponseBytes: 4_096
    }).getProject('p1')
    expect(asked()).toMatchObject({ connectMs: 1_500, headersMs: 2_500, bodyMs: 3_500, maxBytes: 4_096 })
    await client({
      timeouts: { connectMs: 0, headersMs: -1, bodyMs: Number.NaN },
      maxResponseBytes: Number.POSITIVE_INFINITY
    }).getProject('p1')
    expect(asked(1)).toMatchObject({
      connectMs: 5_000,
      headersMs: 10_000,
      bodyMs: 30_000,
      maxBytes: DEFAULT_MAX_RESPONSE_BYTES
    })
  })

  it('retries a GET as many times as told (whole tries only), waiting the backoff of the given base and cap', async () => {
    const busy = json(503, { error: 'busy' })
    replies(busy, busy, busy)
    const c = client({ retry: { retries: 2.9, baseDelayMs: 100, maxDelayMs: 150 } })
    expect(await failure(c.getProject('p1'))).toMatchObject({ status: 503 })
    expect(exchanged).toHaveBeenCalledTimes(3)
    // Half of 100, then half of 200 capped at 150.
    expect(c.waits).toEqual([50, 75])
    exchanged.mockReset()
    replies(busy, busy)
    const none = client({ retry: { retries: -1, baseDelayMs: 0, maxDelayMs: -5 } })
    await failure(none.getProject('p1'))
    expect(exchanged).toHaveBeenCalledTimes(1)
    exchanged.mockReset()
    replies(busy, {})
    const defaults = client({ retry: { baseDelayMs: 0, maxDelayMs: -5 } })
    await defaults.getProject('p1')
    expect(defaults.waits).toEqual([250])
  })

  it('a wait asked for past the cap is not waited: the error comes back at once', async () => {
    replies(json(429, { error: 'slow down' }, { 'retry-after': '60' }))
    const c = client({ retry: { maxDelayMs: 1_000 } })
    expect(await failure(c.getProject('p1'))).toMatchObject({ kind: 'rate_limited', retryAfterMs: 60_000 })
    expect(c.waits).toEqual([])
  })

  it('a failure to talk is retried; an unreadable answer is not', async () => {
    replies(new ServiceError('network', 'down'), {})
    const c = client()
    expect(await c.getProject('p1')).toMatchObject(PROJECT)
    expect(c.waits).toHaveLength(1)
    replies(new ServiceError('invalid_response', 'garbled'))
    expect(await failure(c.getProject('p1'))).toMatchObject({ kind: 'invalid_response', message: 'garbled' })
    replies(new TypeError('a bug'))
    await expect(c.getProject('p1')).rejects.toThrow(TypeError)
  })
})

describe('how an answer is read', () => {
  it('any 2xx is an answer; a 1xx or 3xx is an error', async () => {
    replies({ status: 299 }, json(300, { error: 'moved' }), json(199, { error: 'early' }))
    const c = client({ retry: { retries: 0 } })
    expect(await c.getProject('p1')).toMatchObject(PROJECT)
    expect(await failure(c.getProject('p1'))).toMatchObject({ status: 300 })
    expect(await failure(c.getProject('p1'))).toMatchObject({ status: 199 })
  })

  it('a 304 is "unchanged" only for a conditional list; an unconditional one asks without If-None-Match', async () => {
    replies({ status: 304, text: '' }, { text: '[]', headers: { etag: '"v2"' } })
    const c = client({ retry: { retries: 0 } })
    expect(await c.listTasksIfChanged('p1', '"v1"')).toEqual({ changed: false })
    expect(asked().headers['if-none-match']).toBe('"v1"')
    expect(await c.listTaskDigestsIfChanged('p1', null)).toEqual({ changed: true, tasks: [], etag: '"v2"' })
    expect(asked(1).headers).not.toHaveProperty('if-none-match')
    replies({ status: 304, text: '' })
    expect(await failure(c.getProject('p1'))).toMatchObject({ status: 304 })
  })

  it('keeps an ETag it can send back as it came, and no other', async () => {
    const etagOf = async (etag: string | undefined): Promise<string | null> => {
      replies({ text: '[]', headers: { etag } })
      const answer = await client().listTasksIfChanged('p1', null)
      return answer.changed ? answer.etag : 'unchanged'
    }
    expect(await etagOf('W/"abc"')).toBe('W/"abc"')
    expect(await etagOf('x')).toBe('x')
    expect(await etagOf('a b')).toBe('a b')
    expect(await etagOf(`"${'a'.repeat(1022)}"`)).toHaveLength(1024)
    for (const bad of [undefined, '', ' a', 'a ', 'a\tb', 'é', `"${'a'.repeat(1023)}"`])
      expect(await etagOf(bad), String(bad)).toBeNull()
  })

  it('records that do not parse are told to onInvalidRecord; a listener that throws costs nothing', async () => {
    replies({ text: JSON.stringify([{ id: 't1', status: 'todo' }, 'not a task']) })
    const c = client({
      onInvalidRecord: () => {
        throw new Error('listener failed')
      }
    })
    expect((await c.listTasks('p1')).map((t) => t.id)).toEqual(['t1'])
  })

  it('an answer that is not JSON, or not the record, is invalid_response, and never quotes the key', async () => {
    replies({ text: `oops ${KEY}` }, { text: JSON.stringify([KEY]) })
    const c = client()
    const notJson = await failure(c.getProject('p1'))
    expect(notJson.kind).toBe('invalid_response')
    expect(notJson.message).toContain('[api key]')
    expect(notJson.message).not.toContain(KEY)
    const notRecord = await failure(c.getProject('p1'))
    expect(notRecord.kind).toBe('invalid_response')
    expect(JSON.stringify({ m: notRecord.message, d: notRecord.details, s: notRecord.stack })).not.toContain(KEY)
  })

  it('an error that echoes the key is told with it redacted, keeping its status, wait and details; one that does not is kept as it is', async () => {
    replies(json(429, { error: `key ${KEY} is over its quota` }, { 'retry-after': '2' }))
    const c = client({ retry: { retries: 0 } })
    const e = await failure(c.getProject('p1'))
    expect(e).toMatchObject({ kind: 'rate_limited', status: 429, retryAfterMs: 2_000 })
    expect(e.message).toContain('key [api key] is over')
    expect(e.stack).not.toContain(KEY)
    const timeout = new ServiceError('network', `could not reach ${KEY}`, {
      details: { host: `h-${KEY}`, attempts: 2 } as never
    })
    replies(timeout)
    const scrubbed = await failure(c.getProject('p1'))
    expect(scrubbed).not.toBe(timeout)
    expect(scrubbed).toMatchObject({
      kind: 'network',
      message: 'could not reach [api key]',
      details: { host: 'h-[api key]', attempts: 2 }
    })
    expect(scrubbed).not.toHaveProperty('status', expect.anything())
    replies(new ServiceError('server', `echo ${KEY}`, { status: 502, retryAfterMs: 1_000 }))
    expect(await failure(c.getProject('p1'))).toMatchObject({
      message: 'echo [api key]',
      status: 502,
      retryAfterMs: 1_000
    })
    // The key in the message alone, or in the details alone, is redacted all the same.
    replies(
      new ServiceError('network', `echo ${KEY}`),
      new ServiceError('network', 'down', { details: { host: KEY } as never })
    )
    expect((await failure(c.getProject('p1'))).message).toBe('echo [api key]')
    expect((await failure(c.getProject('p1'))).details).toEqual({ host: '[api key]' })
    const plain = new ServiceError('network', 'down')
    replies(plain)
    expect(await failure(c.getProject('p1'))).toBe(plain)
  })
})

describe('refusals before any request', () => {
  it('a closed client, an empty key, a key that cannot travel in a header, an id that is empty or a dot segment', async () => {
    const c = client()
    await c.close()
    await c.close()
    expect(await failure(c.getProject('p1'))).toMatchObject({
      kind: 'network',
      message: 'The service client was closed.'
    })
    expect(await failure(client({ apiKey: '  ' }).getProject('p1'))).toMatchObject({
      kind: 'auth',
      message: 'No API key is set: add one.'
    })
    expect(await failure(client({ apiKey: 'a b' }).getProject('p1'))).toMatchObject({
      kind: 'auth',
      message: 'The API key contains characters that cannot be sent (spaces, line breaks or non-ASCII): check it.'
    })
    expect(await failure(client().getProject('..'))).toMatchObject({
      kind: 'bad_request',
      message: 'A project id is required and cannot be "..".'
    })
    expect(await failure(client().listSteps(''))).toMatchObject({
      kind: 'bad_request',
      message: 'A task id is required and cannot be "".'
    })
    expect(await failure(client().getStepsAndUsages('.'))).toMatchObject({
      message: 'A task id is required and cannot be ".".'
    })
    expect(exchanged).not.toHaveBeenCalled()
  })
})

describe('the endpoints outside the interface document', () => {
  it("a product's projects: asked by product and order; a 404 or 405 is unsupported, any other failure as it is", async () => {
    replies({ text: '[]' }, { text: '[]' })
    const c = client({ retry: { retries: 0 } })
    await c.listProductProjects('a b&c', 'asc')
    expect(asked().path).toBe('/api/projects?software_product_id=a%20b%26c&order_by=ASC')
    await c.listProductProjects('x', 'desc')
    expect(asked(1).path).toBe('/api/projects?software_product_id=x&order_by=DESC')
    for (const status of [404, 405]) {
      replies(json(status, { error: 'no' }))
      expect(await failure(c.listProductProjects('x', 'asc'))).toMatchObject({
        kind: 'unsupported',
        status,
        message:
          'This service cannot list the projects of a software product: add projects by their id, or by a link that holds it.'
      })
    }
    replies(json(403, { error: 'no' }))
    expect(await failure(c.listProductProjects('x', 'asc'))).toMatchObject({ kind: 'auth', status: 403 })
  })

  it('starting a task: a 405 is unsupported; a 404 asks for the project to tell a missing endpoint from a missing project', async () => {
    const c = client({ retry: { retries: 0 } })
    const input = { projectId: 'p1', name: 'Add login', textRequirement: 'A form' }
    const task = { id: 't1', status: 'todo' }
    replies({ status: 201, text: JSON.stringify(task) })
    expect(await c.createTask(input)).toMatchObject({ id: 't1' })
    expect(asked()).toMatchObject({ method: 'POST', path: '/api/tasks' })
    expect(JSON.parse(asked().body!)).toEqual({
      project_id: 'p1',
      name: 'Add login',
      text_requirement: 'A form',
      flow: 'new_task'
    })
    const unsupported = 'This service does not offer starting tasks from Agent Tray: start it in the agent interface.'
    replies(json(405, { error: 'no' }))
    expect(await failure(c.createTask(input))).toMatchObject({ kind: 'unsupported', status: 405, message: unsupported })
    replies(json(404, { error: 'no' }), {})
    expect(await failure(c.createTask(input))).toMatchObject({ kind: 'unsupported', status: 404, message: unsupported })
    expect(asked(3)).toMatchObject({ method: 'GET', path: '/api/projects/p1' })
    replies(json(404, { error: 'no' }), json(404, { error: 'no such project' }))
    expect(await failure(c.createTask(input))).toMatchObject({ kind: 'not_found', status: 404 })
    replies(json(400, { error: 'name' }))
    expect(await failure(c.createTask(input))).toMatchObject({ kind: 'bad_request', status: 400 })
    replies(new TypeError('a bug'))
    await expect(c.createTask(input)).rejects.toThrow(TypeError)
  })
})

describe('each endpoint', () => {
  // An empty answer names what was expected, and an id that cannot be a path segment names its kind.
  it('asks its own path and method, and says what it expected of an empty answer', async () => {
    const c = client({ retry: { retries: 0 } })
    const task = { projectId: 'p1', name: 'N', textRequirement: 'R' }
    const calls: Array<[string, () => Promise<unknown>, string, string]> = [
      ['POST /api/projects', () => c.createProject({ name: 'Shop' } as never), 'a project', ''],
      ['GET /api/projects/p1', () => c.getProject('p1'), 'a project', 'project'],
      ['PATCH /api/projects/p1', () => c.updateProject('p1', {}), 'a project', 'project'],
      ['GET /api/projects/p1/tasks', () => c.listTasks('p1'), 'a list of tasks', 'project'],
      ['GET /api/projects/p1/tasks', () => c.listTasksIfChanged('p1', null), 'a list of tasks', 'project'],
      ['GET /api/projects/p1/tasks', () => c.listTaskDigestsIfChanged('p1', null), 'a list of tasks', 'project'],
      ['POST /api/projects/p1/publish', () => c.publish('p1', 'shop.test'), 'a publish result', 'project'],
      ['GET /api/tasks/p1/steps', () => c.listSteps('p1'), 'a list of steps', 'task'],
      ['GET /api/tasks/p1/steps-and-usages', () => c.getStepsAndUsages('p1'), 'steps and usages', 'task'],
      [
        'GET /api/projects?software_product_id=p1&order_by=ASC',
        () => c.listProductProjects('p1', 'asc'),
        'a list of projects',
        ''
      ],
      ['POST /api/tasks', () => c.createTask(task), 'a task', 'project']
    ]
    for (const [request, call, what] of calls) {
      exchanged.mockReset()
      replies({ text: ' ' })
      expect(await failure(call()), request).toMatchObject({
        kind: 'invalid_response',
        message: `The service sent an empty body where ${what} was expected.`
      })
      expect(`${asked().method} ${asked().path}`).toBe(request)
    }
    const byId: Array<[() => Promise<unknown>, string]> = [
      [() => c.getProject('.'), 'project'],
      [() => c.updateProject('.', {}), 'project'],
      [() => c.listTasks('.'), 'project'],
      [() => c.listTasksIfChanged('.', null), 'project'],
      [() => c.publish('.', 'h'), 'project'],
      [() => c.listSteps('.'), 'task'],
      [() => c.getStepsAndUsages('.'), 'task'],
      [() => c.createTask({ ...task, projectId: '.' }), 'project']
    ]
    for (const [call, kind] of byId)
      expect(await failure(call())).toMatchObject({
        kind: 'bad_request',
        message: `A ${kind} id is required and cannot be ".".`
      })
  })

  it('a 404 to starting a task asks for its project, and a project that is not one names what was expected', async () => {
    const c = client({ retry: { retries: 0 } })
    replies(json(404, { error: 'no' }), { text: '' })
    expect(await failure(c.createTask({ projectId: 'p1', name: 'N', textRequirement: 'R' }))).toMatchObject({
      message: 'The service sent an empty body where a project was expected.'
    })
  })

  it("sends the update's fields that are set, and no others", async () => {
    replies({})
    await client().updateProject('p1', { name: 'N', description: undefined, user_email: 'a@b.test' })
    expect(JSON.parse(asked().body!)).toEqual({ name: 'N', user_email: 'a@b.test' })
  })
})

describe('what the client tells', () => {
  it('a refused base URL is a bad request; an id that is not text is refused, not sent', async () => {
    let thrown: unknown
    try {
      createServiceClient({ baseUrl: 'ftp://svc.test', apiKey: KEY })
    } catch (error) {
      thrown = error
    }
    expect(thrown).toMatchObject({ kind: 'bad_request' })
    expect(await failure(client().getProject(7 as never))).toMatchObject({
      kind: 'bad_request',
      message: 'A project id is required and cannot be "7".'
    })
    expect(exchanged).not.toHaveBeenCalled()
  })

  it('tells onInvalidRecord of each record dropped', async () => {
    replies({ text: JSON.stringify([{ id: 't1', status: 'todo' }, 'not a task']) })
    const issues: unknown[] = []
    await client({ onInvalidRecord: (issue) => issues.push(issue) }).listTasks('p1')
    expect(issues).toEqual([expect.objectContaining({ resource: 'task', index: 1 })])
  })

  it('checking the key reads only statuses: a body that is not JSON is no failure; a failure to talk is thrown, not a verdict', async () => {
    const c = client({ baseUrl: ' https://svc.test/api ', retry: { retries: 0 } })
    replies({ status: 200, text: 'not json' }, json(401, { error: 'no' }))
    expect(await c.checkKey()).toBe(true)
    replies(new ServiceError('network', 'down'))
    expect(await failure(c.checkKey())).toMatchObject({ kind: 'network', message: 'down' })
  })

  it("an answer the same for any key names the URL, trimmed, and the status, with the server's words only when it said some", async () => {
    const c = client({ baseUrl: ' https://svc.test/api ', retry: { retries: 0 } })
    replies(json(404, { error: 'no' }), json(404, { error: 'no' }))
    expect(await failure(c.checkKey())).toMatchObject({
      kind: 'not_found',
      message: 'Nothing at https://svc.test/api looks like the service: check the URL.'
    })
    replies({ status: 300, text: '' }, { status: 300, text: '' })
    expect(await failure(c.checkKey())).toMatchObject({
      kind: 'bad_request',
      status: 300,
      message:
        'The key could not be checked: https://svc.test/api answers HTTP 300 to any key for a project that cannot exist.'
    })
  })
})
