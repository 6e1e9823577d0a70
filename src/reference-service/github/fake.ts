// A fake of GitHub's Agent tasks REST API (version 2026-03-10), as its documentation describes it: the user's tasks and
// a repository's, paged by Link (per_page, page), conditional GETs (ETag; a 304 is free against the rate limit),
// X-Poll-Interval, X-RateLimit-*, a Bearer token (401; a token without the permission 403 with
// X-Accepted-GitHub-Permissions), X-GitHub-Api-Version required. Faults, stats and time come from the shared pipeline.
import type { IncomingMessage } from 'node:http'
import { scriptedTaskControls } from '../agent-fake'
import { type AgentFake, type AgentFakeOptions, fakeParts, pageSize } from '../agent-fake'
import { ApiError, badRequest } from '../api-error'
import { handleCommonControl, taskIdOf } from '../control'
import { etagMatches, json, notModified, type Reply, weakEtag } from '../http'
import { header, serveFake } from '../serve'
import { asObject } from '../validate'
import { GITHUB_SCRIPTS, GITHUB_STATES, GithubTasks, wireTask, wireTaskWithSessions } from './tasks'

export const GITHUB_FAKE_API_VERSION = '2026-03-10'
/** The permission the read endpoints need, as X-Accepted-GitHub-Permissions names it. */
export const AGENT_TASKS_PERMISSION = 'agent_tasks=read'
export const DEFAULT_PER_PAGE = 30
export const MAX_PER_PAGE = 100
export const RATE_LIMIT = 5_000
const RATE_WINDOW_MS = 3_600_000
/** The seconds X-Poll-Interval asks between polls of a list. */
export const POLL_INTERVAL_SECONDS = 5
const DOCS = 'https://docs.github.com/rest/agent-tasks/agent-tasks'

/** GitHub's error body: `{message, documentation_url, status}`. */
const githubError = (status: number, message: string, headers?: Record<string, string>, docs = DOCS): Reply =>
  json(status, { message, documentation_url: docs, status: String(status) }, headers)

class Refusal extends Error {
  constructor(readonly reply: Reply) {
    super('refused')
  }
}

const refuse = (status: number, message: string, headers?: Record<string, string>): Refusal =>
  new Refusal(githubError(status, message, headers))

/** The demo's tasks: every state on the clock, one waiting for the user from the start. */
const DEMO: { title: string; repository: string; script: string; agoMs: number }[] = [
  { title: 'Fix the login button on the homepage', repository: 'octocat/hello-world', script: 'wait', agoMs: 30_000 },
  { title: 'Add a dark mode toggle', repository: 'octocat/hello-world', script: 'complete', agoMs: 0 },
  { title: 'Upgrade the test runner', repository: 'octocat/spoon-knife', script: 'fail', agoMs: 10_000 },
  { title: 'Tidy the changelog', repository: 'octocat/spoon-knife', script: 'run', agoMs: 0 },
  { title: 'Migrate CI to the new runners', repository: 'octocat/linguist', script: 'queue', agoMs: 0 },
  { title: 'Refactor the settings page', repository: 'octocat/hello-world', script: 'idle', agoMs: 7_200_000 },
  { title: 'Write the API reference', repository: 'octocat/linguist', script: 'time_out', agoMs: 86_400_000 },
  { title: 'Rename the config keys', repository: 'octocat/spoon-knife', script: 'cancel', agoMs: 3 * 86_400_000 }
]

