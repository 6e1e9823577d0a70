// A fake of Cursor's Cloud Agents API v1 as its documentation describes it (docs-examples.ts): agents and their runs
// paged by limit and cursor, newest first (`nextCursor` left out on the last page), list items with identity fields
// only; the key as the Basic user (Bearer too); follow-up runs refused 409 agent_busy while a run is active; errors
// as `{ error: { code, message } }`; and a real server-sent event stream per run: an id-less leading `status` on
// every connect, opaque event ids, the terminal status in `result`, `heartbeat` events, a resume after
// Last-Event-ID (400 invalid_last_event_id for an id not of the run), and control routes that drop, hush (a stall) or
// expire (410 stream_expired) it. Runs move on the fake's clock.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { type AgentFake, type AgentFakeControl, type AgentFakeOptions, fakeParts, pageSize } from '../agent-fake'
import { ApiError } from '../api-error'
import { handleCommonControl, taskIdOf } from '../control'
import { json, type Reply } from '../http'
import { header, serveFake } from '../serve'
import { asObject } from '../validate'
import { AGENT, AGENT_BUSY, GET_AGENT, RUN, STREAM_EVENTS, STREAM_EXPIRED, UNAUTHORIZED } from './docs-examples'

export const RUN_STATUSES = ['CREATING', 'RUNNING', 'FINISHED', 'ERROR', 'CANCELLED', 'EXPIRED'] as const
export type RunStatus = (typeof RUN_STATUSES)[number]
export const DEFAULT_PAGE_SIZE = 20
export const MAX_PAGE_SIZE = 100
/** How often an open stream looks for events due on the clock, and sends a heartbeat event (real ms). */
const PUMP_MS = 10
const HEARTBEAT_MS = 15_000
/** The retention the stream's X-Cursor-Stream-Retention-Seconds header announces (the docs give no figure). */
const RETENTION_S = 3_600

const S = 1_000
interface Due {
  afterMs: number
  event: string
  data: Record<string, unknown>
}
const example = (event: string, n = 0) => STREAM_EVENTS.filter((e) => e.event === event)[n]?.data ?? {}
const status = (s: RunStatus, afterMs: number): Due => ({ afterMs, event: 'status', data: { status: s } })
// A run starts CREATING (the leading status says so); the page's example events, with a thinking delta and an edit.
const work: Due[] = [
  status('RUNNING', 2 * S),
  { afterMs: 3 * S, event: 'thinking', data: { text: 'Looking at the repository layout.' } },
  { afterMs: 5 * S, event: 'tool_call', data: example('tool_call', 1) },
  { afterMs: 8 * S, event: 'assistant', data: example('assistant') },
  {
    afterMs: 12 * S,
    event: 'tool_call',
    data: { callId: 'call-2', name: 'edit_file', status: 'completed', args: { path: 'README.md' } }
  },
  {
    afterMs: 20 * S,
    event: 'tool_call',
    data: { callId: 'call-3', name: 'run_terminal_cmd', status: 'completed', args: { command: 'npm test' } }
  }
]
/** A run's end as the docs' stream tells it: `result` with the terminal status (and the reply when it finished), then
 * `done` (which repeats the result's id). */
const end = (s: RunStatus, afterMs: number): Due[] => [
  { afterMs, event: 'result', data: { status: s, ...(s === 'FINISHED' ? { text: RUN.result } : {}) } },
  { afterMs, event: 'done', data: {} }
]

/** Every run status is reached by one script; `run-forever` never ends. */
export const CURSOR_SCRIPTS: Record<string, readonly Due[]> = {
  complete: [...work, ...end('FINISHED', 30 * S)],
  fail: [...work, ...end('ERROR', 25 * S)],
  cancel: [...work.slice(0, 4), ...end('CANCELLED', 10 * S)],
  expire: [...work.slice(0, 2), ...end('EXPIRED', 60 * S)],
  'run-forever': work
}

