// The Agent tasks API for one account: the user's tasks (or one repository's), paged by the Link header and asked
// conditionally; one task with its sessions. Each request waits for the pacer (etiquette.ts); a request made too early
// is refused here, never sent.
import type { ProviderTask } from '../../../shared/provider'
import type { RawResponse } from '../../client/http'
import { ServiceError } from '../../client/service-error'
import { decodeJson, readList, readOne, type ReportDropped } from '../records'
import { createTransport, pathSegment, type Transport } from '../transport'
import { githubError } from './errors'
import { GithubPacer } from './etiquette'
import { GITHUB, toProviderTask } from './mapping'
import { type GithubTask, sessionSchema, taskSchema } from './schemas'

/** The API version the adapter was written against (mapping.ts). */
export const GITHUB_API_VERSION = '2026-03-10'
/** The most the API gives a page. */
export const PAGE_SIZE = 100
/** 1,000 tasks: the newest changed first, so what is past this has not moved for a long time. */
export const MAX_PAGES = 10

export interface GithubClientOptions {
  token: string
  /** The account's name, for the words of an error. */
  account: string
  baseUrl?: string
  now?: () => number
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number }
  onDropped?: ReportDropped
}

export type TaskList = { changed: false } | { changed: true; tasks: ProviderTask[] }

export interface GithubClient {
  /** Every task of the user, or of one repository; `changed: false` when GitHub answered 304 (free). */
  listTasks(options?: { repository?: { owner: string; repo: string }; signal?: AbortSignal }): Promise<TaskList>
  /** One task with its sessions (steps and cost). */
  getTask(taskId: string, signal?: AbortSignal): Promise<ProviderTask>
  readonly pacer: GithubPacer
  close(): Promise<void>
}

/** The rel="…" targets of a Link header. */
export function parseLink(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (!header) return out
  for (const part of header.split(/,(?=\s*<)/)) {
    const m = part.match(/^\s*<([^>]*)>\s*((?:;\s*[^;]*)*)$/)
    if (!m) continue
    const rel = (m[2] as string).match(/;\s*rel\s*=\s*"?([^";]+)"?/i)
    if (!rel) continue
    for (const name of (rel[1] as string).trim().split(/\s+/)) out[name.toLowerCase()] ??= m[1] as string
  }
  return out
}

/** An ETag we can send back as is: visible ASCII, a sane length. */
function usableEtag(value: string | undefined): string | null {
  return value !== undefined && value.length <= 1024 && /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value)
    ? value
    : null
}

export function createGithubClient(options: GithubClientOptions): GithubClient {
  const now = options.now ?? Date.now
  const pacer = new GithubPacer(now)
  const report: ReportDropped = options.onDropped ?? (() => {})
  const transport: Transport = createTransport({
    baseUrl: options.baseUrl ?? GITHUB.defaultBaseUrl,
    secret: options.token,
    authHeaders: (token) => ({ authorization: `Bearer ${token}` }),
    headers: { accept: 'application/vnd.github+json', 'x-github-api-version': GITHUB_API_VERSION },
    serviceName: 'GitHub',
    timeouts: options.timeouts
  })
  const context = { account: options.account, redact: transport.redact }

  /** One GET of `key`'s endpoint, paced; a non-2xx non-304 answer is thrown as its error. */
  async function get(key: string, path: string, signal?: AbortSignal, etag?: string | null): Promise<RawResponse> {
    const wait = pacer.waitMs(key)
    if (wait > 0) {
      throw new ServiceError(
        'rate_limited',
        `Not asking GitHub yet for account "${options.account}": it asked for ${Math.ceil(wait / 1000)} s more between requests.`,
        { retryAfterMs: wait }
      )
    }
    const res = await transport.send({
      method: 'GET',
      path,
      signal,
      ...(etag ? { headers: { 'if-none-match': etag } } : {})
    })
    if ((res.status >= 200 && res.status < 300) || res.status === 304) {
      pacer.answered(key, res.headers)
      return res
    }
    const refusal = pacer.refused(res.status, res.headers, res.text)
    if (refusal === null) pacer.answered(key, res.headers)
    throw githubError(res.status, res.headers, transport.redact(res.text), refusal, context)
  }

  function tasksOf(res: RawResponse): GithubTask[] {
    const json = decodeJson(transport.redact(res.text), 'a list of agent tasks')
    return readList(json, 'tasks', taskSchema, 'task', report).map(({ rawSessions: _, ...t }) => t)
  }

  return {
    pacer,
    async listTasks({ repository, signal } = {}) {
      const base = repository
        ? `/agents/repos/${pathSegment(repository.owner, 'repository owner')}/${pathSegment(repository.repo, 'repository name')}/tasks`
        : '/agents/tasks'
      const key = base
      const first = await get(key, `${base}?per_page=${PAGE_SIZE}`, signal, pacer.etag(key))
      if (first.status === 304) return { changed: false }
      const tasks = tasksOf(first)
      let next = parseLink(first.headers.link).next
      for (let page = 1; next !== undefined && page < MAX_PAGES; page++) {
        const path = transport.relativePath(next)
        // A next page on another origin would take the token there: stop at what was read.
        if (path === null) break
        const res = await get(`${key}#${page + 1}`, path, signal)
        tasks.push(...tasksOf(res))
        next = parseLink(res.headers.link).next
      }
      pacer.setEtag(key, usableEtag(first.headers.etag))
      return { changed: true, tasks: tasks.map(toProviderTask) }
    },
    async getTask(taskId, signal) {
      const path = `/agents/tasks/${pathSegment(taskId, 'task id')}`
      const res = await get(path, path, signal)
      const json = decodeJson(transport.redact(res.text), 'an agent task')
      const { rawSessions, ...task } = readOne(json, taskSchema, 'an agent task')
      const sessions = readList({ sessions: rawSessions ?? [] }, 'sessions', sessionSchema, 'session', report)
      return toProviderTask({ ...task, sessions })
    },
    close: () => transport.close()
  }
}