export async function startGithubFake(options: AgentFakeOptions): Promise<AgentFake> {
  const { clock, faults, stats, keys, common } = fakeParts(options)
  const tasks = new GithubTasks(() => clock.now())
  const rate = { used: 0, resetAt: 0 }
  let apiUrl = ''

  const control: AgentFake['control'] = {
    ...common,
    ...scriptedTaskControls({
      states: GITHUB_STATES,
      scripts: GITHUB_SCRIPTS,
      add: (beats, input) =>
        tasks.add({
          title: input.title ?? 'A task',
          repository: input.repository ?? 'octocat/hello-world',
          beats,
          agoMs: input.agoMs ?? 0
        }),
      setState: (taskId, state) => tasks.setState(taskId, state),
      all: () => tasks.all(),
      demo: DEMO,
      refuse: (field, message) => badRequest(field, message),
      notFound: (taskId) => new ApiError('not_found', `No task with id "${taskId}".`)
    }),
    addLimitedKey: (key) => keys.addLimited(key)
  }

  /** The token of `Authorization: Bearer …` (or `token …`). */
  const tokenOf = (req: IncomingMessage): string | undefined =>
    header(req, 'authorization')?.match(/^\s*(?:bearer|token)\s+(\S+)\s*$/i)?.[1]

  /** The primary rate limit of the one user, on the simulated clock. */
  function rateHeaders(count: boolean): Record<string, string> {
    const now = clock.now()
    if (now >= rate.resetAt) {
      rate.used = 0
      rate.resetAt = now + RATE_WINDOW_MS
    }
    if (count) rate.used += 1
    return {
      'x-ratelimit-limit': String(RATE_LIMIT),
      'x-ratelimit-remaining': String(Math.max(0, RATE_LIMIT - rate.used)),
      'x-ratelimit-used': String(rate.used),
      'x-ratelimit-reset': String(Math.ceil(rate.resetAt / 1000)),
      'x-ratelimit-resource': 'core'
    }
  }

  function checkRequest(req: IncomingMessage): void {
    const key = keys.check(tokenOf(req))
    if (key === 'missing') throw refuse(401, 'Requires authentication')
    if (key === 'wrong') throw refuse(401, 'Bad credentials')
    if (key === 'limited')
      throw refuse(403, 'Resource not accessible by personal access token', {
        'x-accepted-github-permissions': AGENT_TASKS_PERMISSION
      })
    const version = header(req, 'x-github-api-version')
    if (version === undefined)
      throw refuse(400, `This endpoint needs the X-GitHub-Api-Version header: ${GITHUB_FAKE_API_VERSION}.`)
    if (version.trim() !== GITHUB_FAKE_API_VERSION)
      throw refuse(400, `Unsupported 'X-GitHub-Api-Version' header value '${version}'.`)
  }

  /** One page of a list, with its Link header. */
  function listPage(path: string, query: URLSearchParams, all: Record<string, unknown>[]): Reply {
    const perPage = pageSize(query.get('per_page'), DEFAULT_PER_PAGE, MAX_PER_PAGE, options.maxPageSize)
    const askedPage = Number(query.get('page') ?? '1')
    const page = Number.isInteger(askedPage) && askedPage >= 1 ? askedPage : 1
    const last = Math.max(1, Math.ceil(all.length / perPage))
    const at = (n: number) => `<${apiUrl}${path}?page=${n}&per_page=${perPage}>`
    const links = [
      ...(page < last ? [`${at(page + 1)}; rel="next"`, `${at(last)}; rel="last"`] : []),
      ...(page > 1 ? [`${at(1)}; rel="first"`, `${at(page - 1)}; rel="prev"`] : [])
    ]
    const headers: Record<string, string> = { 'x-poll-interval': String(POLL_INTERVAL_SECONDS) }
    if (links.length > 0) headers.link = links.join(', ')
    return json(200, { tasks: all.slice((page - 1) * perPage, page * perPage) }, headers)
  }

  /** Newest changed first, as a list of what moved is read. */
  const listed = (owner?: string, repo?: string) =>
    tasks
      .all()
      .filter((r) => owner === undefined || (r.owner === owner && r.repo === repo))
      .sort((a, b) => b.changedAt - a.changedAt || b.createdAt - a.createdAt)
      .map((r) => wireTask(r, apiUrl))

  const ROUTES: { key: string; pattern: RegExp; run: (m: string[], path: string, q: URLSearchParams) => Reply }[] = [
    { key: '/agents/tasks', pattern: /^\/agents\/tasks$/, run: (_m, path, q) => listPage(path, q, listed()) },
    {
      key: '/agents/repos/{owner}/{repo}/tasks',
      pattern: /^\/agents\/repos\/([^/]+)\/([^/]+)\/tasks$/,
      run: ([owner, repo], path, q) => listPage(path, q, listed(owner, repo))
    },
    {
      key: '/agents/tasks/{id}',
      pattern: /^\/agents\/tasks\/([^/]+)$/,
      run: ([id]) => one(id as string)
    },
    {
      key: '/agents/repos/{owner}/{repo}/tasks/{id}',
      pattern: /^\/agents\/repos\/([^/]+)\/([^/]+)\/tasks\/([^/]+)$/,
      run: ([owner, repo, id]) => one(id as string, owner, repo)
    }
  ]

  function one(id: string, owner?: string, repo?: string): Reply {
    const r = tasks.get(id)
    if (!r || (owner !== undefined && (r.owner !== owner || r.repo !== repo))) throw refuse(404, 'Not Found')
    return json(200, wireTaskWithSessions(r, apiUrl))
  }

  function match(path: string) {
    for (const route of ROUTES) {
      const m = route.pattern.exec(path)
      if (!m) continue
      try {
        return { route, groups: m.slice(1).map((g) => decodeURIComponent(g)) }
      } catch {
        return undefined
      }
    }
    return undefined
  }

  async function controlRoute(method: string, path: string, body: () => Promise<unknown>): Promise<Reply> {
    const shared = await handleCommonControl(common, method, path, body)
    if (shared) return shared
    const route = `${method} ${path.replace(/^tasks\/[^/]+\/state$/, 'tasks/{id}/state')}`
    switch (route) {
      case 'POST seed-demo':
        return json(200, control.seedDemo())
      case 'GET tasks':
        return json(200, control.tasks())
      case 'POST tasks':
        return json(201, control.addTask(asObject(await body())))
      case 'POST tasks/{id}/state':
        return json(200, control.setTaskState(taskIdOf(path), String(asObject(await body()).state)))
      case 'POST rate-limit': {
        const b = asObject(await body())
        if (!(Number.isInteger(b.remaining) && (b.remaining as number) >= 0))
          throw badRequest('remaining', '"remaining" must be a whole number.')
        rateHeaders(false)
        rate.used = Math.max(0, RATE_LIMIT - (b.remaining as number))
        return json(200, { remaining: RATE_LIMIT - rate.used, reset: Math.ceil(rate.resetAt / 1000) })
      }
      default:
        throw refuse(404, `No control route ${method} /__control/${path}.`)
    }
  }

  const served = await serveFake(
    { port: options.port, host: options.host, faults, stats, compression: options.compression },
    (url) => {
      apiUrl = url
      return {
        routeKey: (method, path) => `${method} ${match(path)?.route.key ?? '(unmatched)'}`,
        error: (status, message, headers) => githubError(status, message, { ...headers, ...rateHeaders(false) }),
        fromError: (e) =>
          e instanceof Refusal
            ? { ...e.reply, headers: { ...e.reply.headers, ...rateHeaders(false) } }
            : e instanceof ApiError
              ? githubError(e.status, e.message)
              : undefined,
        async control(req, method, path, body) {
          if (keys.check(tokenOf(req)) !== 'ok') throw refuse(401, 'Bad credentials')
          try {
            return await controlRoute(method, path, body)
          } catch (e) {
            // A test's mistake (a repository that is not owner/repo) is a bad request, never a failure of the fake.
            throw e instanceof Refusal || e instanceof ApiError ? e : refuse(400, (e as Error).message)
          }
        },
        async answer({ req, method, path, query }) {
          const found = match(path)
          if (!found) throw refuse(404, 'Not Found')
          if (method !== 'GET') throw refuse(404, 'Not Found')
          checkRequest(req)
          if (rateHeaders(false)['x-ratelimit-remaining'] === '0')
            throw refuse(403, 'API rate limit exceeded for user ID 1.')
          const reply = found.route.run(found.groups, path, query)
          const etag = weakEtag(reply.body)
          // A 304 is free: it does not count against the limit.
          if (etagMatches(header(req, 'if-none-match'), etag))
            return { ...notModified(etag), headers: { ...reply.headers, ...rateHeaders(false) } }
          return { ...reply, etag, headers: { ...reply.headers, ...rateHeaders(true) } }
        }
      }
    }
  )

  return {
    kind: 'github',
    url: served.url,
    baseUrl: served.url,
    control,
    close: () => served.close()
  }
}
