// A fake of the Jules API (v1alpha) as its documentation describes it: sessions and their activities paged by
// pageToken, the key in x-goog-api-key (refusals in Google's words and error body), approving a plan and sending a
// message. Faults, stats and time come from the shared pipeline.
import type { IncomingMessage } from 'node:http'
import { scriptedTaskControls } from '../agent-fake'
import { type AgentFake, type AgentFakeOptions, fakeParts, pageSize } from '../agent-fake'
import { ApiError } from '../api-error'
import { handleCommonControl, taskIdOf } from '../control'
import { json, type Reply } from '../http'
import { header, serveFake } from '../serve'
import { asObject } from '../validate'
import { JULES_SCRIPTS, JULES_STATES, JulesSessions, wireSession } from './sessions'

export const JULES_API_PREFIX = '/v1alpha'
export const DEFAULT_PAGE_SIZE = 30
export const MAX_PAGE_SIZE = 100

/** Google's canonical status for an HTTP status. */
const GOOGLE_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  421: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE'
}

/** Google's error body: `{error: {code, message, status, details?}}`. */
function googleError(
  code: number,
  message: string,
  headers?: Record<string, string>,
  extra: { status?: string; details?: unknown[] } = {}
): Reply {
  const status = extra.status ?? GOOGLE_STATUS[code] ?? (code >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION')
  return json(code, { error: { code, message, status, ...(extra.details ? { details: extra.details } : {}) } }, headers)
}

class Refusal extends Error {
  constructor(readonly reply: Reply) {
    super('refused')
  }
}
const refuse = (...args: Parameters<typeof googleError>): Refusal => new Refusal(googleError(...args))

const MISSING_KEY =
  'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.'
const KEY_INVALID = {
  message: 'API key not valid. Please pass a valid API key.',
  details: [
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'API_KEY_INVALID',
      domain: 'googleapis.com',
      metadata: { service: 'jules.googleapis.com' }
    }
  ]
}

/** The demo's sessions: every state on the clock, one waiting for its plan to be approved from the start. */
const DEMO: { title: string; repository: string; script: string; agoMs: number }[] = [
  { title: 'Add dark mode', repository: 'myorg/myrepo', script: 'plan', agoMs: 60_000 },
  { title: 'Add auth tests', repository: 'myorg/myrepo', script: 'complete', agoMs: 0 },
  { title: 'Localise the sign-up form', repository: 'myorg/webapp', script: 'ask', agoMs: 0 },
  { title: 'Update the dependencies', repository: 'myorg/webapp', script: 'fail', agoMs: 5_000 },
  { title: 'Profile the image pipeline', repository: 'myorg/media', script: 'pause', agoMs: 86_400_000 },
  { title: 'Document the release steps', repository: 'myorg/media', script: 'queue', agoMs: 0 }
]

/** The offset a page token stands for: base64 of `{"offset": n}`, as the documentation's example token is. */
const tokenFor = (offset: number): string => Buffer.from(JSON.stringify({ offset })).toString('base64')
function offsetOf(token: string | null): number {
  if (token === null || token === '') return 0
  try {
    const offset = (JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { offset?: unknown }).offset
    if (typeof offset === 'number' && Number.isInteger(offset) && offset >= 0) return offset
  } catch {
    // Refused below.
  }
  throw refuse(400, 'Invalid page token.')
}

function page(query: URLSearchParams, field: string, all: unknown[], cap: number | undefined): Reply {
  const size = pageSize(query.get('pageSize'), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, cap)
  const offset = offsetOf(query.get('pageToken'))
  const next = offset + size < all.length ? { nextPageToken: tokenFor(offset + size) } : {}
  return json(200, { [field]: all.slice(offset, offset + size), ...next })
}

