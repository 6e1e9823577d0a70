// A fake of Devin's API as its documentation describes it: v3's organization sessions (cursor paging by `after` and
// `first`, `updated_after`), their messages, GET /v3/self naming the organization, and v1's sessions (limit/offset)
// with their messages; a message resumes a session. A `cog_` key is refused on v1 and an `apk_` key on v3, as Devin
// does; a key with neither prefix works on both. Faults, stats and time come from the shared pipeline.
import type { IncomingMessage } from 'node:http'
import { scriptedTaskControls } from '../agent-fake'
import { type AgentFake, type AgentFakeOptions, fakeParts, pageSize } from '../agent-fake'
import { ApiError } from '../api-error'
import { handleCommonControl, taskIdOf } from '../control'
import { json, type Reply } from '../http'
import { header, serveFake } from '../serve'
import { asObject } from '../validate'
import { DEVIN_FAKE_STATES, DEVIN_SCRIPTS, DevinSessions, FAKE_ORG_ID, wireV1, wireV3 } from './sessions'

export const V3_DEFAULT_PAGE = 100
export const V3_MAX_PAGE = 200
export const V1_DEFAULT_PAGE = 100
export const V1_MAX_PAGE = 1000

/** Devin's error body: FastAPI's `{detail}` (v3 adds a problem's title and status). */
const devinError = (status: number, message: string, headers?: Record<string, string>): Reply =>
  json(status, { detail: message, status }, headers)

class Refusal extends Error {
  constructor(readonly reply: Reply) {
    super('refused')
  }
}
const refuse = (status: number, message: string): Refusal => new Refusal(devinError(status, message))

/** The demo's sessions: every state on the clock, one waiting for approval from the start, one out of credits. */
const DEMO: { title: string; repository: string; script: string; agoMs: number }[] = [
  { title: 'Rotate the staging credentials', repository: 'myorg/infra', script: 'approve', agoMs: 60_000 },
  { title: 'Fix the flaky checkout test', repository: 'myorg/webapp', script: 'complete', agoMs: 0 },
  { title: 'Translate the settings page', repository: 'myorg/webapp', script: 'ask', agoMs: 0 },
  { title: 'Migrate the billing cron', repository: 'myorg/billing', script: 'credits', agoMs: 0 },
  { title: 'Upgrade to Node 22', repository: 'myorg/api', script: 'fail', agoMs: 5_000 },
  { title: 'Tidy the README', repository: 'myorg/api', script: 'sleep', agoMs: 86_400_000 }
]

/** The offset a cursor stands for (base64 of its decimal). */
const cursorFor = (offset: number): string => Buffer.from(String(offset)).toString('base64url')
function offsetOf(cursor: string | null): number {
  if (cursor === null || cursor === '') return 0
  const n = Number(Buffer.from(cursor, 'base64url').toString('utf8'))
  if (Number.isInteger(n) && n >= 0) return n
  throw refuse(422, 'Invalid cursor.')
}

function cursorPage(q: URLSearchParams, all: unknown[], cap: number | undefined): Reply {
  const size = pageSize(q.get('first'), V3_DEFAULT_PAGE, V3_MAX_PAGE, cap)
  const offset = offsetOf(q.get('after'))
  const more = offset + size < all.length
  return json(200, {
    items: all.slice(offset, offset + size),
    end_cursor: more ? cursorFor(offset + size) : null,
    has_next_page: more,
    total: all.length
  })
}

