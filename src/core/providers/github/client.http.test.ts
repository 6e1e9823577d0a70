// The GitHub adapter over real HTTP against a loopback server: its headers, Link paging, ETags and 304s, the poll
// interval as a floor, primary and secondary limits, and the words of a 401 and a 403.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { GET_TASK, LIST_TASKS_FOR_REPO } from '../../../reference-service/github/docs-examples'
import { failure } from '../../client/test-failure'
import { json, startTestServer, type TestServer } from '../test-server'
import { createGithubClient, GITHUB_API_VERSION, type GithubClient } from './client'
import { REQUIRED_PERMISSION } from './mapping'

const TOKEN = 'github_pat_11TEST0token0for0loopback'
const ACCOUNT = 'octocat at work'
const TASK = LIST_TASKS_FOR_REPO.tasks[0] as Record<string, unknown>

let server: TestServer
let client: GithubClient
let clock: number

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())
beforeEach(() => {
  clock = 1_700_000_000_000
  server.received.length = 0
  client = createGithubClient({ token: TOKEN, account: ACCOUNT, baseUrl: server.url, now: () => clock })
})
afterEach(() => client.close())

const page = (ids: string[], extra: Record<string, unknown> = {}) => ({
  tasks: ids.map((id) => ({ ...TASK, id, ...extra })),
  total_active_count: ids.length
})

describe('requests', () => {
  it('sends the token as a bearer header with the API version, never in the URL, and follows Link to the last page', async () => {
    server.handle((req, res) => {
      if (req.url.includes('page=2'))
        return json(res, 200, page(['b']), { link: `<${server.url}/agents/tasks?page=3>; rel="next"` })
      if (req.url.includes('page=3')) return json(res, 200, page(['c']))
      json(res, 200, page(['a']), { link: `<${server.url}/agents/tasks?page=2&per_page=100>; rel="next"` })
    })
    const list = await client.listTasks()
    expect(list.changed && list.tasks.map((t) => t.id)).toEqual(['a', 'b', 'c'])
    expect(server.received.map((r) => r.url)).toEqual([
      '/agents/tasks?per_page=100',
      '/agents/tasks?page=2&per_page=100',
      '/agents/tasks?page=3'
    ])
    for (const r of server.received) {
      expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`)
      expect(r.headers['x-github-api-version']).toBe(GITHUB_API_VERSION)
      expect(r.headers.accept).toBe('application/vnd.github+json')
      expect(r.url).not.toContain(TOKEN)
    }
  })

  it('never follows a next page on another origin (the token would go there)', async () => {
    server.handle((_req, res) =>
      json(res, 200, page(['a']), { link: '<https://elsewhere.example/agents/tasks?page=2>; rel="next"' })
    )
    const list = await client.listTasks()
    expect(list.changed && list.tasks.map((t) => t.id)).toEqual(['a'])
    expect(server.received).toHaveLength(1)
  })

  it("a repository's tasks, its names encoded", async () => {
    server.handle((_req, res) => json(res, 200, LIST_TASKS_FOR_REPO))
    const list = await client.listTasks({ repository: { owner: 'octo cat', repo: 'hello/world' } })
    expect(server.received[0]?.url).toBe('/agents/repos/octo%20cat/hello%2Fworld/tasks?per_page=100')
    expect(list.changed && list.tasks[0]?.project).toEqual({ id: '1296269', name: 'octocat/hello-world' })
  })

  it('a task with its sessions', async () => {
    server.handle((_req, res) => json(res, 200, GET_TASK))
    const t = await client.getTask('a1b2c3d4-e5f6-7890-abcd-ef1234567890')
    expect(server.received[0]?.url).toBe('/agents/tasks/a1b2c3d4-e5f6-7890-abcd-ef1234567890')
    expect(t.steps?.map((s) => s.serviceStatus)).toEqual(['completed'])
  })
})

describe('etiquette', () => {
  it('asks again with If-None-Match; a 304 is "unchanged"', async () => {
    server.handle((req, res) => {
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304, { etag: '"v1"' })
        return res.end()
      }
      json(res, 200, page(['a']), { etag: '"v1"' })
    })
    expect((await client.listTasks()).changed).toBe(true)
    expect(await client.listTasks()).toEqual({ changed: false })
    expect(server.received.map((r) => r.headers['if-none-match'])).toEqual([undefined, '"v1"'])
  })

  it('X-Poll-Interval is a floor: an earlier poll is refused here, never sent', async () => {
    server.handle((_req, res) => json(res, 200, page(['a']), { 'x-poll-interval': '60' }))
    await client.listTasks()
    clock += 59_000
    const e = await failure(client.listTasks())
    expect(e.kind).toBe('rate_limited')
    expect(e.retryAfterMs).toBe(1_000)
    expect(server.received).toHaveLength(1)
    clock += 1_000
    await client.listTasks()
    expect(server.received).toHaveLength(2)
  })

  it('a secondary limit (403 with Retry-After) holds every request of the account for that long', async () => {
    server.handle((_req, res) =>
      json(res, 403, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '30' })
    )
    const e = await failure(client.listTasks())
    expect(e.kind).toBe('rate_limited')
    expect(e.retryAfterMs).toBe(30_000)
    expect(e.message).toBe(
      `GitHub asked Agent Tray to slow down for account "${ACCOUNT}" (HTTP 403, a secondary rate limit): asking again in 30 s. GitHub said: You have exceeded a secondary rate limit.`
    )
    clock += 29_000
    expect((await failure(client.getTask('x'))).kind).toBe('rate_limited')
    expect(server.received).toHaveLength(1)
  })

  it('a 429 without Retry-After waits a minute, then two', async () => {
    server.handle((_req, res) => json(res, 429, { message: 'slow down' }))
    expect((await failure(client.listTasks())).retryAfterMs).toBe(60_000)
    clock += 60_000
    expect((await failure(client.listTasks())).retryAfterMs).toBe(120_000)
  })

  it('the primary limit used up: nothing until x-ratelimit-reset', async () => {
    const reset = String(clock / 1000 + 600)
    server.handle((_req, res) =>
      json(
        res,
        403,
        { message: 'API rate limit exceeded' },
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }
      )
    )
    const e = await failure(client.listTasks())
    expect(e.retryAfterMs).toBe(600_000)
    expect(e.message).toContain(
      `GitHub's hourly request limit for account "${ACCOUNT}" is used up (HTTP 403): asking again in 10 min.`
    )
  })

  it('keeps the rate limit GitHub reports', async () => {
    server.handle((_req, res) =>
      json(res, 200, page(['a']), {
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '4990',
        'x-ratelimit-reset': '1700003600'
      })
    )
    await client.listTasks()
    expect(client.pacer.rateLimit()).toEqual({
      limit: 5000,
      remaining: 4990,
      resetAt: 1_700_003_600_000,
      resource: null
    })
  })
})

