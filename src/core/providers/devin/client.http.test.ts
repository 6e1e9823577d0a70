// The Devin client's rules on the wire, seen by a plain loopback server: which API a key speaks (and when the service
// decides), v3's cursor paging and `updated_after` between full reads, v1's limit/offset paging, the bound on pages,
// messages read again only when a session moved (or after a reply), and where a reply goes.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { failure } from '../../client/test-failure'
import { json, type Received, startTestServer, type TestServer } from '../test-server'
import { createDevinClient, FULL_READ_EVERY, MAX_PAGES, V1_PAGE_SIZE, V3_PAGE_SIZE } from './client'

let server: TestServer
beforeEach(async () => {
  server = await startTestServer()
})
afterEach(() => server.close())

const ORG = 'org-abc123def456'
const v3Session = (id: string, updatedAt: number, extra: Record<string, unknown> = {}) => ({
  session_id: id,
  status: 'running',
  status_detail: 'working',
  title: id,
  url: `https://app.devin.ai/sessions/${id}`,
  created_at: 1_700_000_000,
  updated_at: updatedAt,
  acus_consumed: 1,
  pull_requests: [],
  ...extra
})
const page = (items: unknown[], next: string | null = null) => ({
  items,
  end_cursor: next,
  has_next_page: next !== null
})
const path = (r: Received) => r.url.split('?')[0] as string
const query = (r: Received) => new URLSearchParams(r.url.split('?')[1] ?? '')
const client = (apiKey: string) => createDevinClient({ apiKey, account: 'me', baseUrl: server.url })

describe('which API a key speaks', () => {
  it('a key without a known prefix refused by /v3/self (401, 403 or 404) is tried on v1, once', async () => {
    for (const status of [401, 403, 404]) {
      server.received.length = 0
      server.handle((req, res) =>
        req.url === '/v3/self' ? json(res, status, { detail: 'no' }) : json(res, 200, { sessions: [] })
      )
      const c = client('plainKey0123')
      try {
        expect(await c.route()).toEqual({ api: 'v1' })
        expect(await c.route()).toEqual({ api: 'v1' })
      } finally {
        await c.close()
      }
      expect(server.received.map((r) => r.url)).toEqual(['/v3/self', '/v1/sessions?limit=1'])
    }
  })

  it('a server error on /v3/self is not taken for a v1 key, and the route is asked again next time', async () => {
    let fail = true
    server.handle((req, res) =>
      fail ? json(res, 500, { detail: 'down' }) : json(res, 200, { org_id: ORG, principal_type: 'service_user' })
    )
    const c = client('plainKey0123')
    try {
      expect(await failure(c.route())).toMatchObject({ status: 500 })
      fail = false
      expect(await c.route()).toEqual({ api: 'v3', orgId: ORG })
    } finally {
      await c.close()
    }
    expect(server.received.map((r) => r.url)).toEqual(['/v3/self', '/v3/self'])
  })

  it('a cog_ key refused by v3 stays refused (v1 is not tried); an apk_ key never asks v3', async () => {
    server.handle((req, res) => (req.url === '/v3/self' ? json(res, 403, {}) : json(res, 200, { sessions: [] })))
    const cog = client('cog_key')
    const apk = client('apk_key')
    try {
      expect(await failure(cog.route())).toMatchObject({ status: 403 })
      expect(await apk.route()).toEqual({ api: 'v1' })
    } finally {
      await cog.close()
      await apk.close()
    }
    expect(server.received.map((r) => r.url)).toEqual(['/v3/self'])
  })

  it('a service user of no single organization is told to use an organization service user', async () => {
    server.handle((_req, res) => json(res, 200, { principal_type: 'service_user', org_id: null }))
    const c = client('cog_enterprise')
    try {
      const e = await failure(c.route())
      expect(e).toMatchObject({ kind: 'auth' })
      expect(e.message).toMatch(/Devin account "me" belongs to no single organization/)
    } finally {
      await c.close()
    }
  })
})

