// What the Cursor client puts on the wire, seen by a plain loopback server: the key as the Basic user with an empty
// password, in the Authorization header only (lists, follow-ups and the event stream alike), never in a URL.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AGENT, AGENT_ARCHIVED, LIST_AGENTS, RUN } from '../../../reference-service/cursor/docs-examples'
import { json, startTestServer, type TestServer } from '../test-server'
import { createCursorClient } from './client'
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
