// The service client: the seven endpoints of docs/service-interface.md §4 over one shared agent,
// with retries for reads, typed errors, and every body parsed at the edge.
import pkg from '../../../package.json' with { type: 'json' }
import { checkBaseUrl as checkSharedBaseUrl } from '../../shared/base-url'
import type {
  Project,
  ProjectCreate,
  ProjectUpdate,
  PublishResult,
  StepsAndUsages,
  Task,
  TaskStep
} from '../../shared/service'
import { PROJECT_UPDATE_FIELDS } from '../../shared/service'
import { ACCEPT_ENCODING, countAttempts, exchange, type RawResponse } from './http'
import { errorForStatus, isServiceError, ServiceError, type ServiceErrorDetails } from './service-error'

type RawHeaders = RawResponse['headers']
import { secretRedactor } from '../secrets/redact'
import { sleep as realSleep } from '../sleep'
import type { TaskDigestsIfChanged } from './digest'
import { decideKeyCheck, KEY_CHECK_PROJECT_ID, madeUpKeyLike } from './key-check'
import {
  decodeJson,
  type InvalidRecordIssue,
  parseProject,
  parseProjects,
  parsePublishResult,
  parseSteps,
  parseStepsAndUsages,
  parseTask,
  parseTaskDigests,
  parseTasks
} from './parse'
import { leaseAgent } from './pool'
import { DEFAULT_RETRY, isRetryable, parseRetryAfter, retryDelay, type RetryPolicy } from './retry'

export interface ServiceClientOptions {
  baseUrl: string
  apiKey: string
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number }
  maxResponseBytes?: number
  retry?: { retries?: number; baseDelayMs?: number; maxDelayMs?: number }
  /** [0,1), for jitter. */
  random?: () => number
  /** Epoch ms, for Retry-After dates. */
  now?: () => number
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
  onInvalidRecord?: (issue: InvalidRecordIssue) => void
  /** Request accounting (benchmarks): one call per HTTP answer received, retries included (an undici interceptor). */
  onResponse?: (info: { method: string; path: string; status: number; bytes: number; ms: number }) => void
}

export interface ServiceClient {
  createProject(body: ProjectCreate, signal?: AbortSignal): Promise<Project>
  getProject(projectId: string, signal?: AbortSignal): Promise<Project>
  updateProject(projectId: string, body: ProjectUpdate, signal?: AbortSignal): Promise<Project>
  listTasks(projectId: string, signal?: AbortSignal): Promise<Task[]>
  /** The task list only if it changed since `etag` (If-None-Match; null asks unconditionally). */
  listTasksIfChanged(projectId: string, etag: string | null, signal?: AbortSignal): Promise<TasksIfChanged>
  /** As listTasksIfChanged, as digests: an ended task's steps are not built, as the monitor keeps no more of them. */
  listTaskDigestsIfChanged(projectId: string, etag: string | null, signal?: AbortSignal): Promise<TaskDigestsIfChanged>
  /** A `{status:'failed'}` answer is returned, not thrown: the caller decides. */
  publish(projectId: string, hostname: string, signal?: AbortSignal): Promise<PublishResult>
  listSteps(taskId: string, signal?: AbortSignal): Promise<TaskStep[]>
  getStepsAndUsages(taskId: string, signal?: AbortSignal): Promise<StepsAndUsages>
  /** Accepted → true; rejected → false; an answer that does not depend on the key throws (not_found for 404, else
   * bad_request), as do network failures and busy or failing answers. */
  checkKey(signal?: AbortSignal): Promise<boolean>
  /** Outside the interface document, so a server answering 404 or 405 gives `unsupported`. */
  listProductProjects(productId: string, order: 'asc' | 'desc', signal?: AbortSignal): Promise<Project[]>
  /** Outside the interface document: a 405, or a 404 for a project that exists, is `unsupported`; a 404 for a
   * missing project is not_found. */
  createTask(input: TaskCreate, signal?: AbortSignal): Promise<Task>
  close(): Promise<void>
}

/** What starting a task takes (all required by the real service). */
export interface TaskCreate {
  projectId: string
  name: string
  textRequirement: string
}

export const DEFAULT_TIMEOUTS = { connectMs: 5_000, headersMs: 10_000, bodyMs: 30_000 } as const
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024
export const USER_AGENT = `agent-tray/${pkg.version}`

