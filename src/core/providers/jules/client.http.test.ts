// The Jules adapter over real HTTP against a loopback server: the key in its header, pageToken paging, activities read
// only for sessions whose updateTime moved, approving a plan and replying, and the words of a 401 and a 403.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { LIST_ACTIVITIES, LIST_SESSIONS } from '../../../reference-service/jules/docs-examples'
import { failure } from '../../client/test-failure'
import { json, startTestServer, type TestServer } from '../test-server'
import { createJulesClient, type JulesClient } from './client'

const KEY = 'AIzaSyTEST-jules-key-for-loopback'
const ACCOUNT = 'jules personal'

let server: TestServer
let client: JulesClient
/** The sessions the server lists, by page token ('' for the first page). */
let pages: Record<string, { sessions: unknown[]; nextPageToken?: string }>

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())
beforeEach(() => {
  server.received.length = 0
  pages = {}
  client = createJulesClient({ apiKey: KEY, account: ACCOUNT, baseUrl: `${server.url}/v1alpha` })
  server.handle((req, res) => {
    const url = new URL(req.url, server.url)
    if (url.pathname === '/v1alpha/sessions')
      return json(res, 200, pages[url.searchParams.get('pageToken') ?? ''] ?? {})
    const activities = url.pathname.match(/^\/v1alpha\/sessions\/([^/]+)\/activities$/)
    if (activities) return json(res, 200, { activities: LIST_ACTIVITIES.activities })
    if (req.method === 'POST') return json(res, 200, {})
    json(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } })
  })
})
afterEach(() => client.close())

const activityRequests = () =>
  server.received.filter((r) => r.url.includes('/activities')).map((r) => r.url.split('?')[0])

describe('polling', () => {
  it('every page of sessions, the key in x-goog-api-key and never in the URL', async () => {
    pages = {
      '': { ...LIST_SESSIONS, nextPageToken: 'p2/+=' },
      'p2/+=': { sessions: [{ id: 'def', state: 'IN_PROGRESS', updateTime: '2024-01-16T00:00:00Z' }] }
    }
    const sessions = await client.listSessions()
    expect(sessions.map((s) => s.id)).toEqual(['abc123', 'def'])
    expect(server.received.map((r) => r.url)).toEqual([
      '/v1alpha/sessions?pageSize=100',
      '/v1alpha/sessions?pageSize=100&pageToken=p2%2F%2B%3D'
    ])
    for (const r of server.received) {
      expect(r.headers['x-goog-api-key']).toBe(KEY)
      expect(r.url).not.toContain(KEY)
      expect(r.url).not.toMatch(/[?&]key=/)
    }
  })

  it('a page token that repeats ends the list', async () => {
    pages = { '': { sessions: [{ id: 'a' }], nextPageToken: 't' }, t: { sessions: [{ id: 'b' }], nextPageToken: 't' } }
    expect((await client.listSessions()).map((s) => s.id)).toEqual(['a', 'b'])
    expect(server.received).toHaveLength(2)
  })

  it('activities are read only for sessions whose updateTime moved', async () => {
    const a = {
      id: 'a',
      state: 'AWAITING_PLAN_APPROVAL',
      updateTime: '2024-01-15T10:31:00Z',
      url: 'https://jules.google.com/session/a'
    }
    const b = { id: 'b', state: 'IN_PROGRESS', updateTime: '2024-01-15T10:00:00Z' }
    pages = { '': { sessions: [a, b] } }
    const first = await client.poll()
    expect(activityRequests()).toEqual(['/v1alpha/sessions/a/activities', '/v1alpha/sessions/b/activities'])
    expect(first[0]?.waiting).toEqual({
      kind: 'plan_approval',
      text: '1. Analyze existing code\n2. Write unit tests',
      where: 'https://jules.google.com/session/a'
    })

    server.received.length = 0
    const second = await client.poll()
    expect(activityRequests()).toEqual([])
    expect(second[0]?.steps).toHaveLength(2)

    server.received.length = 0
    pages = { '': { sessions: [a, { ...b, updateTime: '2024-01-15T10:05:00Z' }] } }
    await client.poll()
    expect(activityRequests()).toEqual(['/v1alpha/sessions/b/activities'])
  })
})

