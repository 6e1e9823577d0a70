// The Jules adapter, opened as the app opens an account (registry.ts), against the reference service's Jules fake over
// real HTTP: every documented state, a plan that waits for approval on the clock and is approved, a question answered,
// pageToken paging, and the words of a key Jules does not know.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type AgentFake, startAgentFake } from '../../../reference-service'
import { failure } from '../../client/test-failure'
import { type AgentAccount, type AgentPoll, openAgentAccount } from '../registry'
import { JULES_STATES, JULES_STATUS } from './mapping'

const KEY = 'AIzaFakeKeyForTheJulesFake0123456789'
let fake: AgentFake
let account: AgentAccount

beforeEach(async () => {
  // Two a page, so a few sessions (and their activities) take the adapter through pageToken paging.
  fake = await startAgentFake('jules', { apiKey: KEY, manualClock: true, maxPageSize: 2 })
  account = openAgentAccount('jules', { key: KEY, account: 'me at work', baseUrl: fake.baseUrl })
})
afterEach(async () => {
  await account.close()
  await fake.close()
})

const tasksOf = (p: AgentPoll) => {
  if (!p.changed) throw new Error('expected a changed list')
  return p.tasks
}
const byId = async (id: string) => tasksOf(await account.poll()).find((t) => t.id === id)

describe('the Jules adapter against the Jules fake', () => {
  it('reads every documented state as its status, with the service word kept, over several pages', async () => {
    const ids = ['One', 'Two', 'Three'].map((title) => fake.control.addTask({ title, script: 'queue' }).id)
    const target = ids[2] as string
    // STATE_UNSPECIFIED is the enum's zero value, never a session's state.
    for (const state of JULES_STATES.filter((s) => s !== 'STATE_UNSPECIFIED')) {
      fake.control.setTaskState(target, state)
      const tasks = tasksOf(await account.poll())
      expect(tasks.map((t) => t.id).sort()).toEqual([...ids].sort())
      const task = tasks.find((t) => t.id === target)
      expect({ status: task?.status, serviceStatus: task?.serviceStatus }).toEqual({
        status: JULES_STATUS[state],
        serviceStatus: state
      })
    }
  })

  it('a plan comes to wait for approval on the clock, is approved from the account, and the session goes on to the end', async () => {
    const { id } = fake.control.addTask({ title: 'Add dark mode', repository: 'myorg/myrepo', script: 'plan' })
    expect((await byId(id))?.status).toBe('queued')
    fake.control.advance(15_000)
    const waiting = await byId(id)
    expect(waiting?.status).toBe('waiting')
    expect(waiting?.waiting).toEqual({
      kind: 'plan_approval',
      text: '1. Read the code behind "Add dark mode"\n2. Make the change and test it',
      where: `https://jules.google.com/session/${id}`
    })
    expect(waiting?.project).toEqual({ id: 'sources/github/myorg/myrepo', name: 'myorg/myrepo' })
    await account.approve?.(id)
    const approved = await byId(id)
    expect(approved?.status).toBe('running')
    expect(approved?.steps?.map((s) => s.kind)).toContain('planApproved')
    fake.control.advance(60_000)
    const done = await byId(id)
    expect(done?.status).toBe('completed')
    expect(done?.links.pullRequests).toEqual([
      {
        id: null,
        url: expect.stringMatching(/^https:\/\/github\.com\/myorg\/myrepo\/pull\/\d+$/),
        title: 'Add dark mode'
      }
    ])
  })

  it("a question is told with the agent's words, and a reply sends the session on", async () => {
    const { id } = fake.control.addTask({ title: 'Localise the form', script: 'ask' })
    fake.control.advance(60_000)
    const asked = await byId(id)
    expect(asked?.waiting).toMatchObject({
      kind: 'question',
      text: 'Should "Localise the form" also cover the mobile layout?'
    })
    await account.reply?.(id, 'Yes, please.')
    const answered = await byId(id)
    expect(answered?.status).toBe('running')
    expect(answered?.steps?.filter((s) => s.kind === 'userMessaged').map((s) => s.title)).toEqual(['Yes, please.'])
  })

  it('a key Jules does not know is told as rejected, naming the account', async () => {
    const other = openAgentAccount('jules', { key: 'AIzaNotTheKey', account: 'me at work', baseUrl: fake.baseUrl })
    try {
      const e = await failure(other.checkKey())
      expect(e.message).toContain('Jules rejected the API key of Jules account "me at work" (HTTP 400)')
    } finally {
      await other.close()
    }
  })
})