export async function startDevinFake(options: AgentFakeOptions): Promise<AgentFake> {
  const { clock, faults, stats, keys, common } = fakeParts(options)
  const sessions = new DevinSessions(() => clock.now())

  const control: AgentFake['control'] = {
    ...common,
    ...scriptedTaskControls({
      states: DEVIN_FAKE_STATES,
      scripts: DEVIN_SCRIPTS,
      add(beats, input) {
        const repository = input.repository ?? 'myorg/myrepo'
        if (!/^[^/]+\/[^/]+$/.test(repository)) throw refuse(422, '"repository" must be "owner/repo".')
        return sessions.add({ title: input.title ?? 'A session', repository, beats, agoMs: input.agoMs ?? 0 })
      },
      setState: (taskId, state) => sessions.setState(taskId, state),
      all: () => sessions.all(),
      demo: DEMO,
      refuse: (_field, message) => refuse(422, message),
      notFound: (taskId) => refuse(404, `No session with id "${taskId}".`)
    }),
    addLimitedKey: (key) => keys.addLimited(key)
  }

  const bearer = (req: IncomingMessage): string | undefined => {
    const auth = header(req, 'authorization')
    return auth?.startsWith('Bearer ') ? auth.slice('Bearer '.length) : undefined
  }
  /** The key's standing on this API; `permission` for the words of a 403. */
  function checkKey(req: IncomingMessage, api: 'v1' | 'v3', permission: string | null): void {
    const key = bearer(req)
    const wrongApi = key !== undefined && key.startsWith(api === 'v3' ? 'apk_' : 'cog_')
    const standing = wrongApi ? 'wrong' : keys.check(key)
    if (standing === 'missing') throw refuse(401, 'Not authenticated')
    if (standing === 'wrong') throw refuse(401, 'Invalid API key')
    if (standing === 'limited' && permission !== null) throw refuse(403, `Missing required permission: ${permission}`)
  }

  const session = (id: string) => {
    const r = sessions.get(id)
    if (!r) throw refuse(404, 'Session not found')
    return r
  }
  const newestFirst = () => sessions.all().sort((a, b) => b.createdAt - a.createdAt)
  const message = async (body: () => Promise<unknown>): Promise<string> => {
    const text = asObject(await body()).message
    if (typeof text !== 'string' || text.trim() === '') throw refuse(422, 'message must not be empty.')
    return text
  }

  type Route = {
    key: string
    method: string
    api: 'v1' | 'v3'
    permission: string | null
    pattern: RegExp
    run: (m: RegExpExecArray, q: URLSearchParams, body: () => Promise<unknown>) => Promise<Reply> | Reply
  }
  const ORG = '/v3/organizations/([^/]+)'
  const ownOrg = (org: string | undefined) => {
    if (decodeURIComponent(org ?? '') !== FAKE_ORG_ID)
      throw refuse(403, 'The service user is not a member of this organization.')
  }
  const ROUTES: Route[] = [
    {
      key: '/v3/self',
      method: 'GET',
      api: 'v3',
      permission: null,
      pattern: /^\/v3\/self$/,
      run: () =>
        json(200, {
          principal_type: 'service_user',
          org_id: FAKE_ORG_ID,
          service_user_id: 'service-user-fake',
          service_user_name: 'Agent Tray'
        })
    },
    {
      key: '/v3/organizations/{org_id}/sessions',
      method: 'GET',
      api: 'v3',
      permission: 'ViewOrgSessions',
      pattern: new RegExp(`^${ORG}/sessions$`),
      run: (m, q) => {
        ownOrg(m[1])
        const after = q.get('updated_after')
        const since = after === null ? null : Number(after)
        if (since !== null && !Number.isFinite(since)) throw refuse(422, 'updated_after must be an integer.')
        const all = newestFirst()
          .map(wireV3)
          .filter((s) => since === null || (s.updated_at as number) > since)
        return cursorPage(q, all, options.maxPageSize)
      }
    },
    {
      key: '/v3/organizations/{org_id}/sessions/{devin_id}/messages',
      method: 'GET',
      api: 'v3',
      permission: 'ViewOrgSessions',
      pattern: new RegExp(`^${ORG}/sessions/([^/]+)/messages$`),
      run: (m, q) => {
        ownOrg(m[1])
        return cursorPage(q, session(decodeURIComponent(m[2] ?? '')).messages, options.maxPageSize)
      }
    },
    {
      key: '/v3/organizations/{org_id}/sessions/{devin_id}/messages',
      method: 'POST',
      api: 'v3',
      permission: 'ManageOrgSessions',
      pattern: new RegExp(`^${ORG}/sessions/([^/]+)/messages$`),
      run: async (m, _q, body) => {
        ownOrg(m[1])
        const r = session(decodeURIComponent(m[2] ?? ''))
        sessions.message(r, await message(body))
        return json(200, wireV3(r))
      }
    },
    {
      key: '/v1/sessions',
      method: 'GET',
      api: 'v1',
      permission: 'read sessions',
      pattern: /^\/v1\/sessions$/,
      run: (_m, q) => {
        // v1 gives what `limit` asks (its client reads a short page as the last), so the test cap is v3's only.
        const size = pageSize(q.get('limit'), V1_DEFAULT_PAGE, V1_MAX_PAGE, undefined)
        const offset = Number(q.get('offset') ?? '0')
        if (!(Number.isInteger(offset) && offset >= 0)) throw refuse(422, 'offset must be a non-negative integer.')
        return json(200, {
          sessions: newestFirst()
            .slice(offset, offset + size)
            .map((r) => wireV1(r))
        })
      }
    },
    {
      key: '/v1/sessions/{session_id}',
      method: 'GET',
      api: 'v1',
      permission: 'read sessions',
      pattern: /^\/v1\/sessions\/([^/]+)$/,
      run: (m) => json(200, wireV1(session(decodeURIComponent(m[1] ?? '')), true))
    },
    {
      key: '/v1/sessions/{session_id}/message',
      method: 'POST',
      api: 'v1',
      permission: 'send messages',
      pattern: /^\/v1\/sessions\/([^/]+)\/message$/,
      run: async (m, _q, body) => {
        const r = session(decodeURIComponent(m[1] ?? ''))
        sessions.message(r, await message(body))
        return json(200, null)
      }
    }
  ]

  function match(method: string, path: string) {
    for (const route of ROUTES) {
      const m = route.pattern.exec(path)
      if (m && route.method === method) return { route, m }
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
      error: (status, message, headers) => devinError(status, message, headers),
      fromError: (e) =>
        e instanceof Refusal ? e.reply : e instanceof ApiError ? devinError(e.status, e.message) : undefined,
      async control(req, method, path, body) {
        if (keys.check(bearer(req)) !== 'ok') throw refuse(401, 'Not authenticated')
        return controlRoute(method, path, body)
      },
      async answer({ req, method, path, query, body }) {
        const found = match(method, path)
        if (!found) throw refuse(404, 'Not Found')
        checkKey(req, found.route.api, found.route.permission)
        try {
          return await found.route.run(found.m, query, body)
        } catch (e) {
          if (e instanceof URIError) throw refuse(404, 'Not Found')
          throw e
        }
      }
    })
  )

  return { kind: 'devin', url: served.url, baseUrl: served.url, control, close: () => served.close() }
}
