// What the Cursor client puts on the wire, seen by a plain loopback server: the key as the Basic user with an empty
// password, in the Authorization header only (lists, follow-ups and the event stream alike), never in a URL.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  AGENT,
  AGENT_ARCHIVED,
  LIST_AGENTS,
  LIST_RUNS,
  RUN,
  UNAUTHORIZED
} from '../../../reference-service/cursor/docs-examples'
import { failure } from '../../client/test-failure'
import { json, startTestServer, type TestServer } from '../test-server'
import { createCursorClient, MAX_PAGES, PAGE_SIZE } from './client'
import { openRunStream } from './stream'

const KEY = 'key_cursor_wire_0123456789'
let server: TestServer
beforeEach(async () => {
  server = await startTestServer()
})
afterEach(() => server.close())

describe('the Cursor client on the wire', () => {
  it('sends the key as Basic user:"" in the header, never in the URL, to lists, follow-ups and the stream', async () => {
    server.handle((req, res) => {
      if (req.url.includes('/stream')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.end('id: 1\nevent: done\ndata: {}\n\n')
        return
      }
      json(res, 200, { items: [], nextCursor: null })
    })
    const client = createCursorClient({ apiKey: KEY, account: 'me', baseUrl: server.url })
    try {
      await client.listAgents()
      await client.followUp('bc-1', 'More please')
      const res = await openRunStream(client.transport, 'bc-1', 'run-1')('7', new AbortController().signal)
      await res.text()
    } finally {
      await client.close()
    }
    const basic = `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`
    expect(server.received.map((r) => r.headers.authorization)).toEqual([basic, basic, basic])
    expect(server.received.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /v1/agents?limit=100',
      'POST /v1/agents/bc-1/runs',
      'GET /v1/agents/bc-1/runs/run-1/stream'
    ])
    expect(server.received.every((r) => !r.url.includes(KEY))).toBe(true)
    expect(JSON.parse(server.received[1]?.body ?? '')).toEqual({ prompt: { text: 'More please' } })
    expect(server.received[2]?.headers['last-event-id']).toBe('7')
    expect(server.received[2]?.headers.accept).toBe('text/event-stream')
  })

  it("pages the docs' List Agents by nextCursor until it is left out, and reads each latest run with Get A Run", async () => {
    server.handle((req, res) => {
      if (req.url.startsWith('/v1/agents?')) {
        json(res, 200, req.url.includes('cursor=') ? { items: [] } : LIST_AGENTS)
        return
      }
      json(res, 200, RUN)
    })
    const client = createCursorClient({ apiKey: KEY, account: 'me', baseUrl: server.url })
    try {
      const [task] = await client.poll()
      expect(task).toMatchObject({
        id: AGENT.id,
        status: 'completed',
        project: { name: 'your-org/your-repo' },
        links: { pullRequests: [{ url: 'https://github.com/your-org/your-repo/pull/123' }] }
      })
      expect(client.latestRuns().get(AGENT.id)?.durationMs).toBe(12357)
    } finally {
      await client.close()
    }
    expect(server.received.map((r) => r.url)).toEqual([
      '/v1/agents?limit=100',
      `/v1/agents?limit=100&cursor=${LIST_AGENTS.nextCursor}`,
      `/v1/agents/${AGENT.id}/runs/${AGENT.latestRunId}`
    ])
  })

  it('words a 409 agent_archived: the agent is archived, the message was not sent', async () => {
    server.handle((_req, res) => json(res, 409, AGENT_ARCHIVED))
    const client = createCursorClient({ apiKey: KEY, account: 'me', baseUrl: server.url })
    try {
      const refused = await client.followUp(AGENT.id, 'More').catch((e: unknown) => e)
      expect(refused).toMatchObject({ status: 409, kind: 'bad_request' })
      expect((refused as Error).message).toMatch(/archived: your message was not sent. Unarchive it/)
    } finally {
      await client.close()
    }
  })
})