interface RunEvent {
  id: string
  at: number
  event: string
  data: Record<string, unknown>
}
interface RunRecord {
  id: string
  agentId: string
  prompt: string
  createdAt: number
  events: RunEvent[]
  streamExpired: boolean
  hushed: Set<ServerResponse>
  streams: Set<ServerResponse>
}
interface AgentRecord {
  id: string
  name: string
  repo: string
  createdAt: number
  runs: RunRecord[]
}

export interface CursorFakeControl extends AgentFakeControl {
  /** The agent's latest run id. */
  latestRunId(agentId: string): string
  /** Cuts every open stream of the run (the client resumes with Last-Event-ID). */
  dropStreams(runId: string): number
  /** The run's stream answers 410 stream_expired from now on. */
  expireStream(runId: string): void
  /** The run's streams open now send nothing more, heartbeats included (a stall); streams opened later are not. */
  hushStreams(runId: string): void
  /** How many streams are open now. */
  openStreams(): number
  /** The run tells `event` now (a tool call, a thought, a status): its open streams send it at once. */
  addEvent(runId: string, event: string, data: Record<string, unknown>): void
}

export interface CursorFake extends AgentFake {
  control: CursorFakeControl
}

class Refusal extends Error {
  constructor(readonly reply: Reply) {
    super('refused')
  }
}
const cursorError = (status: number, code: string, message: string, headers?: Record<string, string>): Reply =>
  json(status, { error: { code, message } }, headers)
const refuse = (status: number, code: string, message: string) => new Refusal(cursorError(status, code, message))

const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z')
const isStatus = (v: unknown): v is RunStatus =>
  typeof v === 'string' && (RUN_STATUSES as readonly string[]).includes(v)

/** The key a request carries: the Basic user (password empty), else a Bearer token. */
function keyOf(req: IncomingMessage): string | undefined {
  const auth = header(req, 'authorization') ?? ''
  const basic = /^Basic\s+(\S+)$/i.exec(auth)
  if (basic) {
    const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8')
    const colon = decoded.indexOf(':')
    return colon === -1 ? decoded : decoded.slice(0, colon)
  }
  const bearer = /^Bearer\s+(\S+)$/i.exec(auth)
  return bearer ? bearer[1] : undefined
}

const DEMO: { title: string; repository: string; script: string; agoMs: number }[] = [
  { title: 'Add README Documentation', repository: 'myorg/myrepo', script: 'complete', agoMs: 0 },
  { title: 'Fix the flaky upload test', repository: 'myorg/webapp', script: 'run-forever', agoMs: 0 },
  { title: 'Migrate to the new router', repository: 'myorg/webapp', script: 'fail', agoMs: 0 },
  { title: 'Rename the config keys', repository: 'myorg/media', script: 'cancel', agoMs: 0 },
  { title: 'Profile the image pipeline', repository: 'myorg/media', script: 'expire', agoMs: 0 }
]