describe('answers', () => {
  it('approves a plan and sends a message by POST, the session id encoded', async () => {
    await client.approvePlan('123')
    await client.sendMessage('a b', 'Use Postgres, not "SQLite"')
    expect(server.received.map((r) => [r.method, r.url, r.body, r.headers['content-type']])).toEqual([
      ['POST', '/v1alpha/sessions/123:approvePlan', '{}', 'application/json'],
      ['POST', '/v1alpha/sessions/a%20b:sendMessage', '{"prompt":"Use Postgres, not \\"SQLite\\""}', 'application/json']
    ])
  })

  it('a session that is gone is not_found', async () => {
    server.handle((_req, res) =>
      json(res, 404, { error: { code: 404, message: 'Session not found.', status: 'NOT_FOUND' } })
    )
    const e = await failure(client.approvePlan('gone'))
    expect(e.kind).toBe('not_found')
    expect(e.message).toBe('Jules has no such session (HTTP 404). Jules said: Session not found.')
  })
})

describe('errors', () => {
  it('a 401 names the account and the service', async () => {
    server.handle((_req, res) =>
      json(res, 401, {
        error: {
          code: 401,
          message: 'Request is missing required authentication credential.',
          status: 'UNAUTHENTICATED'
        }
      })
    )
    const e = await failure(client.listSessions())
    expect(e.kind).toBe('auth')
    expect(e.message).toBe(
      `Jules rejected the API key of Jules account "${ACCOUNT}" (HTTP 401): it is wrong or was revoked. Make a new key at https://jules.google.com/settings. Jules said: Request is missing required authentication credential.`
    )
  })

  it("Google's 400 for a key it does not know is a rejected key too", async () => {
    server.handle((_req, res) =>
      json(res, 400, {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          details: [{ reason: 'API_KEY_INVALID' }]
        }
      })
    )
    const e = await failure(client.listSessions())
    expect(e.kind).toBe('auth')
    expect(e.message).toContain(`Jules rejected the API key of Jules account "${ACCOUNT}" (HTTP 400)`)
  })

  it('a 403 says what the key may not do', async () => {
    server.handle((_req, res) =>
      json(res, 403, { error: { code: 403, message: 'Permission denied.', status: 'PERMISSION_DENIED' } })
    )
    const e = await failure(client.listSessions())
    expect(e.kind).toBe('auth')
    expect(e.message).toBe(
      `Jules refused the API key of Jules account "${ACCOUNT}" (HTTP 403): the key is not allowed to use the Jules API, or this session is not the account's. Jules said: Permission denied.`
    )
  })

  it('a 429 waits as Retry-After says', async () => {
    server.handle((_req, res) => json(res, 429, { error: { message: 'Quota exceeded' } }, { 'retry-after': '7' }))
    const e = await failure(client.listSessions())
    expect([e.kind, e.retryAfterMs]).toEqual(['rate_limited', 7_000])
  })

  it('an echoed key is redacted; garbage is invalid_response', async () => {
    server.handle((_req, res) => json(res, 401, { error: { message: `key ${KEY} unknown` } }))
    expect((await failure(client.listSessions())).message).not.toContain(KEY)
    server.handle((_req, res) => {
      res.writeHead(200)
      res.end('\u001b[31mnot json')
    })
    expect((await failure(client.listSessions())).kind).toBe('invalid_response')
  })

  it('no key: nothing is sent', async () => {
    const c = createJulesClient({ apiKey: '  ', account: ACCOUNT, baseUrl: `${server.url}/v1alpha` })
    try {
      expect((await failure(c.listSessions())).message).toBe('No Jules key is set: add one.')
      expect(server.received).toHaveLength(0)
    } finally {
      await c.close()
    }
  })
})
