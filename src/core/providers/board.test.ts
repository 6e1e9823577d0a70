// An agent account's watch over real HTTP (the adapters' own clients against a loopback server): what waits for you
// told once, across a restart from the saved memory; an unknown state; a failing service; the etiquette's wait.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { LIST_TASKS_FOR_REPO } from '../../reference-service/github/docs-examples'
import { LIST_ACTIVITIES } from '../../reference-service/jules/docs-examples'
import type { MonitorEvent } from '../../shared/monitor'
import type { ProviderTask } from '../../shared/provider'
import { DEFAULT_POLLING_PREFS } from '../../shared/settings'
import { ManualClock } from '../util/clock'
import { createLimiter } from '../util/limiter'
import { type AgentMemory, type AgentRound, AgentWatch, orderAgentTasks } from './board'
import { openAgentAccount } from './registry'
import { json, startTestServer, type TestServer } from './test-server'

const KEY = 'AIzaSyTEST-board-key'
const START = Date.parse('2026-03-01T09:00:00Z')

let server: TestServer
let clock: ManualClock
/** Jules sessions by id, as the loopback service lists them. */
let sessions: Map<string, Record<string, unknown>>
const watches: AgentWatch[] = []

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())
beforeEach(() => {
  clock = new ManualClock(START)
  sessions = new Map()
  server.received.length = 0
  server.handle((req, res) => {
    const url = new URL(req.url, server.url)
    if (url.pathname === '/v1alpha/sessions') return json(res, 200, { sessions: [...sessions.values()] })
    if (/^\/v1alpha\/sessions\/[^/]+\/activities$/.test(url.pathname))
      return json(res, 200, { activities: LIST_ACTIVITIES.activities })
    const approve = url.pathname.match(/^\/v1alpha\/sessions\/([^/]+):approvePlan$/)
    if (approve && req.method === 'POST') {
      const s = sessions.get(approve[1] ?? '')
      if (s) sessions.set(s.id as string, { ...s, state: 'IN_PROGRESS', updateTime: '2026-03-01T09:05:00Z' })
      return json(res, 200, {})
    }
    json(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } })
  })
})
afterEach(async () => {
  await Promise.all(watches.splice(0).map((w) => w.close()))
})

function session(id: string, state: string, updateTime = '2026-03-01T08:00:00Z'): Record<string, unknown> {
  return { id, title: `Task ${id}`, state, url: `https://jules.google.com/session/${id}`, updateTime }
}

interface Rig {
  watch: AgentWatch
  rounds: AgentRound[]
  saved: AgentMemory[]
  /** Resolves at the next change the window would be told of (a poll's end). */
  changed(): Promise<void>
}

function julesWatch(options: { memory?: AgentMemory | null; muted?: string[] } = {}): Rig {
  const rounds: AgentRound[] = []
  const saved: AgentMemory[] = []
  let waiters: (() => void)[] = []
  const watch = new AgentWatch({
    connectionId: 'c-jules',
    account: openAgentAccount('jules', {
      key: KEY,
      account: 'Mine',
      baseUrl: `${server.url}/v1alpha`,
      now: () => clock.now()
    }),
    polling: DEFAULT_POLLING_PREFS,
    clock,
    random: () => 0.5,
    limiter: createLimiter(2),
    memory: options.memory ?? null,
    save: async (memory) => void saved.push(structuredClone(memory)),
    muted: (projectId) => (options.muted ?? []).includes(projectId),
    onRound: (round) => rounds.push(round),
    onChange: () => {
      const now = waiters
      waiters = []
      for (const w of now) w()
    },
    onError: (context, error) => {
      throw new Error(`${context}: ${String(error)}`)
    }
  })
  watches.push(watch)
  return { watch, rounds, saved, changed: () => new Promise<void>((resolve) => waiters.push(resolve)) }
}

const waitingEvents = (rounds: AgentRound[]): MonitorEvent[] =>
  rounds.flatMap((r) => r.events).filter((e) => e.kind === 'agent-waiting')

