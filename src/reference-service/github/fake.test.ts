// The GitHub fake over HTTP, as the documentation describes the service: its refusals, Link paging, conditional GETs
// (a 304 free against the limit), its headers, records shaped as the documentation's examples, the shared faults and
// the control routes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentFake } from '../agent-fake'
import { startAgentFake } from '../agent-fakes'
import { GET_TASK, LIST_TASKS_FOR_REPO } from './docs-examples'
import { GITHUB_FAKE_API_VERSION } from './fake'

const KEY = 'github_pat_11FAKE0test'
let fake: AgentFake

beforeEach(async () => {
  fake = await startAgentFake('github', { apiKey: KEY, manualClock: true, maxPageSize: 2 })
})
afterEach(() => fake.close())

const HEADERS = { authorization: `Bearer ${KEY}`, 'x-github-api-version': GITHUB_FAKE_API_VERSION }
const get = (path: string, headers: Record<string, string> = HEADERS) => fetch(`${fake.url}${path}`, { headers })
const control = (path: string, body?: unknown) =>
  fetch(`${fake.url}/__control/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${KEY}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

describe('the GitHub fake', () => {
  it('refuses a missing or wrong token (401), a token without the permission (403, naming it), and no API version (400)', async () => {
    fake.control.addLimitedKey('limited-token')
    const missing = await get('/agents/tasks', { 'x-github-api-version': GITHUB_FAKE_API_VERSION })
    expect([missing.status, ((await missing.json()) as { message: string }).message]).toEqual([
      401,
      'Requires authentication'
    ])
    const wrong = await get('/agents/tasks', { ...HEADERS, authorization: 'Bearer nope' })
    expect([wrong.status, ((await wrong.json()) as { message: string }).message]).toEqual([401, 'Bad credentials'])
    const limited = await get('/agents/tasks', { ...HEADERS, authorization: 'Bearer limited-token' })
    expect(limited.status).toBe(403)
    expect(limited.headers.get('x-accepted-github-permissions')).toBe('agent_tasks=read')
    expect((await get('/agents/tasks', { authorization: `Bearer ${KEY}` })).status).toBe(400)
  })

  it('pages by Link with per_page, and says the rate limit and the poll interval', async () => {
    for (const title of ['a', 'b', 'c']) fake.control.addTask({ title, repository: 'octocat/hello-world' })
    fake.control.addTask({ title: 'elsewhere', repository: 'octocat/other' })
    const first = await get('/agents/repos/octocat/hello-world/tasks?per_page=100')
    expect(((await first.json()) as { tasks: unknown[] }).tasks).toHaveLength(2)
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1]
    expect(next).toBe(`${fake.url}/agents/repos/octocat/hello-world/tasks?page=2&per_page=2`)
    const second = await get(new URL(next!).pathname + new URL(next!).search)
    expect(((await second.json()) as { tasks: unknown[] }).tasks).toHaveLength(1)
    expect(second.headers.get('link')).not.toContain('rel="next"')
    expect(first.headers.get('x-poll-interval')).toBe('5')
    expect(first.headers.get('x-ratelimit-limit')).toBe('5000')
    expect(second.headers.get('x-ratelimit-remaining')).toBe('4998')
  })

  it('answers an unchanged list 304 to its ETag, free against the limit, and 200 once a task moved', async () => {
    const { id } = fake.control.addTask({ title: 'a', script: 'queue' })
    const first = await get('/agents/tasks')
    const etag = first.headers.get('etag')!
    const again = await get('/agents/tasks', { ...HEADERS, 'if-none-match': etag })
    expect(again.status).toBe(304)
    expect(again.headers.get('x-ratelimit-remaining')).toBe(first.headers.get('x-ratelimit-remaining'))
    fake.control.setTaskState(id, 'in_progress')
    expect((await get('/agents/tasks', { ...HEADERS, 'if-none-match': etag })).status).toBe(200)
  })

  it("shapes a task as the documentation's examples, with its session, and keeps a hostile title as given", async () => {
    const title = 'Evil \u001b[31mred\u001b[0m \u202eelif\u202c <script>alert(1)</script>'
    const { id } = (await (
      await control('tasks', { title, repository: 'octocat/hello-world', script: 'complete' })
    ).json()) as { id: string }
    const listed = ((await (await get('/agents/tasks')).json()) as { tasks: Record<string, unknown>[] }).tasks[0]!
    expect(Object.keys(listed).sort()).toEqual(Object.keys(LIST_TASKS_FOR_REPO.tasks[0]!).sort())
    expect(listed.name).toBe(title)
    const one = (await (await get(`/agents/tasks/${id}`)).json()) as Record<string, unknown> & { sessions: object[] }
    expect(Object.keys(one).sort()).toEqual(Object.keys(GET_TASK).sort())
    expect(Object.keys(one.sessions[0]!)).toEqual(expect.arrayContaining(Object.keys(GET_TASK.sessions[0]!)))
    expect((await get('/agents/tasks/none')).status).toBe(404)
  })

  it('moves a scripted task through its states on the clock; a control route holds a task in a state', async () => {
    const { id } = fake.control.addTask({ script: 'complete' })
    const state = () => fake.control.tasks().find((t) => t.id === id)?.state
    expect(state()).toBe('queued')
    fake.control.advance(5_000)
    expect(state()).toBe('in_progress')
    fake.control.advance(60_000)
    expect(state()).toBe('completed')
    expect((await control(`tasks/${id}/state`, { state: 'waiting_for_user' })).status).toBe(200)
    expect(state()).toBe('waiting_for_user')
    expect((await control(`tasks/${id}/state`, { state: 'asleep' })).status).toBe(400)
  })

  it("takes the shared faults through the same control route: a 429 with Retry-After in GitHub's body", async () => {
    expect((await control('faults', { rules: [{ kind: 'rate_limit', retryAfterSeconds: 7, times: 1 }] })).status).toBe(
      200
    )
    const limited = await get('/agents/tasks')
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('7')
    expect(await limited.json()).toMatchObject({ message: expect.any(String), documentation_url: expect.any(String) })
    expect((await get('/agents/tasks')).status).toBe(200)
  })

  it('seeds a demo that visits every state on the clock, one task waiting for the user from the start', () => {
    fake.control.seedDemo()
    expect(fake.control.tasks().map((t) => t.state)).toContain('waiting_for_user')
    const seen = new Set<string>()
    for (let i = 0; i < 20; i++) {
      for (const t of fake.control.tasks()) seen.add(t.state)
      fake.control.advance(5_000)
    }
    expect([...seen].sort()).toEqual(
      ['cancelled', 'completed', 'failed', 'idle', 'in_progress', 'queued', 'timed_out', 'waiting_for_user'].sort()
    )
  })
})
