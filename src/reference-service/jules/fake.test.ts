// The Jules fake over HTTP, as the documentation describes the service: its refusals in Google's words, pageToken
// paging, sessions and activities shaped as the documentation's examples, approving a plan and sending a message, the
// shared faults and the control routes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentFake } from '../agent-fake'
import { startAgentFake } from '../agent-fakes'
import { GET_SESSION } from './docs-examples'

const KEY = 'AIzaFakeJulesKey'
let fake: AgentFake

beforeEach(async () => {
  fake = await startAgentFake('jules', { apiKey: KEY, manualClock: true, maxPageSize: 2 })
})
afterEach(() => fake.close())

const call = (path: string, init: { method?: string; body?: unknown; key?: string | null } = {}) =>
  fetch(`${fake.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: init.key === null ? {} : { 'x-goog-api-key': init.key ?? KEY },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) })
  })
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: number; status: string } }).error

describe('the Jules fake', () => {
  it("refuses a missing key (401), a key it does not know (400 API_KEY_INVALID) and one without access (403), in Google's body", async () => {
    fake.control.addLimitedKey('AIzaLimited')
    expect(await errorOf(await call('/sessions', { key: null }))).toMatchObject({
      code: 401,
      status: 'UNAUTHENTICATED'
    })
    const wrong = await call('/sessions', { key: 'AIzaWrong' })
    expect(wrong.status).toBe(400)
    expect(JSON.stringify(await wrong.json())).toContain('API_KEY_INVALID')
    expect(await errorOf(await call('/sessions', { key: 'AIzaLimited' }))).toMatchObject({
      code: 403,
      status: 'PERMISSION_DENIED'
    })
    expect(await errorOf(await call('/sessions/none'))).toMatchObject({ code: 404, status: 'NOT_FOUND' })
  })

  it("pages sessions by pageToken, and shapes them as the documentation's example", async () => {
    for (const title of ['a', 'b', 'c']) fake.control.addTask({ title })
    const first = (await (await call('/sessions?pageSize=100')).json()) as {
      sessions: Record<string, unknown>[]
      nextPageToken?: string
    }
    expect(first.sessions).toHaveLength(2)
    expect(Object.keys(first.sessions[0]!)).toEqual(expect.arrayContaining(Object.keys(GET_SESSION)))
    const second = (await (await call(`/sessions?pageToken=${encodeURIComponent(first.nextPageToken!)}`)).json()) as {
      sessions: unknown[]
      nextPageToken?: string
    }
    expect(second.sessions).toHaveLength(1)
    expect(second.nextPageToken).toBeUndefined()
    expect((await call('/sessions?pageToken=garbage!')).status).toBe(400)
  })

  it('approves a waiting plan (AWAITING_PLAN_APPROVAL to IN_PROGRESS, planApproved) and refuses one that does not wait', async () => {
    const { id } = fake.control.addTask({ title: 'Add dark mode', script: 'plan' })
    expect((await call(`/sessions/${id}:approvePlan`, { method: 'POST', body: {} })).status).toBe(400)
    fake.control.advance(15_000)
    expect(fake.control.tasks()[0]?.state).toBe('AWAITING_PLAN_APPROVAL')
    expect((await call(`/sessions/${id}:approvePlan`, { method: 'POST', body: {} })).status).toBe(200)
    expect(fake.control.tasks()[0]?.state).toBe('IN_PROGRESS')
    const kinds = async () => {
      const all: Record<string, unknown>[] = []
      let token = ''
      do {
        const page = (await (
          await call(`/sessions/${id}/activities?pageToken=${encodeURIComponent(token)}`)
        ).json()) as {
          activities: Record<string, unknown>[]
          nextPageToken?: string
        }
        all.push(...page.activities)
        token = page.nextPageToken ?? ''
      } while (token)
      return all.map((a) => Object.keys(a).find((k) => k.endsWith('ed') && k !== 'originator') ?? a.description)
    }
    expect(await kinds()).toEqual([
      'Session started',
      'progressUpdated',
      'planGenerated',
      'planApproved',
      'progressUpdated'
    ])
  })

  it('sends a message (userMessaged), and a session waiting for the user goes on', async () => {
    const { id } = fake.control.addTask({ script: 'queue' })
    fake.control.setTaskState(id, 'AWAITING_USER_FEEDBACK')
    expect((await call(`/sessions/${id}:sendMessage`, { method: 'POST', body: { prompt: '' } })).status).toBe(400)
    expect((await call(`/sessions/${id}:sendMessage`, { method: 'POST', body: { prompt: 'Yes' } })).status).toBe(200)
    expect(fake.control.tasks()[0]?.state).toBe('IN_PROGRESS')
  })

  it("takes the shared faults through the same control route: a 503 in Google's body", async () => {
    const set = await fetch(`${fake.url}/__control/faults`, {
      method: 'POST',
      headers: { 'x-goog-api-key': KEY },
      body: JSON.stringify({ rules: [{ kind: 'error', times: 1 }] })
    })
    expect(set.status).toBe(200)
    expect(await errorOf(await call('/sessions'))).toMatchObject({ code: 503, status: 'UNAVAILABLE' })
    expect((await call('/sessions')).status).toBe(200)
  })

  it('seeds a demo that visits every state on the clock, a plan waiting for approval from the start', () => {
    fake.control.seedDemo()
    expect(fake.control.tasks().map((t) => t.state)).toContain('AWAITING_PLAN_APPROVAL')
    const seen = new Set<string>()
    for (let i = 0; i < 20; i++) {
      for (const t of fake.control.tasks()) seen.add(t.state)
      fake.control.advance(3_000)
    }
    expect([...seen].sort()).toEqual(
      [
        'AWAITING_PLAN_APPROVAL',
        'AWAITING_USER_FEEDBACK',
        'COMPLETED',
        'FAILED',
        'IN_PROGRESS',
        'PAUSED',
        'PLANNING',
        'QUEUED'
      ].sort()
    )
  })
})