describe('errors', () => {
  it('a 401 names the account and the service', async () => {
    server.handle((_req, res) =>
      json(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' })
    )
    const e = await failure(client.listTasks())
    expect(e.kind).toBe('auth')
    expect(e.message).toBe(
      `GitHub rejected the token of GitHub account "${ACCOUNT}" (HTTP 401): it is wrong, expired or revoked. Sign in to GitHub again with a new token. GitHub said: Bad credentials`
    )
  })

  it('a 403 says which permission the token lacks', async () => {
    server.handle((_req, res) =>
      json(
        res,
        403,
        { message: 'Resource not accessible by personal access token' },
        { 'x-accepted-github-permissions': 'agent_tasks=read' }
      )
    )
    const e = await failure(client.listTasks())
    expect(e.kind).toBe('auth')
    expect(e.message).toBe(
      `GitHub refused the token of GitHub account "${ACCOUNT}" (HTTP 403): it lacks the "Agent tasks" (read) permission. Give the fine-grained token that permission, or make one that has it. GitHub said: Resource not accessible by personal access token`
    )
  })

  it('a 403 without the header names the documented permission', async () => {
    server.handle((_req, res) => json(res, 403, { message: 'Forbidden' }))
    expect((await failure(client.listTasks())).message).toContain(`it lacks the ${REQUIRED_PERMISSION} permission`)
  })

  it('a token the server echoes is never in the error', async () => {
    server.handle((_req, res) => json(res, 401, { message: `token ${TOKEN} is bad` }))
    const e = await failure(client.listTasks())
    expect(e.message).not.toContain(TOKEN)
    expect(e.message).toContain('token [api key] is bad')
  })

  it('garbage instead of JSON is invalid_response', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<html>\u001b[2J oops')
    })
    expect((await failure(client.listTasks())).kind).toBe('invalid_response')
  })

  it('a broken record is dropped and reported; an unknown state and a hostile title are kept as sent', async () => {
    const dropped: string[] = []
    const c = createGithubClient({
      token: TOKEN,
      account: ACCOUNT,
      baseUrl: server.url,
      onDropped: (i) => dropped.push(i.path)
    })
    const title = '\u001b]0;owned\u0007\u001b[31m<b>Fix</b>\u202e'
    server.handle((_req, res) =>
      json(res, 200, { tasks: [{ state: 'queued' }, { ...TASK, id: 'ok', name: title, state: 'parked' }] })
    )
    try {
      const list = await c.listTasks()
      expect(list.changed && list.tasks.map((t) => [t.title, t.status, t.serviceStatus])).toEqual([
        [title, 'unknown', 'parked']
      ])
      expect(dropped).toEqual(['tasks[0].id'])
    } finally {
      await c.close()
    }
  })
})
