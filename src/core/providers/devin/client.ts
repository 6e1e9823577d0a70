// The Devin API for one account. Which API answers is told by the key (`cog_` → v3, `apk_` → v1) or else by the
// service (GET /v3/self answers a v3 key with its org_id; a refusal there is tried on v1). v3 lists sessions by cursor
// and, between full reads, only those updated after the last seen; each session's messages (its steps) are read
// again only when its updated_at moved. Reply sends a message. The key goes in the Authorization header only.
import type { ProviderTask } from '../../../shared/provider'
import type { RawResponse } from '../../client/http'
import { isServiceError, ServiceError } from '../../client/service-error'
import { decodeJson, readList, readOne, type ReportDropped } from '../records'
import { type AdapterClientOptions, createTransport, pathSegment } from '../transport'
import { devinError, type DevinNeed, NEED_READ, NEED_REPLY } from './errors'
import { DEVIN, toProviderTask } from './mapping'
import {
  type DevinApi,
  type DevinMessage,
  type DevinSession,
  messageSchema,
  selfSchema,
  v1SessionSchema,
  v3SessionSchema
} from './schemas'

/** v3's largest page (`first`, 1–200). */
export const V3_PAGE_SIZE = 200
/** v1's default and the page asked (`limit`). */
export const V1_PAGE_SIZE = 100
/** A bound on pages per list, so a server that always says "more" cannot keep a poll going. */
export const MAX_PAGES = 10
/** Every this many polls the whole list is read again (a session gone from it is dropped then). */
export const FULL_READ_EVERY = 10

export interface DevinClientOptions extends AdapterClientOptions {
  apiKey: string
}

export type DevinRoute = { api: 'v3'; orgId: string } | { api: 'v1' }

export interface DevinClient {
  /** Which API this key speaks, learned once. */
  route(signal?: AbortSignal): Promise<DevinRoute>
  listSessions(signal?: AbortSignal, updatedAfter?: number): Promise<DevinSession[]>
  listMessages(sessionId: string, signal?: AbortSignal): Promise<DevinMessage[]>
  /** Every session as a task; messages (steps, what is asked) read only for sessions whose updated_at moved. */
  poll(signal?: AbortSignal): Promise<ProviderTask[]>
  sendMessage(sessionId: string, message: string, signal?: AbortSignal): Promise<void>
  close(): Promise<void>
}

/** The API a key's prefix names, or null when only the service can tell. */
export function apiOfKey(key: string): DevinApi | null {
  const k = key.trim()
  if (k.startsWith('cog_')) return 'v3'
  if (k.startsWith('apk_')) return 'v1'
  return null
}

const seconds = (iso: string | null): number | null => (iso === null ? null : Math.floor(Date.parse(iso) / 1000))

