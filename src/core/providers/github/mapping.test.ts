// The GitHub adapter's words: its status table in full, what waits for you, cost units, paging links, and the
// documentation's own example bodies read as every surface will read them.
import { describe, expect, it } from 'vitest'
import {
  GET_TASK,
  LIST_TASKS,
  LIST_TASKS_FOR_REPO,
  LIST_TASKS_LINK
} from '../../../reference-service/github/docs-examples'
import { statusFrom } from '../../../shared/provider'
import { readList, readOne } from '../records'
import { parseLink } from './client'
import { acceptedPermissions } from './errors'
import { refusalOf, SECONDARY_MAX_WAIT_MS, SECONDARY_MIN_WAIT_MS } from './etiquette'
import { costsOf, GITHUB_STATES, GITHUB_STATUS, repositoryName, toProviderTask } from './mapping'
import { sessionSchema, taskSchema } from './schemas'

const task = (raw: unknown) => {
  const { rawSessions, ...t } = readOne(raw, taskSchema, 'a task')
  const sessions = rawSessions ? readList({ s: rawSessions }, 's', sessionSchema, 'session', () => {}) : undefined
  return toProviderTask({ ...t, ...(sessions ? { sessions } : {}) })
}

describe('status table', () => {
  it('maps every state the documentation lists, and only those', () => {
    expect(Object.keys(GITHUB_STATUS).sort()).toEqual([...GITHUB_STATES].sort())
    expect(GITHUB_STATUS).toEqual({
      queued: 'queued',
      in_progress: 'running',
      completed: 'completed',
      failed: 'failed',
      idle: 'completed',
      waiting_for_user: 'waiting',
      timed_out: 'failed',
      cancelled: 'cancelled'
    })
  })

  it.each(GITHUB_STATES)('%s keeps its word beside the status', (word) => {
    expect(statusFrom(GITHUB_STATUS, word)).toEqual({ status: GITHUB_STATUS[word], serviceStatus: word })
  })

  it.each([['paused_by_admin'], ['IN_PROGRESS'], ['toString'], ['__proto__'], ['']])(
    'an unknown word (%j) is unknown, the word kept',
    (word) => {
      expect(statusFrom(GITHUB_STATUS, word)).toEqual({ status: 'unknown', serviceStatus: word })
    }
  )

  it('a missing or odd state is unknown too', () => {
    expect(statusFrom(GITHUB_STATUS, undefined)).toEqual({ status: 'unknown', serviceStatus: '' })
    expect(statusFrom(GITHUB_STATUS, 7)).toEqual({ status: 'unknown', serviceStatus: '7' })
  })
})

describe("the documentation's example bodies", () => {
  it('a repository task list', () => {
    const [t] = readList(LIST_TASKS_FOR_REPO, 'tasks', taskSchema, 'task', () => {}).map(toProviderTask)
    expect(t).toEqual({
      id: 'a1b2c3d4-e5f6-7890-abcd-ef1234567890',
      title: 'Fix the login button on the homepage',
      status: 'completed',
      serviceStatus: 'completed',
      waiting: null,
      links: {
        page: 'https://github.com/octocat/hello-world/copilot/tasks/a1b2c3d4-e5f6-7890-abcd-ef1234567890',
        pullRequests: [{ id: '42', url: null, title: null }],
        preview: null
      },
      project: { id: '1296269', name: 'octocat/hello-world' },
      createdAt: '2025-01-01T00:00:00Z',
      updatedAt: '2025-01-01T01:00:00Z',
      costs: []
    })
  })

  it("the user's task list, which has no page address: the repository by its id", () => {
    const [t] = readList(LIST_TASKS, 'tasks', taskSchema, 'task', () => {}).map(toProviderTask)
    expect(t?.links.page).toBeNull()
    expect(t?.project).toEqual({ id: '1296269', name: 'repository 1296269' })
    expect(t?.steps).toBeUndefined()
  })

  it('a task with its sessions, as steps', () => {
    const t = task(GET_TASK)
    expect(t.steps).toEqual([
      {
        id: 's1a2b3c4-d5e6-7890-abcd-ef1234567890',
        kind: 'session',
        title: 'Fix the login button on the homepage',
        detail: null,
        at: '2025-01-01T00:00:00Z',
        status: 'completed',
        serviceStatus: 'completed'
      }
    ])
    expect(t.costs).toEqual([])
  })

  it("the Link header's next page", () => {
    expect(parseLink(LIST_TASKS_LINK)).toEqual({
      next: 'https://api.github.com/agents/tasks?page=2&per_page=30',
      first: 'https://api.github.com/agents/tasks?page=1&per_page=30'
    })
  })
})

describe('waiting for you', () => {
  it('waiting_for_user waits, answered on the task page; GitHub does not say what is asked', () => {
    const t = task({ ...LIST_TASKS_FOR_REPO.tasks[0], state: 'waiting_for_user' })
    expect(t.status).toBe('waiting')
    expect(t.waiting).toEqual({ kind: 'question', text: null, where: LIST_TASKS_FOR_REPO.tasks[0]?.html_url })
  })

  it.each(GITHUB_STATES.filter((s) => s !== 'waiting_for_user'))('%s does not wait', (state) => {
    expect(task({ ...GET_TASK, state }).waiting).toBeNull()
  })
})