describe('what waits for you', () => {
  it('a session awaiting plan approval is told once, not on the next poll, and not after a restart', async () => {
    sessions.set('s1', session('s1', 'IN_PROGRESS'))
    const first = julesWatch()
    await first.watch.pollNow()
    expect(first.rounds).toEqual([])

    sessions.set('s1', session('s1', 'AWAITING_PLAN_APPROVAL', '2026-03-01T08:10:00Z'))
    await first.watch.pollNow()
    expect(waitingEvents(first.rounds)).toEqual([
      expect.objectContaining({
        kind: 'agent-waiting',
        connectionId: 'c-jules',
        service: 'jules',
        serviceName: 'Jules',
        taskId: 's1',
        taskName: 'Task s1',
        projectId: '',
        url: 'https://jules.google.com/session/s1',
        waiting: expect.objectContaining({ kind: 'plan_approval', text: expect.stringContaining('Analyze') })
      })
    ])
    // Told only after the memory that holds it was saved.
    expect(first.saved.at(-1)?.seen.s1?.waiting).toMatch(/^plan_approval:/)

    await first.watch.pollNow()
    expect(waitingEvents(first.rounds)).toHaveLength(1)
    await first.watch.close()

    const restarted = julesWatch({ memory: first.saved.at(-1) ?? null })
    await restarted.watch.pollNow()
    expect(restarted.rounds).toEqual([])
    expect(restarted.watch.views().map((t) => [t.id, t.status])).toEqual([['s1', 'waiting']])
  })

  it('approving reaches the service and polls the account right after', async () => {
    sessions.set('s1', session('s1', 'AWAITING_PLAN_APPROVAL'))
    const rig = julesWatch()
    await rig.watch.pollNow()
    const polled = rig.changed()
    await rig.watch.approve('s1')
    expect(server.received.filter((r) => r.method === 'POST').map((r) => r.url)).toEqual([
      '/v1alpha/sessions/s1:approvePlan'
    ])
    await polled
    await rig.watch.told
    expect(rig.watch.views()[0]?.status).toBe('running')
    expect(rig.rounds.flatMap((r) => r.events)).toContainEqual(
      expect.objectContaining({ kind: 'agent-status', from: 'waiting', to: 'running', serviceStatus: 'IN_PROGRESS' })
    )
  })

  it("a muted source's tasks are not told, and their failures are not marked unseen", async () => {
    sessions.set('s1', { ...session('s1', 'IN_PROGRESS'), sourceContext: { source: 'sources/github/o/r' } })
    const rig = julesWatch({ muted: ['sources/github/o/r'] })
    await rig.watch.pollNow()
    expect(rig.watch.views()[0]?.project?.id).toBe('sources/github/o/r')
    sessions.set('s1', {
      ...session('s1', 'FAILED', '2026-03-01T08:30:00Z'),
      sourceContext: { source: 'sources/github/o/r' }
    })
    await rig.watch.pollNow()
    expect(rig.watch.views()[0]?.status).toBe('failed')
    expect(rig.rounds).toEqual([])
    expect(rig.watch.views()[0]?.unseenFailure).toBe(false)
  })
})

