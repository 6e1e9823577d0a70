// The GitHub client's edges over a loopback server: the words of what it cannot read or will not send, which answers
// count as answers, that each page is paced on its own, and that a closed client sends nothing.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { GET_TASK } from '../../../reference-service/github/docs-examples'
import { failure } from '../../client/test-failure'
import type { DroppedRecord } from '../records'
import { json, startTestServer, type TestServer } from '../test-server'
import { createGithubClient, type GithubClient } from './client'

const ACCOUNT = 'rules'
let server: TestServer
let client: GithubClient
let clock: number
let dropped: DroppedRecord[]

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())
beforeEach(() => {
  clock = 1_700_000_000_000
  dropped = []
  server.received.length = 0
  client = createGithubClient({
    token: 'github_pat_11TEST0rules',
    account: ACCOUNT,
    baseUrl: server.url,
    now: () => clock,
    onDropped: (d) => dropped.push(d)
  })
})
afterEach(() => client.close())

describe('words', () => {
  it('what it cannot read is named: a list of agent tasks, an agent task', async () => {
    server.handle((_req, res) => json(res, 200, 'nope'))
    expect((await failure(client.listTasks())).message).toContain('where a list of agent tasks was expected')
    expect((await failure(client.getTask('t'))).message).toContain('where an agent task was expected')
    server.handle((_req, res) => json(res, 200, { tasks: 'many' }))
    expect((await failure(client.listTasks())).message).toBe(
      'The service sent a list of tasks we cannot read ("tasks" is not a list).'
    )
    server.handle((_req, res) => json(res, 200, [1]))
    expect((await failure(client.getTask('t'))).message).toMatch(/^The service sent an agent task we cannot read/)
  })

  it('a task without sessions has no steps, and nothing is dropped', async () => {
    const { sessions: _, ...bare } = GET_TASK
    server.handle((_req, res) => json(res, 200, bare))
    expect((await client.getTask('t')).steps).toEqual([])
    expect(dropped).toEqual([])
  })

  it('a dropped task or session is reported as such', async () => {
    server.handle((req, res) =>
      req.url.startsWith('/agents/tasks?')
        ? json(res, 200, { tasks: [{ state: 'queued' }] })
        : json(res, 200, { ...GET_TASK, sessions: [{ state: 'completed' }] })
    )
    await client.listTasks()
    await client.getTask('t')
    expect(dropped.map((d) => [d.resource, d.path])).toEqual([
      ['task', 'tasks[0].id'],
      ['session', 'sessions[0].id']
    ])
  })

  it('names what is missing from a path, and the service when the token is blank', async () => {
    expect((await failure(client.listTasks({ repository: { owner: '', repo: 'r' } }))).message).toBe(
      'A repository owner is required and cannot be "".'
    )
    expect((await failure(client.listTasks({ repository: { owner: 'o', repo: '..' } }))).message).toBe(
      'A repository name is required and cannot be "..".'
    )
    expect((await failure(client.getTask('.'))).message).toBe('A task id is required and cannot be ".".')
    const blank = createGithubClient({ token: ' ', account: ACCOUNT, baseUrl: server.url })
    try {
      expect((await failure(blank.listTasks())).message).toBe('No GitHub key is set: add one.')
    } finally {
      await blank.close()
    }
    expect(server.received).toHaveLength(0)
  })

  it('a poll asked too early says how long GitHub asked to wait', async () => {
    server.handle((_req, res) => json(res, 200, { tasks: [] }, { 'x-poll-interval': '60' }))
    await client.listTasks()
    clock += 500
    expect((await failure(client.listTasks())).message).toBe(
      `Not asking GitHub yet for account "${ACCOUNT}": it asked for 60 s more between requests.`
    )
  })
})

describe('answers', () => {
  it('a 300 is not an answer to read', async () => {
    server.handle((_req, res) => json(res, 300, { tasks: [] }))
    const e = await failure(client.listTasks())
    expect([e.kind, e.status]).toEqual(['bad_request', 300])
  })

  it("an error's poll interval is kept; a limit's is not (the limit decides)", async () => {
    server.handle((_req, res) => json(res, 500, { message: 'boom' }, { 'x-poll-interval': '60' }))
    await failure(client.listTasks())
    expect(client.pacer.waitMs('/agents/tasks')).toBe(60_000)
    clock += 60_000
    server.handle((_req, res) => json(res, 429, { message: 'slow' }, { 'x-poll-interval': '600', 'retry-after': '5' }))
    await failure(client.listTasks())
    expect(client.pacer.waitMs('/agents/tasks')).toBe(5_000)
  })

  it("every page is paced on its own key: one page's poll interval never holds the next", async () => {
    server.handle((req, res) => {
      const n = Number(new URL(req.url, server.url).searchParams.get('page') ?? '1')
      const next: Record<string, string> =
        n < 3 ? { link: `<${server.url}/agents/tasks?page=${n + 1}>; rel="next"` } : {}
      json(res, 200, { tasks: [{ id: `t${n}` }] }, { 'x-poll-interval': '60', ...next })
    })
    const list = await client.listTasks()
    expect(list.changed && list.tasks.map((t) => t.id)).toEqual(['t1', 't2', 't3'])
  })

  it('a closed client sends nothing more', async () => {
    await client.close()
    expect((await failure(client.listTasks())).kind).toBe('network')
    expect(server.received).toHaveLength(0)
  })
})