describe('cost', () => {
  it('AI credits are nano units, summed before dividing', () => {
    expect(
      costsOf([
        { type: 'ai_credits', amount: 1_500_000_000 },
        { type: 'ai_credits', amount: 250_000_001 }
      ])
    ).toEqual([{ amount: 1.750000001, unit: 'AI credits' }])
  })

  it('premium requests may be fractional; each unit is its own entry; an unknown unit keeps its word', () => {
    expect(
      costsOf([
        { type: 'premium_requests', amount: 1.5 },
        { type: 'ai_credits', amount: 2e9 },
        { type: 'premium_requests', amount: 1 },
        { type: 'minutes', amount: 3 }
      ])
    ).toEqual([
      { amount: 2.5, unit: 'premium requests' },
      { amount: 2, unit: 'AI credits' },
      { amount: 3, unit: 'minutes' }
    ])
  })

  it("a task's cost is its sessions' usage; a usage without a number is skipped", () => {
    const sessions = [
      { id: 'a', state: 'completed', usage: { type: 'premium_requests', amount: 1 } },
      { id: 'b', state: 'completed', usage: { type: 'premium_requests', amount: 'lots' } },
      { id: 'c', state: 'in_progress', usage: { type: 'premium_requests', amount: 0.5 } }
    ]
    expect(task({ ...GET_TASK, sessions }).costs).toEqual([{ amount: 1.5, unit: 'premium requests' }])
  })
})

describe('untrusted text', () => {
  it('a title with escape sequences and markup is kept exactly as sent', () => {
    const name = '\u001b[31mred\u001b[0m <img src=x onerror=alert(1)> \u0007\r\nnext'
    expect(task({ ...GET_TASK, name }).title).toBe(name)
  })

  it('a record without an id fails alone', () => {
    const dropped: string[] = []
    const tasks = readList({ tasks: [{ name: 'no id' }, LIST_TASKS.tasks[0]] }, 'tasks', taskSchema, 'task', (i) =>
      dropped.push(i.path)
    )
    expect(tasks.map((t) => t.id)).toEqual(['a1b2c3d4-e5f6-7890-abcd-ef1234567890'])
    expect(dropped).toEqual(['tasks[0].id'])
  })

  it('a repository name comes only from the page path', () => {
    expect(repositoryName('https://github.com/o%20x/r/copilot/tasks/1')).toBe('o x/r')
    expect(repositoryName('not a url')).toBeNull()
    expect(repositoryName('https://github.com/')).toBeNull()
  })
})

describe('refusals', () => {
  const now = 1_700_000_000_000
  it('403 or 429 with Retry-After is a secondary limit for that long', () => {
    expect(refusalOf(403, { 'retry-after': '30' }, '', now)).toEqual({ kind: 'secondary', waitMs: 30_000 })
    expect(refusalOf(429, { 'retry-after': '5' }, '', now)).toEqual({ kind: 'secondary', waitMs: 5_000 })
    // A Retry-After of 0 is not a busy loop.
    expect(refusalOf(429, { 'retry-after': '0' }, '', now)).toEqual({ kind: 'secondary', waitMs: 1_000 })
  })

  it('a secondary limit without Retry-After waits a minute, doubling while it repeats, capped', () => {
    expect(refusalOf(429, {}, '', now)).toEqual({ kind: 'secondary', waitMs: SECONDARY_MIN_WAIT_MS })
    expect(refusalOf(403, {}, 'You have exceeded a secondary rate limit', now, 2)).toEqual({
      kind: 'secondary',
      waitMs: 4 * SECONDARY_MIN_WAIT_MS
    })
    expect(refusalOf(429, {}, '', now, 40)).toEqual({ kind: 'secondary', waitMs: SECONDARY_MAX_WAIT_MS })
  })

  it('the primary limit used up waits until its reset', () => {
    const headers = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(now / 1000 + 120) }
    expect(refusalOf(403, headers, 'API rate limit exceeded', now)).toEqual({ kind: 'primary', waitMs: 120_000 })
  })

  it('any other 403 is a permission; other statuses are not refusals', () => {
    expect(refusalOf(403, { 'x-ratelimit-remaining': '4999' }, 'Resource not accessible', now)).toEqual({
      kind: 'permission'
    })
    expect(refusalOf(401, {}, '', now)).toBeNull()
    expect(refusalOf(500, { 'retry-after': '1' }, '', now)).toBeNull()
  })

  it('the permission a token lacks, in the words of its settings', () => {
    expect(acceptedPermissions('agent_tasks=read')).toBe('"Agent tasks" (read)')
    expect(acceptedPermissions('repository_projects=write; organization_projects=admin')).toBe(
      '"Repository projects" (write) or "Organization projects" (admin)'
    )
    expect(acceptedPermissions('contents=read, agent_tasks=read')).toBe('"Contents" (read) and "Agent tasks" (read)')
    expect(acceptedPermissions('')).toBeNull()
    expect(acceptedPermissions(undefined)).toBeNull()
  })
})
