// The Jules API for one account: its sessions (paged by pageToken), each session's activities only when its updateTime
// moved (etiquette.ts), and the two answers a person gives: approve the plan, send a message. The key goes in
// x-goog-api-key, never in the URL.
import type { ProviderTask } from '../../../shared/provider'
import type { RawResponse } from '../../client/http'
import { decodeJson, readList, type ReportDropped } from '../records'
import { type AdapterClientOptions, createTransport, pathSegment } from '../transport'
import { julesError } from './errors'
import { ActivityBook } from './etiquette'
import { JULES, toProviderTask } from './mapping'
import { activitySchema, type JulesActivity, type JulesSession, sessionSchema } from './schemas'

/** The most the API gives a page (larger sizes are coerced to it). */
export const PAGE_SIZE = 100
/** A bound on pages per list, so a server that always sends a token cannot keep a poll going. */
export const MAX_PAGES = 20

export interface JulesClientOptions extends AdapterClientOptions {
  apiKey: string
}

export interface JulesClient {
  listSessions(signal?: AbortSignal): Promise<JulesSession[]>
  listActivities(sessionId: string, signal?: AbortSignal): Promise<JulesActivity[]>
  /** Every session as a task; activities (steps, what is asked) read only for sessions whose updateTime moved. */
  poll(signal?: AbortSignal): Promise<ProviderTask[]>
  approvePlan(sessionId: string, signal?: AbortSignal): Promise<void>
  sendMessage(sessionId: string, message: string, signal?: AbortSignal): Promise<void>
  close(): Promise<void>
}

export function createJulesClient(options: JulesClientOptions): JulesClient {
  const report: ReportDropped = options.onDropped ?? (() => {})
  const transport = createTransport({
    baseUrl: options.baseUrl ?? JULES.defaultBaseUrl,
    secret: options.apiKey,
    authHeaders: (key) => ({ 'x-goog-api-key': key }),
    serviceName: 'Jules',
    timeouts: options.timeouts,
    now: options.now
  })
  const context = { account: options.account, redact: transport.redact }
  const book = new ActivityBook()

  const send = (method: 'GET' | 'POST', path: string, signal?: AbortSignal, body?: unknown): Promise<RawResponse> =>
    transport.ok({ method, path, signal, ...(body !== undefined ? { body } : {}) }, (status, text, retryAfterMs) =>
      julesError(status, text, retryAfterMs, context)
    )

  /** Every page of a list: `key` holds its items; the next page is asked with the token the last one gave. */
  async function allPages<T>(path: string, what: string, read: (json: unknown) => T[], signal?: AbortSignal) {
    const out: T[] = []
    let token: string | undefined
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = `pageSize=${PAGE_SIZE}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`
      const res = await send('GET', `${path}?${query}`, signal)
      const json = decodeJson(transport.redact(res.text), what)
      out.push(...read(json))
      const next =
        typeof json === 'object' && json !== null ? (json as { nextPageToken?: unknown }).nextPageToken : undefined
      if (typeof next !== 'string' || next === '' || next === token) break
      token = next
    }
    return out
  }

  const sessionPath = (id: string) => `/sessions/${pathSegment(id, 'session id')}`

  const client: JulesClient = {
    listSessions: (signal) =>
      allPages(
        '/sessions',
        'a list of sessions',
        (j) => readList(j, 'sessions', sessionSchema, 'session', report),
        signal
      ),
    listActivities: (sessionId, signal) =>
      allPages(
        `${sessionPath(sessionId)}/activities`,
        'a list of activities',
        (j) => readList(j, 'activities', activitySchema, 'activity', report),
        signal
      ),
    async poll(signal) {
      const sessions = await client.listSessions(signal)
      book.keepOnly(sessions)
      // One at a time: an account's sessions rarely move together, and Jules documents no concurrency allowance.
      for (const session of book.due(sessions)) {
        book.record(session, await client.listActivities(session.id, signal))
      }
      return sessions.map((s) => toProviderTask(s, book.activities(s.id)))
    },
    async approvePlan(sessionId, signal) {
      await send('POST', `${sessionPath(sessionId)}:approvePlan`, signal, {})
    },
    async sendMessage(sessionId, message, signal) {
      await send('POST', `${sessionPath(sessionId)}:sendMessage`, signal, { prompt: message })
    },
    close: () => transport.close()
  }
  return client
}