describe('v3 paging', () => {
  it('follows end_cursor while has_next_page, asking the largest page', async () => {
    server.handle((req, res) => {
      if (req.url === '/v3/self') return json(res, 200, { org_id: ORG })
      const after = query(req).get('after')
      json(res, 200, after === null ? page([v3Session('a', 10)], 'c1') : page([v3Session('b', 11)]))
    })
    const c = client('cog_key')
    try {
      expect((await c.listSessions()).map((s) => s.id)).toEqual(['a', 'b'])
    } finally {
      await c.close()
    }
    const lists = server.received.slice(1)
    expect(lists.map((r) => path(r))).toEqual([
      `/v3/organizations/${ORG}/sessions`,
      `/v3/organizations/${ORG}/sessions`
    ])
    expect(lists.map((r) => [query(r).get('first'), query(r).get('after')])).toEqual([
      [String(V3_PAGE_SIZE), null],
      [String(V3_PAGE_SIZE), 'c1']
    ])
  })

  it('stops on has_next_page false even with a cursor, on a cursor given again, and after MAX_PAGES', async () => {
    const run = async (answer: (n: number) => unknown) => {
      server.received.length = 0
      let n = 0
      server.handle((req, res) =>
        req.url === '/v3/self' ? json(res, 200, { org_id: ORG }) : json(res, 200, answer(n++))
      )
      const c = client('cog_key')
      try {
        await c.listSessions()
      } finally {
        await c.close()
      }
      return server.received.length - 1
    }
    expect(await run(() => ({ items: [], end_cursor: 'more', has_next_page: false }))).toBe(1)
    expect(await run(() => page([], 'same'))).toBe(2)
    expect(await run((n) => page([], `c${n}`))).toBe(MAX_PAGES)
  })

  it("reads a session's messages over every page", async () => {
    server.handle((req, res) => {
      if (req.url === '/v3/self') return json(res, 200, { org_id: ORG })
      const after = query(req).get('after')
      const m = (id: string) => ({ event_id: id, message: id, source: 'devin', created_at: 1 })
      json(res, 200, after === null ? page([m('m1')], 'p2') : page([m('m2')]))
    })
    const c = client('cog_key')
    try {
      expect((await c.listMessages('devin-1')).map((m) => m.id)).toEqual(['m1', 'm2'])
    } finally {
      await c.close()
    }
    expect(server.received.slice(1).map((r) => query(r).get('after'))).toEqual([null, 'p2'])
    expect(path(server.received[1] as Received)).toBe(`/v3/organizations/${ORG}/sessions/devin-1/messages`)
  })
})

describe('v1 paging', () => {
  it('asks limit and offset page by page while a page is full, and stops on a short one', async () => {
    const full = Array.from({ length: V1_PAGE_SIZE }, (_, i) => ({ session_id: `s${i}`, status_enum: 'working' }))
    server.handle((req, res) =>
      json(res, 200, { sessions: query(req).get('offset') === '0' ? full : [{ session_id: 'last' }] })
    )
    const c = client('apk_key')
    try {
      const sessions = await c.listSessions()
      expect(sessions).toHaveLength(V1_PAGE_SIZE + 1)
      expect(sessions.at(-1)?.id).toBe('last')
    } finally {
      await c.close()
    }
    expect(server.received.map((r) => r.url)).toEqual([
      `/v1/sessions?limit=${V1_PAGE_SIZE}&offset=0`,
      `/v1/sessions?limit=${V1_PAGE_SIZE}&offset=${V1_PAGE_SIZE}`
    ])
  })

  it('stops after MAX_PAGES full pages, and on an answer without a list', async () => {
    const full = Array.from({ length: V1_PAGE_SIZE }, (_, i) => ({ session_id: `s${i}` }))
    server.handle((_req, res) => json(res, 200, { sessions: full }))
    const c = client('apk_key')
    try {
      await c.listSessions()
      expect(server.received).toHaveLength(MAX_PAGES)
      server.received.length = 0
      server.handle((_req, res) => json(res, 200, { other: [] }))
      await c.listSessions()
      expect(server.received).toHaveLength(1)
    } finally {
      await c.close()
    }
  })
})

