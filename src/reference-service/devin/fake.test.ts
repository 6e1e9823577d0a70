// The Devin fake on its own: the demo's sessions reach every state the demo promises on the clock (waiting for
// approval from the start, out of credits later), a message resumes a suspended session, and keys meet Devin's rules.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type AgentFake, startAgentFake } from '../index'

const KEY = 'cog_fakeKey'
let fake: AgentFake
beforeEach(async () => {
  fake = await startAgentFake('devin', { apiKey: KEY, manualClock: true })
})
afterEach(() => fake.close())

const get = (path: string, key = KEY) =>
  fetch(`${fake.baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } })
const states = () => Object.fromEntries(fake.control.tasks().map((t) => [t.title, t.state]))

describe('the Devin fake', () => {
  it('seeds the demo: one waiting for approval from the start, one out of credits on the clock', () => {
    fake.control.seedDemo()
    expect(states()['Rotate the staging credentials']).toBe('waiting_for_approval')
    fake.control.advance(60_000)
    expect(states()).toMatchObject({
      'Migrate the billing cron': 'out_of_credits',
      'Translate the settings page': 'waiting_for_user',
      'Upgrade to Node 22': 'error'
    })
  })

  it('answers v3 with status and status_detail, and a message resumes a suspended session', async () => {
    const id = fake.control.addTask({ title: 'T', state: 'out_of_credits' }).id
    const self = (await (await get('/v3/self')).json()) as { org_id: string }
    const list = (await (await get(`/v3/organizations/${self.org_id}/sessions`)).json()) as { items: unknown[] }
    expect(list.items[0]).toMatchObject({ session_id: id, status: 'suspended', status_detail: 'out_of_credits' })
    const sent = await fetch(`${fake.baseUrl}/v3/organizations/${self.org_id}/sessions/${id}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'Credits added' })
    })
    expect(sent.status).toBe(200)
    expect(fake.control.tasks()[0]?.state).toBe('working')
  })

  it('refuses a cog_ key on v1, a wrong key, and a limited key with the permission named', async () => {
    expect((await get('/v1/sessions')).status).toBe(401)
    expect((await get('/v3/self', 'cog_other')).status).toBe(401)
    fake.control.addLimitedKey('cog_limited')
    const limited = await get('/v3/organizations/org-fake0001/sessions', 'cog_limited')
    expect(limited.status).toBe(403)
    expect(await limited.json()).toMatchObject({ detail: expect.stringContaining('ViewOrgSessions') })
  })
})
