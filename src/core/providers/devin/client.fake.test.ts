// The Devin adapter, opened as the app opens an account (registry.ts), against the reference service's Devin fake over
// real HTTP: v3 for a `cog_` key (the organization learned from /v3/self), v1 for an `apk_` key, a key with neither
// prefix decided by the service; sessions moving on the clock to waiting for approval and out of credits, a reply
// that resumes them, cursor paging, `updated_after` between full reads, and the words of a 401 and a 403.
import { afterEach, describe, expect, it } from 'vitest'
import { type AgentFake, startAgentFake } from '../../../reference-service'
import { failure } from '../../client/test-failure'
import { type AgentAccount, type AgentPoll, openAgentAccount } from '../registry'

let fake: AgentFake
let account: AgentAccount

async function open(key: string, accountKey = key): Promise<void> {
  // Two a page, so a few sessions (and their messages) take the adapter through paging.
  fake = await startAgentFake('devin', { apiKey: key, manualClock: true, maxPageSize: 2 })
  account = openAgentAccount('devin', { key: accountKey, account: 'me at work', baseUrl: fake.baseUrl })
}
afterEach(async () => {
  await account.close()
  await fake.close()
})

/** Requests the fake answered by route since its stats were reset. */
const requests = () => {
  const byRoute = fake.control.stats().byRoute
  return (route: string) => byRoute[route]?.requests ?? 0
}
const tasksOf = (p: AgentPoll) => {
  if (!p.changed) throw new Error('expected a changed list')
  return p.tasks
}

describe.each([
  ['v3', 'cog_fakeServiceUserKey0123'],
  ['v1', 'apk_fakeServiceKey0123'],
  ['the service decides (v3)', 'plainKeyWithNoPrefix0123']
])('the Devin adapter against the Devin fake, %s', (_api, key) => {
  it('follows sessions to waiting for approval and out of credits, with ACUs, steps and PRs', async () => {
    await open(key)
    const approve = fake.control.addTask({ title: 'Rotate keys', script: 'approve' }).id
    const credits = fake.control.addTask({ title: 'Migrate cron', script: 'credits' }).id
    const done = fake.control.addTask({ title: 'Fix test', script: 'complete' }).id
    let tasks = tasksOf(await account.poll())
    expect(tasks.map((t) => t.id).sort()).toEqual([approve, credits, done].sort())
    const v3 = !key.startsWith('apk_')
    // v1 has no word for a session not yet started: status_enum is working.
    expect(tasks.every((t) => t.status === (v3 ? 'queued' : 'running'))).toBe(true)

    await fake.control.advance(60_000)
    tasks = tasksOf(await account.poll())
    const byId = new Map(tasks.map((t) => [t.id, t]))
    expect(byId.get(approve)).toMatchObject({
      status: 'waiting',
      serviceStatus: v3 ? 'waiting_for_approval' : 'blocked',
      waiting: { kind: v3 ? 'permission' : 'question', text: 'May I run `git push --force` on the feature branch?' }
    })
    if (v3) {
      expect(byId.get(credits)).toMatchObject({
        status: 'waiting',
        serviceStatus: 'out_of_credits',
        waiting: { kind: 'permission', text: expect.stringMatching(/^Devin is suspended: out of credits/) }
      })
      expect(byId.get(done)?.costs).toEqual([{ amount: 2, unit: 'ACU' }])
    } else {
      // v1 has no credit reason and no ACUs: what it says is all that is shown.
      expect(byId.get(credits)).toMatchObject({ status: 'queued', serviceStatus: 'suspend_requested' })
      expect(byId.get(done)?.costs).toEqual([])
    }
    expect(byId.get(done)).toMatchObject({ status: 'completed' })
    expect(byId.get(done)?.links.pullRequests).toEqual([
      { id: null, url: expect.stringMatching(/^https:\/\/github\.com\/myorg\/myrepo\/pull\/\d+$/), title: null }
    ])
    const steps = (await account.task(done)).steps ?? []
    expect(steps.map((s) => s.title)).toEqual([
      'Fix test',
      'Looking into "Fix test" in myorg/myrepo.',
      'Done: opened a pull request for "Fix test".'
    ])
  })

  it('a reply is a message that resumes the session', async () => {
    await open(key)
    const id = fake.control.addTask({ title: 'Rotate keys', state: 'waiting_for_approval' }).id
    expect(tasksOf(await account.poll())[0]).toMatchObject({ status: 'waiting' })
    await account.reply?.(id, 'Yes, go ahead')
    const task = tasksOf(await account.poll()).find((t) => t.id === id)
    expect(task?.status).toBe('running')
    expect(task?.steps?.map((s) => [s.kind.startsWith('user') ? 'user' : 'devin', s.title]).slice(-2)).toEqual([
      ['user', 'Yes, go ahead'],
      ['devin', 'Looking into "Rotate keys" in myorg/myrepo.']
    ])
  })
})

describe('the Devin adapter: keys, paging, polls', () => {
  it('a cog_ key asks /v3/self once, then lists sessions by cursor and messages where updated_at moved', async () => {
    await open('cog_key')
    const ids = ['A', 'B', 'C', 'D', 'E'].map((title) => fake.control.addTask({ title, script: 'queue' }).id)
    await account.poll()
    const count = requests()
    expect(count('GET /v3/self')).toBe(1)
    // Five sessions two a page: three pages.
    expect(count('GET /v3/organizations/{org_id}/sessions')).toBe(3)
    expect(count('GET /v3/organizations/{org_id}/sessions/{devin_id}/messages')).toBe(5)
    // Later one session moves, then another: only what moved since the last read (and its second, kept as overlap)
    // is listed by updated_after, and only the newly moved one's messages are read.
    fake.control.advance(10_000)
    fake.control.setTaskState(ids[1] as string, 'working')
    await account.poll()
    fake.control.advance(10_000)
    fake.control.setTaskState(ids[0] as string, 'working')
    fake.control.resetStats()
    const moved = tasksOf(await account.poll())
    expect(moved).toHaveLength(5)
    expect(moved.find((t) => t.id === ids[0])?.status).toBe('running')
    const n = requests()
    expect(n('GET /v3/organizations/{org_id}/sessions')).toBe(1)
    expect(n('GET /v3/organizations/{org_id}/sessions/{devin_id}/messages')).toBe(1)
    expect(n('GET /v3/self')).toBe(0)
  })

  it('an apk_ key is refused by v3 in the fake as by Devin, so it goes to v1 from the start', async () => {
    await open('apk_key')
    fake.control.addTask({ title: 'A', script: 'queue' })
    await account.poll()
    const count = requests()
    expect(count('GET /v3/self')).toBe(0)
    expect(count('GET /v1/sessions')).toBe(1)
  })

  it('a wrong key is a 401 naming the account and Devin', async () => {
    await open('cog_right', 'cog_wrong')
    const e = await failure(account.checkKey())
    expect(e).toMatchObject({ kind: 'auth', status: 401 })
    expect(e.message).toMatch(/^Devin rejected the API key of Devin account "me at work" \(HTTP 401\)/)
    expect(e.message).not.toContain('cog_wrong')
  })

  it('a key without the permission is a 403 naming what it lacks', async () => {
    await open('cog_right', 'cog_limited')
    fake.control.addLimitedKey('cog_limited')
    const e = await failure(account.checkKey())
    expect(e).toMatchObject({ kind: 'auth', status: 403 })
    expect(e.message).toContain('cannot read sessions')
    expect(e.message).toContain('ViewOrgSessions')
  })
})
