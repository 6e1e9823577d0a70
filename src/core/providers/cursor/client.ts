// The Cursor Cloud Agents API v1 for one account: its agents (paged by limit and cursor), each agent's latest run for
// its status, a run's steps from its event stream (stream.ts), and a reply as a follow-up run. The key is the Basic
// user with an empty password, in the Authorization header only.
import type { ProviderStep, ProviderTask } from '../../../shared/provider'
import type { RawResponse } from '../../client/http'
import { decodeJson, readList, readOne, type ReportDropped } from '../records'
import { type AdapterClientOptions, createTransport, pathSegment, type Transport } from '../transport'
import { cursorError } from './errors'
import { CURSOR, toProviderTask } from './mapping'
import { agentSchema, type CursorAgent, type CursorRun, runSchema } from './schemas'

/** The most the API gives a page. */
export const PAGE_SIZE = 100
/** A bound on pages per list, so a server that always sends a cursor cannot keep a poll going. */
export const MAX_PAGES = 20

export interface CursorClientOptions extends AdapterClientOptions {
  apiKey: string
}

export interface CursorClient {
  readonly transport: Transport
  listAgents(signal?: AbortSignal): Promise<CursorAgent[]>
  /** Newest first; `limit` asks one page of that size only. */
  listRuns(agentId: string, options?: { limit?: number; signal?: AbortSignal }): Promise<CursorRun[]>
  getRun(agentId: string, runId: string, signal?: AbortSignal): Promise<CursorRun>
  /** Every agent as a task, its status its latest run's; `steps` are those a stream gathered, by agent id. */
  poll(signal?: AbortSignal, steps?: (agentId: string) => ProviderStep[] | undefined): Promise<ProviderTask[]>
  /** The latest run of each agent the last poll read. */
  latestRuns(): Map<string, CursorRun>
  me(signal?: AbortSignal): Promise<void>
  /** A follow-up run; a 409 agent_busy says the agent is still running. */
  followUp(agentId: string, text: string, signal?: AbortSignal): Promise<void>
  close(): Promise<void>
}

export function basicAuth(key: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${key}:`, 'utf8').toString('base64')}` }
}

export function createCursorClient(options: CursorClientOptions): CursorClient {
  const report: ReportDropped = options.onDropped ?? (() => {})
  const transport = createTransport({
    baseUrl: options.baseUrl ?? CURSOR.defaultBaseUrl,
    secret: options.apiKey,
    authHeaders: basicAuth,
    serviceName: 'Cursor',
    timeouts: options.timeouts,
    now: options.now
  })
  const context = { account: options.account, redact: transport.redact }
  let latest = new Map<string, CursorRun>()

  const send = (method: 'GET' | 'POST', path: string, signal?: AbortSignal, body?: unknown): Promise<RawResponse> =>
    transport.ok({ method, path, signal, ...(body !== undefined ? { body } : {}) }, (status, text, retryAfterMs) =>
      cursorError(status, text, retryAfterMs, context)
    )

  /** Every page of a list: `items` holds them; the next page is asked with the cursor the last one gave. */
  async function allPages<T>(path: string, what: string, read: (json: unknown) => T[], signal?: AbortSignal) {
    const out: T[] = []
    let cursor: string | undefined
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = `limit=${PAGE_SIZE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
      const res = await send('GET', `${path}?${query}`, signal)
      const json = decodeJson(transport.redact(res.text), what)
      out.push(...read(json))
      const next = typeof json === 'object' && json !== null ? (json as { nextCursor?: unknown }).nextCursor : undefined
      if (typeof next !== 'string' || next === '' || next === cursor) break
      cursor = next
    }
    return out
  }

  const agentPath = (id: string) => `/v1/agents/${pathSegment(id, 'agent id')}`
  const readRuns = (j: unknown) => readList(j, 'items', runSchema, 'run', report)

  const client: CursorClient = {
    transport,
    listAgents: (signal) =>
      allPages('/v1/agents', 'a list of agents', (j) => readList(j, 'items', agentSchema, 'agent', report), signal),
    async listRuns(agentId, { limit, signal } = {}) {
      if (limit === undefined) return allPages(`${agentPath(agentId)}/runs`, 'a list of runs', readRuns, signal)
      const res = await send('GET', `${agentPath(agentId)}/runs?limit=${limit}`, signal)
      return readRuns(decodeJson(transport.redact(res.text), 'a list of runs'))
    },
    async getRun(agentId, runId, signal) {
      const res = await send('GET', `${agentPath(agentId)}/runs/${pathSegment(runId, 'run id')}`, signal)
      return readOne(decodeJson(transport.redact(res.text), 'a run'), runSchema, 'a run')
    },
    async poll(signal, steps) {
      const agents = await client.listAgents(signal)
      const next = new Map<string, CursorRun>()
      // One at a time: an account's agents rarely all move, and Cursor documents no concurrency allowance. The latest
      // run is read with Get A Run, the one the docs say holds a finished run's result, durationMs and branches.
      for (const agent of agents) {
        const run = agent.latestRunId
          ? await client.getRun(agent.id, agent.latestRunId, signal)
          : (await client.listRuns(agent.id, { limit: 1, signal }))[0]
        if (run !== undefined) next.set(agent.id, run)
      }
      latest = next
      return agents.map((a) => toProviderTask(a, next.get(a.id) ?? null, steps?.(a.id)))
    },
    latestRuns: () => latest,
    async me(signal) {
      await send('GET', '/v1/me', signal)
    },
    async followUp(agentId, text, signal) {
      await send('POST', `${agentPath(agentId)}/runs`, signal, { prompt: { text } })
    },
    close: () => transport.close()
  }
  return client
}