export async function startJulesFake(options: AgentFakeOptions): Promise<AgentFake> {
  const { clock, faults, stats, keys, common } = fakeParts(options)
  const sessions = new JulesSessions(() => clock.now())

  const control: AgentFake['control'] = {
    ...common,
    ...scriptedTaskControls({
      states: JULES_STATES,
      scripts: JULES_SCRIPTS,
      add(beats, input) {
        const source = input.repository ?? 'myorg/myrepo'
        if (!/^[^/]+\/[^/]+$/.test(source)) throw refuse(400, '"repository" must be "owner/repo".')
        return sessions.add({ title: input.title ?? 'A session', source, beats, agoMs: input.agoMs ?? 0 })
      },
      setState: (taskId, state) => sessions.setState(taskId, state),
      all: () => sessions.all(),
      demo: DEMO,
      refuse: (_field, message) => refuse(400, message),
      notFound: (taskId) => refuse(404, `No session with id "${taskId}".`)
    }),
    addLimitedKey: (key) => keys.addLimited(key)
  }

  function checkKey(req: IncomingMessage): void {
    const key = keys.check(header(req, 'x-goog-api-key'))
    if (key === 'missing') throw refuse(401, MISSING_KEY)
    // Google answers a key it does not know with 400 API_KEY_INVALID.
    if (key === 'wrong') throw refuse(400, KEY_INVALID.message, undefined, { details: KEY_INVALID.details })
    if (key === 'limited') throw refuse(403, 'The caller does not have permission')
  }

  const session = (id: string) => {
    const r = sessions.get(id)
    if (!r) throw refuse(404, 'Requested entity was not found.')
    return r
  }

  type Route = {
    key: string
    method: string
    pattern: RegExp
    run: (id: string, q: URLSearchParams, body: () => Promise<unknown>) => Promise<Reply> | Reply
  }
  const ROUTES: Route[] = [
    {
      key: '/sessions',
      method: 'GET',
      pattern: /^\/sessions$/,
      run: (_id, q) =>
        page(
          q,
          'sessions',
          // Newest first.
          sessions
            .all()
            .sort((a, b) => b.createdAt - a.createdAt)
            .map(wireSession),
          options.maxPageSize
        )
    },
    {
      key: '/sessions/{id}',
      method: 'GET',
      pattern: /^\/sessions\/([^/:]+)$/,
      run: (id) => json(200, wireSession(session(id)))
    },
    {
      key: '/sessions/{id}/activities',
      method: 'GET',
      // Oldest first, as Jules lists them.
      pattern: /^\/sessions\/([^/:]+)\/activities$/,
      run: (id, q) => page(q, 'activities', session(id).activities, options.maxPageSize)
    },
    {
      key: '/sessions/{id}:approvePlan',
      method: 'POST',
      pattern: /^\/sessions\/([^/:]+):approvePlan$/,
      run: (id) => {
        const r = session(id)
        if (!sessions.approve(r))
          throw refuse(400, `Session ${id} is not awaiting plan approval (it is ${r.state}).`, undefined, {
            status: 'FAILED_PRECONDITION'
          })
        return json(200, {})
      }
    },
    {
      key: '/sessions/{id}:sendMessage',
      method: 'POST',
      pattern: /^\/sessions\/([^/:]+):sendMessage$/,
      run: async (id, _q, body) => {
        const r = session(id)
        const prompt = asObject(await body()).prompt
        if (typeof prompt !== 'string' || prompt.trim() === '') throw refuse(400, 'prompt must not be empty.')
        sessions.message(r, prompt)
        return json(200, {})
      }
    }
  ]

  function match(method: string, path: string) {
    if (!path.startsWith(`${JULES_API_PREFIX}/`)) return undefined
    const rest = path.slice(JULES_API_PREFIX.length)
    for (const route of ROUTES) {
      const m = route.pattern.exec(rest)
      if (!m || route.method !== method) continue
      try {
        return { route, id: decodeURIComponent(m[1] ?? '') }
      } catch {
        return undefined
      }
    }
    return undefined
  }

  async function controlRoute(method: string, path: string, body: () => Promise<unknown>): Promise<Reply> {
    const shared = await handleCommonControl(common, method, path, body)
    if (shared) return shared
    switch (`${method} ${path.replace(/^tasks\/[^/]+\/state$/, 'tasks/{id}/state')}`) {
      case 'POST seed-demo':
        return json(200, control.seedDemo())
      case 'GET tasks':
        return json(200, control.tasks())
      case 'POST tasks':
        return json(201, control.addTask(asObject(await body())))
      case 'POST tasks/{id}/state':
        return json(200, control.setTaskState(taskIdOf(path), String(asObject(await body()).state)))
      default:
        throw refuse(404, `No control route ${method} /__control/${path}.`)
    }
  }

  const served = await serveFake(
    { port: options.port, host: options.host, faults, stats, compression: options.compression },
    () => ({
      routeKey: (method, path) => `${method} ${match(method, path)?.route.key ?? '(unmatched)'}`,
      error: (status, message, headers) => googleError(status, message, headers),
      fromError: (e) =>
        e instanceof Refusal ? e.reply : e instanceof ApiError ? googleError(e.status, e.message) : undefined,
      async control(req, method, path, body) {
        if (keys.check(header(req, 'x-goog-api-key')) !== 'ok') throw refuse(401, MISSING_KEY)
        return controlRoute(method, path, body)
      },
      async answer({ req, method, path, query, body }) {
        const found = match(method, path)
        if (!found) throw refuse(404, `The requested URL ${path} was not found on this server.`)
        checkKey(req)
        return found.route.run(found.id, query, body)
      }
    })
  )

  return {
    kind: 'jules',
    url: served.url,
    baseUrl: `${served.url}${JULES_API_PREFIX}`,
    control,
    close: () => served.close()
  }
}