describe('polls', () => {
  it('list by updated_after (one second back) between full reads, every FULL_READ_EVERY polls in full again', async () => {
    let sessions = [v3Session('a', 100), v3Session('b', 250)]
    server.handle((req, res) => {
      if (req.url === '/v3/self') return json(res, 200, { org_id: ORG })
      if (req.url.includes('/messages')) return json(res, 200, page([]))
      const after = query(req).get('updated_after')
      json(res, 200, page(after === null ? sessions : sessions.filter((s) => s.updated_at > Number(after))))
    })
    const c = client('cog_key')
    const lists = () =>
      server.received
        .filter((r) => path(r) === `/v3/organizations/${ORG}/sessions`)
        .map((r) => query(r).get('updated_after'))
    try {
      await c.poll()
      sessions = [v3Session('b', 300)]
      const second = await c.poll()
      // What was known stays; what moved is read anew.
      expect(second.map((t) => [t.id, t.updatedAt])).toEqual([
        ['a', new Date(100_000).toISOString()],
        ['b', new Date(300_000).toISOString()]
      ])
      for (let i = 2; i < FULL_READ_EVERY; i++) await c.poll()
      expect(lists()).toEqual([null, '249', ...Array<string>(FULL_READ_EVERY - 2).fill('299')])
      // The full read drops a session no longer listed.
      const full = await c.poll()
      expect(lists().at(-1)).toBeNull()
      expect(full.map((t) => t.id)).toEqual(['b'])
    } finally {
      await c.close()
    }
  })

  it("reads a session's messages again only when its updated_at moved, or after a reply", async () => {
    let updated = 100
    server.handle((req, res) => {
      if (req.url === '/v3/self') return json(res, 200, { org_id: ORG })
      if (req.method === 'POST') return json(res, 200, {})
      if (req.url.includes('/messages')) return json(res, 200, page([]))
      json(res, 200, page([v3Session('a', updated)]))
    })
    const c = client('cog_key')
    const reads = () => server.received.filter((r) => r.method === 'GET' && r.url.includes('/messages')).length
    try {
      await c.poll()
      await c.poll()
      expect(reads()).toBe(1)
      updated = 200
      await c.poll()
      expect(reads()).toBe(2)
      await c.sendMessage('a', 'Go on')
      await c.poll()
      expect(reads()).toBe(3)
    } finally {
      await c.close()
    }
    const post = server.received.find((r) => r.method === 'POST') as Received
    expect(post.url).toBe(`/v3/organizations/${ORG}/sessions/a/messages`)
    expect(JSON.parse(post.body)).toEqual({ message: 'Go on' })
  })

  it('on v1 a poll always reads the whole list, and a reply goes to /message', async () => {
    server.handle((req, res) =>
      req.method === 'POST'
        ? json(res, 200, {})
        : req.url.startsWith('/v1/sessions?')
          ? json(res, 200, {
              sessions: [{ session_id: 's1', status_enum: 'blocked', updated_at: '2026-01-01T00:00:00Z' }]
            })
          : json(res, 200, { session_id: 's1', messages: [] })
    )
    const c = client('apk_key')
    try {
      await c.poll()
      await c.poll()
      await c.sendMessage('s1', 'Yes')
    } finally {
      await c.close()
    }
    expect(server.received.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET /v1/sessions?limit=${V1_PAGE_SIZE}&offset=0`,
      'GET /v1/sessions/s1',
      `GET /v1/sessions?limit=${V1_PAGE_SIZE}&offset=0`,
      'POST /v1/sessions/s1/message'
    ])
  })
})

describe('what it could not read, named', () => {
  it.each([
    ['cog_key', '/v3/self', 'who the key is'],
    ['cog_key', '/sessions?', 'a list of sessions'],
    ['apk_key', '/v1/sessions?', 'a list of sessions']
  ])('%s: an empty answer to %s names %s', async (key, route, what) => {
    server.handle((req, res) =>
      req.url.includes(route) ? json(res, 200, '') : json(res, 200, { org_id: ORG, sessions: [] })
    )
    const c = client(key)
    try {
      expect((await failure(c.listSessions())).message).toBe(
        `The service sent an empty body where ${what} was expected.`
      )
    } finally {
      await c.close()
    }
  })

  it('an empty answer for messages names them, on v3 and on v1', async () => {
    server.handle((req, res) => (req.url === '/v3/self' ? json(res, 200, { org_id: ORG }) : json(res, 200, '')))
    for (const [key, what] of [
      ['cog_key', 'a list of messages'],
      ['apk_key', 'a session']
    ]) {
      const c = client(key as string)
      try {
        expect((await failure(c.listMessages('devin-1'))).message).toContain(`where ${what} was expected`)
      } finally {
        await c.close()
      }
    }
  })

  it('who the key is, not an object, is named; and a record dropped is reported by its resource', async () => {
    const dropped: string[] = []
    server.handle((req, res) =>
      req.url === '/v3/self'
        ? json(res, 200, [])
        : json(res, 200, { sessions: [{ title: 'no id' }], messages: [{ message: 'no id' }] })
    )
    const cog = client('cog_key')
    const apk = createDevinClient({
      apiKey: 'apk_key',
      account: 'me',
      baseUrl: server.url,
      onDropped: (d) => dropped.push(`${d.resource} ${d.path}`)
    })
    try {
      expect((await failure(cog.route())).message).toMatch(/^The service sent who the key is we cannot read/)
      expect(await apk.listSessions()).toEqual([])
      expect(await apk.listMessages('s1')).toEqual([])
    } finally {
      await cog.close()
      await apk.close()
    }
    expect(dropped).toEqual(['session sessions[0].session_id', 'message messages[0].event_id'])
  })

  it('a session id that cannot be a path is refused before anything is sent, on both APIs', async () => {
    server.handle((req, res) => json(res, 200, req.url === '/v3/self' ? { org_id: ORG } : { sessions: [] }))
    for (const key of ['cog_key', 'apk_key']) {
      const c = client(key)
      try {
        expect((await failure(c.listMessages('..'))).message).toBe('A session id is required and cannot be "..".')
        expect((await failure(c.sendMessage('', 'x'))).message).toBe('A session id is required and cannot be "".')
      } finally {
        await c.close()
      }
    }
    expect(server.received.every((r) => r.url === '/v3/self')).toBe(true)
  })

  it("a refusal names Devin, and a key Devin's transport cannot send says so", async () => {
    const c = client(' ')
    try {
      expect((await failure(c.route())).message).toBe('No Devin key is set: add one.')
    } finally {
      await c.close()
    }
  })
})

describe('the edges of paging and polls', () => {
  const v3Server = (answer: (req: Received) => unknown, self: unknown = { org_id: ORG }) =>
    server.handle((req, res) => json(res, 200, req.url === '/v3/self' ? self : answer(req)))

  it('stops on a cursor that is not text or is empty, and bounds and stops the pages of messages too', async () => {
    const count = async (answer: (n: number) => unknown, read: (c: ReturnType<typeof client>) => Promise<unknown>) => {
      server.received.length = 0
      let n = 0
      v3Server(() => answer(n++))
      const c = client('cog_key')
      try {
        await read(c)
      } finally {
        await c.close()
      }
      return server.received.length - 1
    }
    const sessions = (c: ReturnType<typeof client>) => c.listSessions()
    const messages = (c: ReturnType<typeof client>) => c.listMessages('devin-1')
    expect(await count(() => ({ items: [], end_cursor: 5, has_next_page: true }), sessions)).toBe(1)
    expect(await count(() => ({ items: [], end_cursor: '', has_next_page: true }), sessions)).toBe(1)
    expect(await count((n) => page([], `m${n}`), messages)).toBe(MAX_PAGES)
    expect(await count(() => page([], 'same'), messages)).toBe(2)
  })

  it('names the organization in the paths of lists, messages and replies, and refuses one that cannot be a path', async () => {
    v3Server(() => page([]), { org_id: '..' })
    const c = client('cog_key')
    try {
      for (const read of [() => c.listSessions(), () => c.listMessages('s'), () => c.sendMessage('s', 'x')]) {
        expect((await failure(read())).message).toBe('An organization id is required and cannot be "..".')
      }
    } finally {
      await c.close()
    }
  })

  it('reports a dropped v3 session or message by its resource', async () => {
    const dropped: string[] = []
    v3Server(() => page([{ title: 'no id' }]))
    const c = createDevinClient({
      apiKey: 'cog_key',
      account: 'me',
      baseUrl: server.url,
      onDropped: (d) => dropped.push(d.resource)
    })
    try {
      await c.listSessions()
      await c.listMessages('s')
    } finally {
      await c.close()
    }
    expect(dropped).toEqual(['session', 'message'])
  })

  it('a poll with no session time known reads in full, never by an updated_after it cannot know', async () => {
    v3Server((req) => (req.url.includes('/messages') ? page([]) : page([{ ...v3Session('a', 0), updated_at: null }])))
    const c = client('cog_key')
    try {
      await c.poll()
      await c.poll()
    } finally {
      await c.close()
    }
    expect(server.received.some((r) => r.url.includes('updated_after'))).toBe(false)
  })

  it('updated_after is from the newest session, whatever the order listed', async () => {
    v3Server((req) => (req.url.includes('/messages') ? page([]) : page([v3Session('b', 250), v3Session('a', 100)])))
    const c = client('cog_key')
    try {
      await c.poll()
      await c.poll()
    } finally {
      await c.close()
    }
    expect(server.received.at(-1)?.url).toContain('updated_after=249')
  })

  it('on v1 a session gone from the list is gone from the poll, and its messages are read anew if it comes back', async () => {
    let listed = ['s1', 's2']
    server.handle((req, res) =>
      req.url.startsWith('/v1/sessions?')
        ? json(res, 200, { sessions: listed.map((id) => ({ session_id: id, updated_at: '2026-01-01T00:00:00Z' })) })
        : json(res, 200, { messages: [] })
    )
    const c = client('apk_key')
    const details = () => server.received.filter((r) => r.url === '/v1/sessions/s2').length
    try {
      await c.poll()
      listed = ['s1']
      expect((await c.poll()).map((t) => t.id)).toEqual(['s1'])
      listed = ['s1', 's2']
      await c.poll()
      expect(details()).toBe(2)
    } finally {
      await c.close()
    }
  })

  it('an organization-less service user is told which key to use', async () => {
    v3Server(() => page([]), { org_id: null })
    const c = client('cog_key')
    try {
      expect((await failure(c.route())).message).toBe(
        'The API key of Devin account "me" belongs to no single organization (an enterprise service user): use a ' +
          'key of a service user made in the organization whose sessions you want to watch.'
      )
    } finally {
      await c.close()
    }
  })

  it('once closed, it sends nothing more', async () => {
    server.handle((_req, res) => json(res, 200, { sessions: [] }))
    const c = client('apk_key')
    await c.close()
    await expect(c.listSessions()).rejects.toThrow()
    expect(server.received).toHaveLength(0)
  })
})