describe('Cursor paging and reads', () => {
  const client = () => createCursorClient({ apiKey: KEY, account: 'me', baseUrl: server.url })

  it('stops on a nextCursor given again, an empty or absent one, and after MAX_PAGES', async () => {
    const pages = async (answer: (n: number) => unknown) => {
      server.received.length = 0
      let n = 0
      server.handle((_req, res) => json(res, 200, answer(n++)))
      const c = client()
      try {
        await c.listAgents()
      } finally {
        await c.close()
      }
      return server.received.length
    }
    expect(await pages(() => ({ items: [], nextCursor: 'same' }))).toBe(2)
    expect(await pages(() => ({ items: [], nextCursor: '' }))).toBe(1)
    expect(await pages(() => ({ items: [], nextCursor: null }))).toBe(1)
    expect(await pages((n) => ({ items: [], nextCursor: `c ${n}` }))).toBe(MAX_PAGES)
    expect(server.received[1]?.url).toBe(`/v1/agents?limit=${PAGE_SIZE}&cursor=c%200`)
  })

  it("lists an agent's runs over every page, or one page of a size asked", async () => {
    server.handle((req, res) =>
      json(res, 200, req.url.includes('cursor=') ? LIST_RUNS : { ...LIST_RUNS, nextCursor: 'r2' })
    )
    const c = client()
    try {
      expect(await c.listRuns(AGENT.id)).toHaveLength(2)
      expect(await c.listRuns(AGENT.id, { limit: 1 })).toHaveLength(1)
      await c.me()
    } finally {
      await c.close()
    }
    expect(server.received.map((r) => r.url)).toEqual([
      `/v1/agents/${AGENT.id}/runs?limit=${PAGE_SIZE}`,
      `/v1/agents/${AGENT.id}/runs?limit=${PAGE_SIZE}&cursor=r2`,
      `/v1/agents/${AGENT.id}/runs?limit=1`,
      '/v1/me'
    ])
  })

  it('an agent without a latest run is read by its newest run from List Runs, or stays without a run', async () => {
    const { latestRunId: _none, ...fresh } = AGENT
    let runs: unknown[] = LIST_RUNS.items
    server.handle((req, res) =>
      req.url.startsWith('/v1/agents?') ? json(res, 200, { items: [fresh] }) : json(res, 200, { items: runs })
    )
    const c = client()
    try {
      expect((await c.poll())[0]).toMatchObject({ status: 'running' })
      runs = []
      expect((await c.poll())[0]).toMatchObject({ status: 'unknown' })
      expect(c.latestRuns().size).toBe(0)
    } finally {
      await c.close()
    }
    expect(server.received[1]?.url).toBe(`/v1/agents/${AGENT.id}/runs?limit=1`)
  })

  it('names what it could not read, and reports a dropped record by its resource', async () => {
    const dropped: string[] = []
    server.handle((req, res) =>
      req.url.startsWith('/v1/agents?') || req.url.includes('/runs?')
        ? json(res, 200, { items: [{ name: 'no id' }] })
        : json(res, 200, '')
    )
    const c = createCursorClient({
      apiKey: KEY,
      account: 'me',
      baseUrl: server.url,
      onDropped: (d) => dropped.push(`${d.resource} ${d.path}`)
    })
    try {
      expect(await c.listAgents()).toEqual([])
      expect(await c.listRuns('bc-1')).toEqual([])
      expect(await c.listRuns('bc-1', { limit: 1 })).toEqual([])
      expect((await failure(c.getRun('bc-1', 'run-1'))).message).toBe(
        'The service sent an empty body where a run was expected.'
      )
      expect((await failure(c.getRun('bc-1', '..'))).message).toBe('A run id is required and cannot be "..".')
      expect((await failure(c.followUp('', 'x'))).message).toBe('An agent id is required and cannot be "".')
    } finally {
      await c.close()
    }
    expect(dropped).toEqual(['agent items[0].id', 'run items[0].id', 'run items[0].id'])
  })

  it('says an empty list body is not a list of agents or runs', async () => {
    server.handle((_req, res) => json(res, 200, ''))
    const c = client()
    try {
      expect((await failure(c.listAgents())).message).toContain('where a list of agents was expected')
      expect((await failure(c.listRuns('bc-1'))).message).toContain('where a list of runs was expected')
      expect((await failure(c.listRuns('bc-1', { limit: 1 }))).message).toContain('where a list of runs was expected')
    } finally {
      await c.close()
    }
    const none = createCursorClient({ apiKey: ' ', account: 'me', baseUrl: server.url })
    try {
      expect((await failure(none.me())).message).toBe('No Cursor key is set: add one.')
    } finally {
      await none.close()
    }
  })
})

describe('Cursor refusals and the end of the client', () => {
  it('a 401 names the account, a run it cannot read says so, and nothing is sent once closed', async () => {
    server.handle((req, res) => (req.url === '/v1/me' ? json(res, 401, UNAUTHORIZED) : json(res, 200, [])))
    const c = createCursorClient({ apiKey: KEY, account: 'me at work', baseUrl: server.url })
    expect((await failure(c.me())).message).toMatch(/^Cursor rejected the API key of Cursor account "me at work"/)
    expect((await failure(c.getRun('bc-1', 'run-1'))).message).toMatch(/^The service sent a run we cannot read/)
    await c.close()
    const sent = server.received.length
    await expect(c.me()).rejects.toThrow()
    expect(server.received).toHaveLength(sent)
  })
})