export function createDevinClient(options: DevinClientOptions): DevinClient {
  const report: ReportDropped = options.onDropped ?? (() => {})
  const transport = createTransport({
    baseUrl: options.baseUrl ?? DEVIN.defaultBaseUrl,
    secret: options.apiKey,
    authHeaders: (key) => ({ authorization: `Bearer ${key}` }),
    serviceName: 'Devin',
    timeouts: options.timeouts,
    now: options.now
  })
  const context = { account: options.account, redact: transport.redact }
  let routed: Promise<DevinRoute> | null = null
  /** The sessions known, by id, and the newest updated_at seen (seconds), for `updated_after`. */
  let known = new Map<string, DevinSession>()
  let since: number | null = null
  let polls = 0
  /** Each session's messages and the updated_at they were read at. */
  const read = new Map<string, { updatedAt: string | null; messages: DevinMessage[] }>()

  const send = (
    method: 'GET' | 'POST',
    path: string,
    need: DevinNeed,
    signal?: AbortSignal,
    body?: unknown
  ): Promise<RawResponse> =>
    transport.ok({ method, path, signal, ...(body !== undefined ? { body } : {}) }, (status, text, retryAfterMs) =>
      devinError(status, text, retryAfterMs, { ...context, need })
    )
  const json = async (path: string, what: string, signal?: AbortSignal, need: DevinNeed = NEED_READ) =>
    decodeJson(transport.redact((await send('GET', path, need, signal)).text), what)

  async function learnRoute(signal?: AbortSignal): Promise<DevinRoute> {
    if (apiOfKey(options.apiKey) === 'v1') return { api: 'v1' }
    try {
      const self = readOne(await json('/v3/self', 'who the key is', signal), selfSchema, 'who the key is')
      if (self.orgId === null) {
        throw new ServiceError(
          'auth',
          `The API key of Devin account "${options.account}" belongs to no single organization (an enterprise ` +
            'service user): use a key of a service user made in the organization whose sessions you want to watch.'
        )
      }
      return { api: 'v3', orgId: self.orgId }
    } catch (e) {
      // A key the prefix does not name, refused by v3, may be a v1 key: v1 decides.
      const refused = isServiceError(e) && (e.status === 401 || e.status === 403 || e.status === 404)
      if (!refused || apiOfKey(options.apiKey) === 'v3') throw e
      await send('GET', `/v1/sessions?limit=1`, NEED_READ, signal)
      return { api: 'v1' }
    }
  }

  const client: DevinClient = {
    route(signal) {
      routed ??= learnRoute(signal).catch((e: unknown) => {
        routed = null
        throw e
      })
      return routed
    },
    async listSessions(signal, updatedAfter) {
      const route = await client.route(signal)
      const out: DevinSession[] = []
      if (route.api === 'v1') {
        for (let page = 0; page < MAX_PAGES; page++) {
          const j = await json(
            `/v1/sessions?limit=${V1_PAGE_SIZE}&offset=${page * V1_PAGE_SIZE}`,
            'a list of sessions',
            signal
          )
          const items = readList(j, 'sessions', v1SessionSchema, 'session', report)
          out.push(...items)
          const count = typeof j === 'object' && j !== null && Array.isArray((j as { sessions?: unknown }).sessions)
          if (!count || (j as { sessions: unknown[] }).sessions.length < V1_PAGE_SIZE) break
        }
        return out
      }
      const base = `/v3/organizations/${pathSegment(route.orgId, 'organization id')}/sessions?first=${V3_PAGE_SIZE}`
      const filter = updatedAfter !== undefined ? `&updated_after=${updatedAfter}` : ''
      let after: string | undefined
      for (let page = 0; page < MAX_PAGES; page++) {
        const cursor = after !== undefined ? `&after=${encodeURIComponent(after)}` : ''
        const j = await json(`${base}${filter}${cursor}`, 'a list of sessions', signal)
        out.push(...readList(j, 'items', v3SessionSchema, 'session', report))
        const next = nextCursor(j)
        if (next === null || next === after) break
        after = next
      }
      return out
    },
    async listMessages(sessionId, signal) {
      const route = await client.route(signal)
      const id = pathSegment(sessionId, 'session id')
      if (route.api === 'v1') {
        const j = await json(`/v1/sessions/${id}`, 'a session', signal)
        return readList(j, 'messages', messageSchema, 'message', report)
      }
      const base = `/v3/organizations/${pathSegment(route.orgId, 'organization id')}/sessions/${id}/messages?first=${V3_PAGE_SIZE}`
      const out: DevinMessage[] = []
      let after: string | undefined
      for (let page = 0; page < MAX_PAGES; page++) {
        const cursor = after !== undefined ? `&after=${encodeURIComponent(after)}` : ''
        const j = await json(`${base}${cursor}`, 'a list of messages', signal)
        out.push(...readList(j, 'items', messageSchema, 'message', report))
        const next = nextCursor(j)
        if (next === null || next === after) break
        after = next
      }
      return out
    },
    async poll(signal) {
      const route = await client.route(signal)
      const full = route.api === 'v1' || since === null || polls % FULL_READ_EVERY === 0
      polls++
      // One second back: updated_after may be strict, and a session updated in the same second must not be missed.
      const sessions = await client.listSessions(signal, full ? undefined : (since as number) - 1)
      if (full) known = new Map()
      for (const s of sessions) known.set(s.id, s)
      for (const id of read.keys()) if (!known.has(id)) read.delete(id)
      for (const s of known.values()) {
        const t = seconds(s.updatedAt)
        if (t !== null && (since === null || t > since)) since = t
      }
      // One at a time: an account's sessions rarely move together, and Devin documents no concurrency allowance.
      for (const s of known.values()) {
        const had = read.get(s.id)
        if (had !== undefined && had.updatedAt === s.updatedAt) continue
        read.set(s.id, { updatedAt: s.updatedAt, messages: await client.listMessages(s.id, signal) })
      }
      return [...known.values()].map((s) => toProviderTask(s, read.get(s.id)?.messages))
    },
    async sendMessage(sessionId, message, signal) {
      const route = await client.route(signal)
      const id = pathSegment(sessionId, 'session id')
      const path =
        route.api === 'v1'
          ? `/v1/sessions/${id}/message`
          : `/v3/organizations/${pathSegment(route.orgId, 'organization id')}/sessions/${id}/messages`
      await send('POST', path, NEED_REPLY, signal, { message })
      // updated_at counts seconds: a reply in the second of the last read would not move it, so read its messages anew.
      read.delete(sessionId)
    },
    close: () => transport.close()
  }
  return client
}

/** The cursor of the next page, or null on the last (has_next_page false, or no end_cursor). */
function nextCursor(json: unknown): string | null {
  if (typeof json !== 'object' || json === null) return null
  const { has_next_page: more, end_cursor: cursor } = json as { has_next_page?: unknown; end_cursor?: unknown }
  return more === true && typeof cursor === 'string' && cursor !== '' ? cursor : null
}