type Method = 'GET' | 'POST' | 'PATCH'

/** A conditional task list: `changed: false` when the server answered 304 Not Modified. */
export type TasksIfChanged = { changed: true; tasks: Task[]; etag: string | null } | { changed: false }

interface Conditional<T> {
  ifNoneMatch: string
  /** The result of a 304. */
  unchanged: () => T
}

/** The base URL checked by shared/base-url.ts's one rule, so no client ever sends the key in clear to another
 * machine. Path prefix kept. */
export function checkBaseUrl(baseUrl: string): { origin: string; prefix: string } {
  const checked = checkSharedBaseUrl(baseUrl)
  if (!checked.ok) throw new ServiceError('bad_request', checked.problem)
  return { origin: checked.origin, prefix: checked.baseUrl.slice(checked.origin.length) }
}

/** One path segment: encoded, and never '.' or '..' (a server could resolve those). */
function segment(value: string, what: string): string {
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
    throw new ServiceError('bad_request', `A ${what} id is required and cannot be "${String(value)}".`)
  }
  return encodeURIComponent(value)
}

/** An ETag we can send back as is: visible ASCII, a sane length; anything else is ignored. */
function usableEtag(value: string | undefined): string | null {
  return value !== undefined && value.length <= 1024 && /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value)
    ? value
    : null
}

/** A detail's texts, each redacted. */
function redactDetails(details: ServiceErrorDetails, redact: (text: string) => string): ServiceErrorDetails {
  return Object.fromEntries(
    Object.entries(details).map(([k, v]) => [k, typeof v === 'string' ? redact(v) : v])
  ) as ServiceErrorDetails
}

/** The ServiceError `run` throws, if it throws one. */
function rethrown(run: () => unknown): ServiceError | undefined {
  try {
    run()
  } catch (e) {
    if (isServiceError(e)) return e
  }
  return undefined
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback
}

