// The Cursor adapter, opened as the app opens an account (registry.ts), against the reference service's Cursor fake
// over real HTTP: the key as the Basic user, limit/cursor paging, every run status on the clock, a follow-up refused
// with 409 agent_busy in words that say the agent is still running, and the words of a key Cursor does not know.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type CursorFake, startCursorFake } from '../../../reference-service/cursor/fake'
import { type AgentAccount, type AgentPoll, openAgentAccount } from '../registry'
import { createCursorClient } from './client'
import { CURSOR_STATUS } from './mapping'

const KEY = 'key_cursor_fake_0123456789abcdef'
let fake: CursorFake
let account: AgentAccount

beforeEach(async () => {
  // Two a page, so a few agents take the adapter through cursor paging.
  fake = await startCursorFake({ apiKey: KEY, manualClock: true, maxPageSize: 2 })
  account = openAgentAccount('cursor', { key: KEY, account: 'me at work', baseUrl: fake.baseUrl })
})
afterEach(async () => {
  await account.close()
  await fake.close()
})

const tasksOf = (p: AgentPoll) => {
  if (!p.changed) throw new Error('expected a changed list')
  return p.tasks
}

describe('the Cursor adapter against the Cursor fake', () => {
  it('reads every agent over several pages, each with its latest run status, through a whole run on the clock', async () => {
    const ids = ['One', 'Two', 'Three', 'Four', 'Five'].map((title) => fake.control.addTask({ title }).id)
    const first = tasksOf(await account.poll())
    expect(first.map((t) => t.id).sort()).toEqual([...ids].sort())
    expect(first.every((t) => t.status === 'queued' && t.serviceStatus === 'CREATING')).toBe(true)
    fake.control.advance(2_000)
    expect(tasksOf(await account.poll()).every((t) => t.status === 'running')).toBe(true)
    fake.control.advance(30_000)
    const done = tasksOf(await account.poll()).find((t) => t.id === ids[0])
    expect(done).toMatchObject({ status: 'completed', serviceStatus: 'FINISHED', waiting: null })
    expect(done?.links.pullRequests[0]?.url).toMatch(/^https:\/\/github\.com\/myorg\/myrepo\/pull\/\d+$/)
    expect(done?.project?.name).toBe('myorg/myrepo')
  })

  it('maps every run status the fake can hold', async () => {
    const { id } = fake.control.addTask({ title: 'Held', script: 'run-forever' })
    for (const state of Object.keys(CURSOR_STATUS) as (keyof typeof CURSOR_STATUS)[]) {
      fake.control.setTaskState(id, state)
      const task = tasksOf(await account.poll()).find((t) => t.id === id)
      expect({ status: task?.status, serviceStatus: task?.serviceStatus }).toEqual({
        status: CURSOR_STATUS[state],
        serviceStatus: state
      })
    }
  })

  it("a task's steps end with its result and how long the run took", async () => {
    const { id } = fake.control.addTask({ title: 'Docs' })
    fake.control.advance(60_000)
    const task = await account.task(id)
    expect(task.steps?.at(-1)).toMatchObject({ kind: 'result', title: 'Result after 30 s' })
  })

  it('a reply while the run is active is refused 409 agent_busy: the words say the agent is still running', async () => {
    const { id } = fake.control.addTask({ title: 'Busy', script: 'run-forever' })
    fake.control.advance(2_000)
    const refused = await account.reply?.(id, 'Also add a changelog').then(
      () => null,
      (e: unknown) => e
    )
    expect(refused).toMatchObject({ status: 409 })
    expect((refused as Error).message).toMatch(/still running/)
    expect((refused as Error).message).toMatch(/not sent/)
  })

  it('a reply once the run has ended is a follow-up run, which the agent then reports', async () => {
    const { id } = fake.control.addTask({ title: 'Docs' })
    fake.control.advance(60_000)
    const before = fake.control.latestRunId(id)
    await account.reply?.(id, 'Also add a changelog')
    expect(fake.control.latestRunId(id)).not.toBe(before)
    expect(tasksOf(await account.poll()).find((t) => t.id === id)?.status).toBe('queued')
  })

  it('checks a key with /v1/me, and a key Cursor does not know reads as rejected with where to make one', async () => {
    await expect(account.checkKey()).resolves.toBeUndefined()
    const wrong = openAgentAccount('cursor', { key: 'not-the-key', account: 'me at work', baseUrl: fake.baseUrl })
    try {
      await expect(wrong.checkKey()).rejects.toMatchObject({ kind: 'auth', status: 401 })
      await expect(wrong.poll()).rejects.toThrow(/cursor\.com\/dashboard\/integrations/)
    } finally {
      await wrong.close()
    }
  })

  it("lists an agent's runs over every page, newest first", async () => {
    const { id } = fake.control.addTask({ title: 'Many runs' })
    for (let i = 0; i < 4; i++) {
      fake.control.advance(60_000)
      await account.reply?.(id, `Follow-up ${i}`)
    }
    const client = createCursorClient({ apiKey: KEY, account: 'me', baseUrl: fake.baseUrl })
    try {
      const runs = await client.listRuns(id)
      expect(runs).toHaveLength(5)
      expect(runs[0]?.id).toBe(fake.control.latestRunId(id))
      expect(new Set(runs.map((r) => r.id)).size).toBe(5)
    } finally {
      await client.close()
    }
  })
})
