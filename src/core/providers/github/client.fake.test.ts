// The GitHub adapter, opened as the app opens an account (registry.ts), against the reference service's GitHub fake over
// real HTTP: every state the documentation lists, waiting for the user on the clock, Link paging, a 304 that says
// nothing moved, the poll interval as a floor, and the words of a token without the permission.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type AgentFake, startAgentFake } from '../../../reference-service'
import { failure } from '../../client/test-failure'
import { type AgentAccount, type AgentPoll, openAgentAccount } from '../registry'
import { GITHUB_STATES, GITHUB_STATUS } from './mapping'

const KEY = 'github_pat_11FAKE0token0for0the0fake'
let fake: AgentFake
let account: AgentAccount

beforeEach(async () => {
  // Two a page, so three tasks take the adapter through Link paging.
  fake = await startAgentFake('github', { apiKey: KEY, manualClock: true, maxPageSize: 2 })
  account = openAgentAccount('github', {
    key: KEY,
    account: 'octocat',
    baseUrl: fake.baseUrl,
    // The fake's clock: X-Poll-Interval and the rate limit's reset are read on it.
    now: () => Date.parse(fake.control.now())
  })
})
afterEach(async () => {
  await account.close()
  await fake.close()
})

/** The next poll once the poll interval allows it. */
async function poll(): Promise<AgentPoll> {
  fake.control.advance(account.waitMs())
  return account.poll()
}

const tasksOf = (p: AgentPoll) => {
  if (!p.changed) throw new Error('expected a changed list')
  return p.tasks
}

describe('the GitHub adapter against the GitHub fake', () => {
  it('reads every documented state as its status, with the service word kept, over several pages', async () => {
    const ids = ['One', 'Two', 'Three'].map((title) => fake.control.addTask({ title, script: 'queue' }).id)
    const target = ids[1] as string
    for (const state of GITHUB_STATES) {
      fake.control.setTaskState(target, state)
      const tasks = tasksOf(await poll())
      expect(tasks.map((t) => t.id).sort()).toEqual([...ids].sort())
      const task = tasks.find((t) => t.id === target)
      expect({ status: task?.status, serviceStatus: task?.serviceStatus }).toEqual({
        status: GITHUB_STATUS[state],
        serviceStatus: state
      })
    }
  })

  it('a task that comes to wait for the user on the clock is waiting, answered on its page; its session is a step', async () => {
    const { id } = fake.control.addTask({
      title: 'Fix the login button',
      repository: 'octocat/hello-world',
      script: 'wait'
    })
    expect(tasksOf(await poll())[0]?.status).toBe('queued')
    fake.control.advance(60_000)
    const [task] = tasksOf(await poll())
    expect(task?.status).toBe('waiting')
    expect(task?.waiting).toEqual({
      kind: 'question',
      text: null,
      where: `https://github.com/octocat/hello-world/copilot/tasks/${id}`
    })
    expect(task?.project).toEqual({ id: expect.any(String), name: 'octocat/hello-world' })
    const detail = await account.task(id)
    expect(detail.steps?.map((s) => s.serviceStatus)).toEqual(['waiting_for_user'])
    expect(detail.costs).toEqual([{ amount: 1, unit: 'premium requests' }])
  })

  it('an unchanged list is a 304 (changed: false), and nothing is asked before X-Poll-Interval allows', async () => {
    fake.control.addTask({ title: 'Still queued', script: 'queue' })
    expect((await poll()).changed).toBe(true)
    expect(account.waitMs()).toBeGreaterThan(0)
    await expect(account.poll()).rejects.toMatchObject({ kind: 'rate_limited' })
    expect(await poll()).toEqual({ changed: false })
    fake.control.setTaskState(fake.control.tasks()[0]!.id, 'in_progress')
    expect(tasksOf(await poll())[0]?.status).toBe('running')
  })

  it('a token without the permission is told which permission it lacks', async () => {
    const limited = 'github_pat_11LIMITED0token'
    fake.control.addLimitedKey(limited)
    const other = openAgentAccount('github', { key: limited, account: 'octocat', baseUrl: fake.baseUrl })
    try {
      const e = await failure(other.checkKey())
      expect(e.message).toContain('(HTTP 403): it lacks the "Agent tasks" (read) permission')
    } finally {
      await other.close()
    }
  })
})