describe('failures', () => {
  it('a failure is unseen until its task is opened, and the memory keeps it', async () => {
    sessions.set('s1', session('s1', 'IN_PROGRESS'))
    const rig = julesWatch()
    await rig.watch.pollNow()
    sessions.set('s1', session('s1', 'FAILED', '2026-03-01T08:20:00Z'))
    await rig.watch.pollNow()
    expect(rig.watch.views()[0]?.unseenFailure).toBe(true)
    expect(rig.saved.at(-1)?.unseenFailures).toEqual(['s1'])
    const opened = await rig.watch.task('s1')
    expect(opened.steps?.length).toBeGreaterThan(0)
    expect(opened.unseenFailure).toBe(false)
    expect(rig.watch.views()[0]?.unseenFailure).toBe(false)
    await rig.watch.close()
    expect(rig.saved.at(-1)?.unseenFailures).toEqual([])
  })

  it('a state the adapter does not know is unknown with its word, and the poll goes on', async () => {
    sessions.set('s1', session('s1', 'DREAMING'))
    const rig = julesWatch()
    await rig.watch.pollNow()
    expect(rig.watch.views()[0]).toEqual(expect.objectContaining({ status: 'unknown', serviceStatus: 'DREAMING' }))
    expect(rig.watch.health.state).toBe('ok')
  })

  it('a 500 makes the health an error without throwing, and the next poll backs off', async () => {
    sessions.set('s1', session('s1', 'IN_PROGRESS'))
    const rig = julesWatch()
    rig.watch.start()
    await rig.changed()
    server.handle((_req, res) =>
      json(res, 500, { error: { code: 500, message: 'Backend trouble', status: 'INTERNAL' } })
    )
    await rig.watch.pollNow()
    const health = rig.watch.health
    expect(health).toEqual(
      expect.objectContaining({ state: 'error', error: expect.objectContaining({ kind: 'server', status: 500 }) })
    )
    // The first error waits the active interval (5 s), the second twice that.
    const requests = server.received.length
    const second = rig.changed()
    await clock.advance(DEFAULT_POLLING_PREFS.activeIntervalMs * 1.2)
    await second
    expect(server.received.length).toBe(requests + 1)
    const next = rig.watch.health
    expect(next.state === 'error' && Date.parse(next.nextPollAt) - clock.now()).toBeGreaterThanOrEqual(9_000)
    expect(next.state === 'error' && next.since).toBe(health.state === 'error' && health.since)
  })
})

describe('etiquette', () => {
  it("GitHub's X-Poll-Interval holds the next poll back past the active interval", async () => {
    const task = { ...(LIST_TASKS_FOR_REPO.tasks[0] as Record<string, unknown>), id: 'g1', state: 'in_progress' }
    server.handle((_req, res) => json(res, 200, { tasks: [task], total_active_count: 1 }, { 'x-poll-interval': '60' }))
    const changes: (() => void)[] = []
    const watch = new AgentWatch({
      connectionId: 'c-gh',
      account: openAgentAccount('github', {
        key: 'github_pat_TEST',
        account: 'Work',
        baseUrl: server.url,
        now: () => clock.now()
      }),
      polling: DEFAULT_POLLING_PREFS,
      clock,
      random: () => 0.5,
      limiter: createLimiter(1),
      memory: null,
      save: async () => undefined,
      muted: () => false,
      onRound: () => undefined,
      onChange: () => changes.splice(0).forEach((c) => c()),
      onError: () => undefined
    })
    watches.push(watch)
    const polled = new Promise<void>((resolve) => changes.push(resolve))
    watch.start()
    await polled
    expect(watch.views()[0]?.status).toBe('running')
    expect(server.received).toHaveLength(1)
    // Active: 5 s by the settings, but the service asked for 60 s.
    await clock.advance(30_000)
    expect(server.received).toHaveLength(1)
    const again = new Promise<void>((resolve) => changes.push(resolve))
    await clock.advance(31_000)
    await again
    expect(server.received).toHaveLength(2)
    // Refresh inside the interval sends nothing: the etiquette first.
    await watch.pollNow()
    expect(server.received).toHaveLength(2)
  })
})

describe('orderAgentTasks', () => {
  const t = (id: string, status: ProviderTask['status'], updatedAt: string | null): ProviderTask => ({
    id,
    title: id,
    status,
    serviceStatus: status,
    waiting: null,
    links: { page: null, pullRequests: [], preview: null },
    project: null,
    createdAt: null,
    updatedAt,
    costs: []
  })

  it('what needs you first, then failures, then what runs; newest first within each', () => {
    const ordered = orderAgentTasks([
      t('done', 'completed', '2026-03-01T10:00:00Z'),
      t('run-old', 'running', '2026-03-01T08:00:00Z'),
      t('fail', 'failed', '2026-03-01T07:00:00Z'),
      t('run-new', 'running', '2026-03-01T09:00:00Z'),
      t('wait', 'waiting', null),
      t('odd', 'unknown', '2026-03-01T11:00:00Z')
    ])
    expect(ordered.map((x) => x.id)).toEqual(['wait', 'fail', 'run-new', 'run-old', 'done', 'odd'])
  })
})