export async function startCursorFake(options: AgentFakeOptions): Promise<CursorFake> {
  const { clock, faults, stats, keys, common } = fakeParts(options)
  const agents = new Map<string, AgentRecord>()
  const runs = new Map<string, RunRecord>()
  const pumps = new Set<NodeJS.Timeout>()
  let count = 0

  const visible = (r: RunRecord) => r.events.filter((e) => e.at <= clock.now())
  function runStatus(r: RunRecord): RunStatus {
    let s: RunStatus = 'CREATING'
    for (const e of visible(r)) if (['status', 'result'].includes(e.event) && isStatus(e.data.status)) s = e.data.status
    return s
  }
  const active = (r: RunRecord) => ['CREATING', 'RUNNING'].includes(runStatus(r))

  function addRun(agent: AgentRecord, prompt: string, script: readonly Due[], at: number): RunRecord {
    const id = `run-${String(++count).padStart(8, '0')}-0000-0000-0000-000000000000`
    const r: RunRecord = {
      id,
      agentId: agent.id,
      prompt,
      createdAt: at,
      events: [],
      streamExpired: false,
      hushed: new Set(),
      streams: new Set()
    }
    r.events = timed(r, script, at, 0)
    agent.runs.push(r)
    runs.set(id, r)
    return r
  }

  /** A script's events on the clock: ids opaque as the docs' (`<ms>-<n>`), `done` repeating the one before it, and
   *  every payload naming its run; a result also says how long the run took. */
  function timed(r: RunRecord, script: readonly Due[], at: number, from: number): RunEvent[] {
    const out: RunEvent[] = []
    script.forEach((d, i) => {
      const when = at + d.afterMs
      const before = out.at(-1) ?? r.events.at(-1)
      const id = d.event === 'done' && before !== undefined ? before.id : `${when}-${from + i}`
      const data =
        d.event === 'result'
          ? { runId: r.id, ...d.data, durationMs: when - r.createdAt }
          : d.event === 'status'
            ? { runId: r.id, ...d.data }
            : d.data
      out.push({ id, at: when, event: d.event, data })
    })
    return out
  }

  function wireRun(r: RunRecord): Record<string, unknown> {
    const s = runStatus(r)
    const seen = visible(r)
    const last = seen.at(-1)?.at ?? r.createdAt
    const ended = !['CREATING', 'RUNNING'].includes(s)
    const result = seen.find((e) => e.event === 'result')
    const agent = agents.get(r.agentId) as AgentRecord
    return {
      id: r.id,
      agentId: r.agentId,
      status: s,
      prompt: { text: r.prompt },
      ...(result?.data.text !== undefined ? { result: result.data.text } : {}),
      ...(ended ? { durationMs: last - r.createdAt } : {}),
      createdAt: iso(r.createdAt),
      updatedAt: iso(last),
      ...(s === 'FINISHED'
        ? {
            git: {
              branches: [
                {
                  ...RUN.git.branches[0],
                  repoUrl: `github.com/${agent.repo}`,
                  branch: `cursor/${agent.id.slice(3, 11)}`,
                  prUrl: `https://github.com/${agent.repo}/pull/${1000 + agent.runs.indexOf(r) + Number(agent.id.slice(3, 11))}`
                }
              ]
            }
          }
        : {})
    }
  }

  /** A list item: the durable identity fields only, as the docs' List Agents says. */
  function wireAgent(a: AgentRecord): Record<string, unknown> {
    const latest = a.runs.at(-1)
    const updated = latest ? (visible(latest).at(-1)?.at ?? latest.createdAt) : a.createdAt
    return {
      ...AGENT,
      id: a.id,
      name: a.name,
      url: `https://cursor.com/agents/${a.id}`,
      createdAt: iso(a.createdAt),
      updatedAt: iso(updated),
      ...(latest ? { latestRunId: latest.id } : {})
    }
  }
  /** GET /v1/agents/{id}: the full record, its repository included. */
  const wireFullAgent = (a: AgentRecord): Record<string, unknown> => ({
    ...GET_AGENT,
    ...wireAgent(a),
    repos: [{ url: `https://github.com/${a.repo}`, startingRef: 'main' }]
  })

  const addTask: CursorFakeControl['addTask'] = (input = {}) => {
    const script = input.script ?? 'complete'
    if (input.state !== undefined && !isStatus(input.state))
      throw refuse(400, 'validation_error', `"state" must be one of ${RUN_STATUSES.join(', ')}.`)
    if (!Object.hasOwn(CURSOR_SCRIPTS, script))
      throw refuse(400, 'validation_error', `"script" must be one of ${Object.keys(CURSOR_SCRIPTS).join(', ')}.`)
    const repo = input.repository ?? 'myorg/myrepo'
    if (!/^[^/]+\/[^/]+$/.test(repo)) throw refuse(400, 'validation_error', '"repository" must be "owner/repo".')
    const at = clock.now() - (input.agoMs ?? 0)
    const n = agents.size + 1
    const agent: AgentRecord = {
      id: `bc-${String(n).padStart(8, '0')}-0000-0000-0000-000000000000`,
      name: input.title ?? 'An agent',
      repo,
      createdAt: at,
      runs: []
    }
    agents.set(agent.id, agent)
    const beats = input.state !== undefined ? [status(input.state as RunStatus, 0)] : (CURSOR_SCRIPTS[script] ?? [])
    const r = addRun(agent, agent.name, beats, at)
    return { id: agent.id, state: runStatus(r) }
  }

  function agentOr404(id: string): AgentRecord {
    const a = agents.get(id)
    if (!a) throw refuse(404, 'agent_not_found', 'Agent not found.')
    return a
  }
  function runOr404(agentId: string, runId: string): RunRecord {
    const r = runs.get(runId)
    if (!r || r.agentId !== agentId) throw refuse(404, 'run_not_found', 'Run not found.')
    return r
  }
  function controlRun(runId: string): RunRecord {
    const r = runs.get(runId)
    if (!r) throw refuse(404, 'run_not_found', `No run with id "${runId}".`)
    return r
  }

  const control: CursorFakeControl = {
    ...common,
    seedDemo: () => ({ taskIds: DEMO.map((t) => addTask(t).id) }),
    addTask,
    setTaskState(taskId, state) {
      if (!isStatus(state)) throw refuse(400, 'validation_error', `"state" must be one of ${RUN_STATUSES.join(', ')}.`)
      const r = agentOr404(taskId).runs.at(-1) as RunRecord
      const now = clock.now()
      const ends = !['CREATING', 'RUNNING'].includes(state)
      const base = r.events.filter((e) => e.at <= now)
      const extra: Due[] = ends ? end(state, 0) : [status(state, 0)]
      // `timed` reads the events so far (a `done` repeats the id before it): the future ones go first.
      r.events = base
      r.events = [
        ...base,
        ...timed(
          r,
          extra.map((d) => ({ ...d, afterMs: now - r.createdAt })),
          r.createdAt,
          base.length
        )
      ]
      return { id: taskId, state: runStatus(r) }
    },
    tasks: () =>
      [...agents.values()].map((a) => ({ id: a.id, title: a.name, state: runStatus(a.runs.at(-1) as RunRecord) })),
    addLimitedKey: (key) => keys.addLimited(key),
    latestRunId: (agentId) => (agentOr404(agentId).runs.at(-1) as RunRecord).id,
    dropStreams(runId) {
      const r = controlRun(runId)
      const n = r.streams.size
      for (const res of r.streams) res.socket?.destroy()
      r.streams.clear()
      return n
    },
    expireStream(runId) {
      controlRun(runId).streamExpired = true
    },
    hushStreams(runId) {
      const r = controlRun(runId)
      for (const res of r.streams) r.hushed.add(res)
    },
    openStreams: () => [...runs.values()].reduce((n, r) => n + r.streams.size, 0),
    addEvent(runId, event, data) {
      const r = controlRun(runId)
      if (event === '') throw refuse(400, 'invalid_request', '"event" must not be empty.')
      const now = clock.now()
      const at = r.events.findIndex((e) => e.at > now)
      // An opaque id as the script's (`<ms>-<n>`), unused in the run; the stream resumes by position, not by id.
      let n = r.events.length
      while (r.events.some((e) => e.id === `${now}-${n}`)) n++
      r.events.splice(at === -1 ? r.events.length : at, 0, { id: `${now}-${n}`, at: now, event, data })
    }
  }

  function page(query: URLSearchParams, all: { id: string }[], toWire: (x: never) => unknown): Reply {
    const size = pageSize(query.get('limit'), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, options.maxPageSize)
    const cursor = query.get('cursor')
    let start = 0
    if (cursor !== null && cursor !== '') {
      const at = all.findIndex((x) => x.id === cursor)
      if (at === -1) throw refuse(400, 'validation_error', 'Invalid cursor.')
      start = at + 1
    }
    const items = all.slice(start, start + size)
    const more = start + size < all.length
    // The docs: `nextCursor` is left out on the last page, not sent as null.
    const last = items.at(-1)
    return json(200, {
      items: items.map((x) => toWire(x as never)),
      ...(more && last ? { nextCursor: last.id } : {})
    })
  }

  function stream(r: RunRecord, lastEventId: string | undefined): Reply {
    if (r.streamExpired) return cursorError(410, STREAM_EXPIRED.error.code, STREAM_EXPIRED.error.message)
    const resumeAt = lastEventId === undefined ? -1 : r.events.findIndex((e) => e.id === lastEventId)
    if (lastEventId !== undefined && resumeAt === -1)
      return cursorError(400, 'invalid_last_event_id', 'Last-Event-ID is not an event of this run.')
    return {
      status: 200,
      headers: { 'x-cursor-stream-retention-seconds': String(RETENTION_S) },
      body: '',
      stream(res) {
        let sent = resumeAt + 1
        // Quiet for HEARTBEAT_MS of either clock: a simulated hour on a manual clock has its hour of heartbeats.
        let quietSince = Date.now()
        let simQuietSince = clock.now()
        r.streams.add(res)
        // The sticky framing event: no id, the run's status now, at the top of every connection.
        res.write(`event: status\ndata: ${JSON.stringify({ runId: r.id, status: runStatus(r) })}\n\n`)
        const tick = () => {
          if (res.destroyed || r.hushed.has(res)) return
          const due = r.events.filter((e) => e.at <= clock.now()).slice(sent)
          for (const e of due) {
            res.write(`id: ${e.id}\nevent: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`)
            sent++
            quietSince = Date.now()
            simQuietSince = clock.now()
            if (e.event === 'done') {
              res.end()
              return
            }
          }
          if (Date.now() - quietSince >= HEARTBEAT_MS || clock.now() - simQuietSince >= HEARTBEAT_MS) {
            res.write('event: heartbeat\ndata: {}\n\n')
            quietSince = Date.now()
            simQuietSince = clock.now()
          }
        }
        const pump = setInterval(tick, PUMP_MS)
        pumps.add(pump)
        res.once('close', () => {
          clearInterval(pump)
          pumps.delete(pump)
          r.streams.delete(res)
          r.hushed.delete(res)
        })
        // The events already due follow the leading status at once, as a server replays them: not a pump later, when
        // a client may already have acted on the status alone.
        tick()
      }
    }
  }

  type Route = {
    key: string
    method: string
    pattern: RegExp
    run: (m: string[], req: IncomingMessage, q: URLSearchParams, body: () => Promise<unknown>) => Promise<Reply> | Reply
  }
  const newestFirst = <T extends { createdAt: number }>(xs: T[]) => [...xs].sort((a, b) => b.createdAt - a.createdAt)
  const ROUTES: Route[] = [
    {
      key: '/v1/me',
      method: 'GET',
      pattern: /^\/v1\/me$/,
      run: () =>
        json(200, { apiKeyName: 'Agent Tray fake', createdAt: iso(clock.now()), userEmail: 'developer@example.com' })
    },
    {
      key: '/v1/agents',
      method: 'GET',
      pattern: /^\/v1\/agents$/,
      run: (_m, _req, q) => page(q, newestFirst([...agents.values()]), wireAgent as (x: never) => unknown)
    },
    {
      key: '/v1/agents/{id}',
      method: 'GET',
      pattern: /^\/v1\/agents\/([^/]+)$/,
      run: ([id]) => json(200, wireFullAgent(agentOr404(id as string)))
    },
    {
      key: '/v1/agents/{id}/runs',
      method: 'GET',
      pattern: /^\/v1\/agents\/([^/]+)\/runs$/,
      run: ([id], _req, q) => page(q, newestFirst(agentOr404(id as string).runs), wireRun as (x: never) => unknown)
    },
    {
      key: '/v1/agents/{id}/runs',
      method: 'POST',
      pattern: /^\/v1\/agents\/([^/]+)\/runs$/,
      run: async ([id], _req, _q, body) => {
        const agent = agentOr404(id as string)
        const prompt = asObject(asObject(await body()).prompt).text
        if (typeof prompt !== 'string' || prompt.trim() === '')
          throw refuse(400, 'validation_error', 'prompt.text is required.')
        const latest = agent.runs.at(-1)
        if (latest && active(latest)) throw new Refusal(json(409, AGENT_BUSY))
        const r = addRun(agent, prompt, CURSOR_SCRIPTS.complete as Due[], clock.now())
        return json(201, { run: wireRun(r) })
      }
    },
    {
      key: '/v1/agents/{id}/runs/{runId}',
      method: 'GET',
      pattern: /^\/v1\/agents\/([^/]+)\/runs\/([^/]+)$/,
      run: ([id, runId]) => json(200, wireRun(runOr404(id as string, runId as string)))
    },
    {
      key: '/v1/agents/{id}/runs/{runId}/stream',
      method: 'GET',
      pattern: /^\/v1\/agents\/([^/]+)\/runs\/([^/]+)\/stream$/,
      run: ([id, runId], req) => stream(runOr404(id as string, runId as string), header(req, 'last-event-id'))
    }
  ]

  function match(method: string, path: string) {
    for (const route of ROUTES) {
      const m = route.pattern.exec(path)
      if (!m || route.method !== method) continue
      try {
        return { route, groups: m.slice(1).map((g) => decodeURIComponent(g)) }
      } catch {
        return undefined
      }
    }
    return undefined
  }

  function checkKey(req: IncomingMessage): void {
    const key = keys.check(keyOf(req))
    if (key === 'missing' || key === 'wrong') throw new Refusal(json(401, UNAUTHORIZED))
    if (key === 'limited') throw refuse(403, 'feature_unavailable', 'This API key may not use Cloud Agents.')
  }

  async function controlRoute(method: string, path: string, body: () => Promise<unknown>): Promise<Reply> {
    const shared = await handleCommonControl(common, method, path, body)
    if (shared) return shared
    const runRoute = /^runs\/([^/]+)\/(drop|expire|hush|event)$/.exec(path)
    if (method === 'POST' && runRoute) {
      const runId = decodeURIComponent(runRoute[1] ?? '')
      if (runRoute[2] === 'drop') return json(200, { dropped: control.dropStreams(runId) })
      if (runRoute[2] === 'event') {
        const b = asObject(await body())
        control.addEvent(runId, String(b.event ?? ''), asObject(b.data ?? {}))
        return json(200, {})
      }
      if (runRoute[2] === 'expire') control.expireStream(runId)
      else control.hushStreams(runId)
      return json(200, {})
    }
    switch (`${method} ${path.replace(/^tasks\/[^/]+\/state$/, 'tasks/{id}/state')}`) {
      case 'POST seed-demo':
        return json(200, control.seedDemo())
      case 'GET tasks':
        return json(200, control.tasks())
      case 'GET streams':
        return json(200, { open: control.openStreams() })
      case 'POST tasks':
        return json(201, control.addTask(asObject(await body())))
      case 'POST tasks/{id}/state':
        return json(200, control.setTaskState(taskIdOf(path), String(asObject(await body()).state)))
      default:
        throw refuse(404, 'not_found', `No control route ${method} /__control/${path}.`)
    }
  }

  const served = await serveFake(
    { port: options.port, host: options.host, faults, stats, compression: options.compression },
    () => ({
      routeKey: (method, path) => `${method} ${match(method, path)?.route.key ?? '(unmatched)'}`,
      error: (status, message, headers) =>
        cursorError(
          status,
          status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'internal_error' : 'validation_error',
          message,
          headers
        ),
      fromError: (e) =>
        e instanceof Refusal
          ? e.reply
          : e instanceof ApiError
            ? cursorError(e.status, 'validation_error', e.message)
            : undefined,
      async control(req, method, path, body) {
        if (keys.check(keyOf(req)) !== 'ok') throw new Refusal(json(401, UNAUTHORIZED))
        return controlRoute(method, path, body)
      },
      async answer({ req, method, path, query, body }) {
        const found = match(method, path)
        if (!found) throw refuse(404, 'not_found', `No route ${method} ${path}.`)
        checkKey(req)
        return found.route.run(found.groups, req, query, body)
      }
    })
  )

  return {
    kind: 'cursor',
    url: served.url,
    baseUrl: served.url,
    control,
    close: async () => {
      for (const p of pumps) clearInterval(p)
      pumps.clear()
      await served.close()
    }
  }
}