export function createServiceClient(options: ServiceClientOptions): ServiceClient {
  const { origin, prefix } = checkBaseUrl(options.baseUrl)
  const apiKey = options.apiKey.trim()
  const timeouts = {
    connectMs: positive(options.timeouts?.connectMs, DEFAULT_TIMEOUTS.connectMs),
    headersMs: positive(options.timeouts?.headersMs, DEFAULT_TIMEOUTS.headersMs),
    bodyMs: positive(options.timeouts?.bodyMs, DEFAULT_TIMEOUTS.bodyMs)
  }
  const maxBytes = positive(options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES)
  const policy: RetryPolicy = {
    retries: Math.max(0, Math.floor(options.retry?.retries ?? DEFAULT_RETRY.retries)),
    baseDelayMs: positive(options.retry?.baseDelayMs, DEFAULT_RETRY.baseDelayMs),
    maxDelayMs: positive(options.retry?.maxDelayMs, DEFAULT_RETRY.maxDelayMs)
  }
  const random = options.random ?? Math.random
  const now = options.now ?? Date.now
  const sleep = options.sleep ?? realSleep
  const report = (issue: InvalidRecordIssue) => {
    try {
      options.onInvalidRecord?.(issue)
    } catch {
      // A failing listener must not cost the caller the records that did parse.
    }
  }
  const lease = leaseAgent(timeouts.connectMs)
  const onResponse = options.onResponse
  // Counted where undici dispatches, so each attempt is seen whoever repeats it; by the path asked for.
  const dispatcher = onResponse
    ? lease.agent.compose(countAttempts((a) => onResponse({ ...a, path: a.path.slice(prefix.length) })))
    : lease.agent
  let closed = false

  // The key as sent, JSON-escaped or URL-encoded (core/secrets/redact.ts).
  const redact = secretRedactor([apiKey], '[api key]')
  const scrub = (e: ServiceError, redactNow: (text: string) => string = redact): ServiceError => {
    const message = redactNow(e.message)
    const details = e.details ? redactDetails(e.details, redactNow) : undefined
    // The stack holds the message it was built with: an error whose text had no key is kept as is.
    if (message === e.message && JSON.stringify(details) === JSON.stringify(e.details)) return e
    return new ServiceError(e.kind, message, { status: e.status, retryAfterMs: e.retryAfterMs, details })
  }

  function keyProblem(): ServiceError | undefined {
    if (apiKey === '') return new ServiceError('auth', 'No API key is set: add one.')
    // Only visible ASCII can travel in a header; say so without echoing the key.
    if (!/^[\x21-\x7e]+$/.test(apiKey)) {
      return new ServiceError(
        'auth',
        'The API key contains characters that cannot be sent (spaces, line breaks or non-ASCII): check it.'
      )
    }
    return undefined
  }

  async function call<T>(
    method: Method,
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
    what: string,
    parse: (json: unknown, headers: RawHeaders) => T,
    conditional?: Conditional<T>,
    key: string = apiKey,
    /** false: `parse` gets the body's text, whatever it is (the key check reads only statuses). */
    decode = true
  ): Promise<T> {
    if (closed) throw new ServiceError('network', 'The service client was closed.')
    const problem = keyProblem()
    if (problem) throw problem
    // The key check's made-up key is redacted like ours: a service may echo either.
    const redactSent = key === apiKey ? redact : secretRedactor([apiKey, key], '[api key]')
    const scrubSent = (e: ServiceError): ServiceError => scrub(e, redactSent)
    const headers: Record<string, string> = {
      'x-api-key': key,
      accept: 'application/json',
      'accept-encoding': ACCEPT_ENCODING,
      'user-agent': USER_AGENT
    }
    const payload = body === undefined ? undefined : JSON.stringify(body)
    if (payload !== undefined) headers['content-type'] = 'application/json'
    if (conditional) headers['if-none-match'] = conditional.ifNoneMatch

    for (let attempt = 0; ; attempt++) {
      let error: ServiceError
      try {
        const res = await exchange(dispatcher, {
          origin,
          method,
          path: prefix + path,
          headers,
          body: payload,
          signal,
          ...timeouts,
          maxBytes
        })
        if (res.status === 304 && conditional) return conditional.unchanged()
        if (res.status >= 200 && res.status < 300) {
          let json: unknown
          try {
            json = decode ? decodeJson(res.text, what) : res.text
          } catch (e) {
            // Its message quotes the body's start, cut short: quote the redacted body instead, so no
            // part of a key echoed there is cut off and kept.
            throw isServiceError(e) ? scrubSent(rethrown(() => decodeJson(redactSent(res.text), what)) ?? e) : e
          }
          try {
            return parse(json, res.headers)
          } catch (e) {
            throw isServiceError(e) ? scrubSent(e) : e
          }
        }
        const retryAfterMs = parseRetryAfter(res.headers['retry-after'], now())
        error = errorForStatus(res.status, redactSent(res.text), retryAfterMs, redactSent)
      } catch (e) {
        if (!isServiceError(e) || e.kind === 'invalid_response') throw isServiceError(e) ? scrubSent(e) : e
        error = e
      }
      error = scrubSent(error)
      if (attempt >= policy.retries || !isRetryable(method, error)) throw error
      const wait = retryDelay(attempt, error.retryAfterMs, random, policy)
      if (wait === null) throw error
      await sleep(wait, signal)
    }
  }

  /** GET a project's task list, read by `read`, only if it changed since `etag` (null: unconditionally). */
  function conditionalList<T>(
    projectId: string,
    etag: string | null,
    signal: AbortSignal | undefined,
    read: (json: unknown, report: (issue: InvalidRecordIssue) => void) => T[]
  ): Promise<{ changed: true; tasks: T[]; etag: string | null } | { changed: false }> {
    type Answer = { changed: true; tasks: T[]; etag: string | null } | { changed: false }
    const path = `/projects/${segment(projectId, 'project')}/tasks`
    const parse = (j: unknown, headers: RawHeaders): Answer => ({
      changed: true,
      tasks: read(j, report),
      etag: usableEtag(headers.etag)
    })
    const conditional: Conditional<Answer> | undefined =
      etag === null ? undefined : { ifNoneMatch: etag, unchanged: () => ({ changed: false }) }
    return call('GET', path, undefined, signal, 'a list of tasks', parse, conditional)
  }

  return {
    createProject: (body, signal) => call('POST', '/projects', body, signal, 'a project', parseProject),
    getProject: async (projectId, signal) =>
      call('GET', `/projects/${segment(projectId, 'project')}`, undefined, signal, 'a project', parseProject),
    updateProject: async (projectId, body, signal) => {
      const path = `/projects/${segment(projectId, 'project')}`
      const update: ProjectUpdate = {}
      for (const field of PROJECT_UPDATE_FIELDS) if (body[field] !== undefined) update[field] = body[field]
      return call('PATCH', path, update, signal, 'a project', parseProject)
    },
    listTasks: async (projectId, signal) =>
      call('GET', `/projects/${segment(projectId, 'project')}/tasks`, undefined, signal, 'a list of tasks', (j) =>
        parseTasks(j, report)
      ),
    listTasksIfChanged: async (projectId, etag, signal) => conditionalList(projectId, etag, signal, parseTasks),
    listTaskDigestsIfChanged: async (projectId, etag, signal) =>
      conditionalList(projectId, etag, signal, parseTaskDigests),
    publish: async (projectId, hostname, signal) =>
      call(
        'POST',
        `/projects/${segment(projectId, 'project')}/publish`,
        { hostname },
        signal,
        'a publish result',
        parsePublishResult
      ),
    listSteps: async (taskId, signal) =>
      call('GET', `/tasks/${segment(taskId, 'task')}/steps`, undefined, signal, 'a list of steps', (j) =>
        parseSteps(j, report)
      ),
    getStepsAndUsages: async (taskId, signal) =>
      call('GET', `/tasks/${segment(taskId, 'task')}/steps-and-usages`, undefined, signal, 'steps and usages', (j) =>
        parseStepsAndUsages(j, report)
      ),
    checkKey: async (signal) => {
      if (keyProblem()) return false
      const path = `/projects/${KEY_CHECK_PROJECT_ID}`
      /** The status of a GET there with `key`; an error that is not a plain answer (busy, failing, unreachable) is thrown. */
      const answer = async (key: string): Promise<{ status: number; said?: ServiceError }> => {
        try {
          return { status: await call('GET', path, undefined, signal, 'a project', () => 200, undefined, key, false) }
        } catch (e) {
          if (isServiceError(e) && e.status !== undefined && e.kind !== 'rate_limited' && e.kind !== 'server')
            return { status: e.status, said: e }
          throw e
        }
      }
      const ours = await answer(apiKey)
      const madeUp = await answer(madeUpKeyLike(apiKey))
      const verdict = decideKeyCheck(ours.status, madeUp.status)
      if (verdict !== 'inconclusive') return verdict === 'accepted'
      const at = options.baseUrl.trim()
      if (ours.status === 404 || ours.status < 300) {
        throw new ServiceError('not_found', redact(`Nothing at ${at} looks like the service: check the URL.`))
      }
      const said = ours.said?.message.match(/ Server said: .*$/)?.[0] ?? ''
      throw new ServiceError(
        'bad_request',
        redact(
          `The key could not be checked: ${at} answers HTTP ${ours.status} to any key for a project that cannot exist.${said}`
        ),
        { status: ours.status }
      )
    },
    listProductProjects: async (productId, order, signal) => {
      const query = `software_product_id=${encodeURIComponent(productId)}&order_by=${order === 'asc' ? 'ASC' : 'DESC'}`
      try {
        return await call('GET', `/projects?${query}`, undefined, signal, 'a list of projects', (j) =>
          parseProjects(j, report)
        )
      } catch (e) {
        if (isServiceError(e) && (e.status === 404 || e.status === 405)) {
          throw new ServiceError(
            'unsupported',
            'This service cannot list the projects of a software product: add projects by their id, or by a link that holds it.',
            { status: e.status }
          )
        }
        throw e
      }
    },
    createTask: async (input, signal) => {
      const projectPath = `/projects/${segment(input.projectId, 'project')}`
      const body = {
        project_id: input.projectId,
        name: input.name,
        text_requirement: input.textRequirement,
        flow: 'new_task'
      }
      const unsupported = (status: number) =>
        new ServiceError(
          'unsupported',
          'This service does not offer starting tasks from Agent Tray: start it in the agent interface.',
          { status }
        )
      try {
        return await call('POST', '/tasks', body, signal, 'a task', parseTask)
      } catch (e) {
        if (!isServiceError(e)) throw e
        if (e.status === 405) throw unsupported(405)
        if (e.status !== 404) throw e
        // 404: the project is gone, or the endpoint is. Asking for the project tells which.
        await call('GET', projectPath, undefined, signal, 'a project', parseProject)
        throw unsupported(404)
      }
    },
    close: async () => {
      if (closed) return
      closed = true
      await lease.release()
    }
  }
}
