// Jules' paging and its polling etiquette: how far page tokens are followed and when they end, and which sessions'
// activities a poll reads again (ActivityBook).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { failure } from '../../client/test-failure'
import { json, startTestServer, type TestServer } from '../test-server'
import { createJulesClient, type JulesClient, MAX_PAGES, PAGE_SIZE } from './client'
import { ActivityBook } from './etiquette'
import type { JulesSession } from './schemas'

let server: TestServer
let client: JulesClient

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.received.length = 0
  client = createJulesClient({ apiKey: 'AIzaSyTEST-paging', account: 'paging', baseUrl: `${server.url}/v1alpha` })
})
afterEach(() => client.close())

const tokens = () => server.received.map((r) => new URL(r.url, server.url).searchParams.get('pageToken'))

describe('pages', () => {
  it(`asks ${PAGE_SIZE} a page and follows at most ${MAX_PAGES} pages of a server that always sends a new token`, async () => {
    server.handle((req, res) => {
      const n = Number(new URL(req.url, server.url).searchParams.get('pageToken') ?? '0')
      json(res, 200, { sessions: [{ id: `s${n}` }], nextPageToken: String(n + 1) })
    })
    const sessions = await client.listSessions()
    expect([PAGE_SIZE, MAX_PAGES]).toEqual([100, 20])
    expect(server.received).toHaveLength(MAX_PAGES)
    expect(server.received[0]?.url).toBe('/v1alpha/sessions?pageSize=100')
    expect(sessions.map((s) => s.id)).toEqual(Array.from({ length: MAX_PAGES }, (_, i) => `s${i}`))
  })

  it('ends at an empty or missing token, or one that is not text', async () => {
    for (const last of [{ nextPageToken: '' }, {}, { nextPageToken: 7 }, { nextPageToken: null }]) {
      server.received.length = 0
      server.handle((req, res) => {
        const token = new URL(req.url, server.url).searchParams.get('pageToken')
        json(res, 200, token === null ? { sessions: [{ id: 'a' }], nextPageToken: 'p2' } : { sessions: [], ...last })
      })
      await client.listSessions()
      expect(tokens(), JSON.stringify(last)).toEqual([null, 'p2'])
    }
  })

  it('a body that is not an object is invalid_response, and no further page is asked', async () => {
    server.handle((_req, res) => json(res, 200, '[]'))
    expect((await failure(client.listSessions())).kind).toBe('invalid_response')
    expect(server.received).toHaveLength(1)
  })

  it("a session's activities are paged the same way", async () => {
    server.handle((req, res) => {
      const token = new URL(req.url, server.url).searchParams.get('pageToken')
      if (token === null) return json(res, 200, { activities: [{ id: 'a1' }], nextPageToken: 'x' })
      json(res, 200, { activities: [{ id: 'a2' }] })
    })
    const activities = await client.listActivities('s 1')
    expect(activities.map((a) => a.id)).toEqual(['a1', 'a2'])
    expect(server.received.map((r) => r.url)).toEqual([
      '/v1alpha/sessions/s%201/activities?pageSize=100',
      '/v1alpha/sessions/s%201/activities?pageSize=100&pageToken=x'
    ])
  })
})

describe('poll', () => {
  it('reads activities again for a session without an updateTime, and forgets sessions no longer listed', async () => {
    let listed: unknown[] = [
      { id: 'a', state: 'IN_PROGRESS' },
      { id: 'b', state: 'AWAITING_USER_FEEDBACK', updateTime: '2024-01-15T10:00:00Z' }
    ]
    server.handle((req, res) => {
      if (req.url.startsWith('/v1alpha/sessions?')) return json(res, 200, { sessions: listed })
      json(res, 200, {
        activities: [{ id: 'm', createTime: '2024-01-15T09:00:00Z', agentMessaged: { agentMessage: 'Which DB?' } }]
      })
    })
    const activityCalls = () => server.received.filter((r) => r.url.includes('/activities')).length
    const first = await client.poll()
    expect(activityCalls()).toBe(2)
    expect(first[1]?.waiting?.text).toBe('Which DB?')
    await client.poll()
    expect(activityCalls()).toBe(3)
    listed = [listed[0]]
    await client.poll()
    expect(activityCalls()).toBe(4)
    listed = [{ id: 'b', state: 'AWAITING_USER_FEEDBACK', updateTime: '2024-01-15T10:00:00Z' }, { id: 'a' }]
    const again = await client.poll()
    // b was forgotten when it left the list, so its activities are read again.
    expect(activityCalls()).toBe(6)
    expect(again.map((t) => t.steps?.length)).toEqual([1, 1])
  })
})

describe('ActivityBook', () => {
  const session = (id: string, updateTime: string) => ({ id, updateTime }) as JulesSession

  it('is due for new sessions, moved ones and those without an updateTime; keeps what was read', () => {
    const book = new ActivityBook()
    const a = session('a', 't1')
    const b = session('b', '')
    expect(book.due([a, b])).toEqual([a, b])
    book.record(a, [])
    book.record(b, [])
    expect(book.due([a, b])).toEqual([b])
    expect(book.due([session('a', 't2')]).map((s) => s.id)).toEqual(['a'])
    expect(book.activities('a')).toEqual([])
    expect(book.activities('c')).toBeUndefined()
  })

  it('keepOnly forgets the sessions not given', () => {
    const book = new ActivityBook()
    book.record(session('a', 't'), [])
    book.record(session('b', 't'), [])
    book.keepOnly([session('b', 't')])
    expect([book.activities('a'), book.activities('b')]).toEqual([undefined, []])
  })
})
