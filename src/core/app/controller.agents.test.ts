// Agent accounts through the controller, over real HTTP against a loopback Jules and a real state.json: the key
// checked before it is stored, a waiting session told once and not again after a restart, approving and replying
// through the handlers, a failure unseen until opened, a muted source, and removal forgetting what was seen.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest'
import { LIST_ACTIVITIES } from '../../reference-service/jules/docs-examples'
import type { MonitorEvent } from '../../shared/monitor'
import { json, startTestServer, type TestServer } from '../providers/test-server'
import { createSessionSecretStore, type SecretStore } from '../secrets'
import { openSettings } from '../settings/store'
import { ManualClock } from '../util/clock'
import { type AppController, createAppController } from './controller'
import { dispatch } from './dispatch'
import { referenceControllerPorts } from './test-controller'

const KEY = 'AIzaSyTEST-controller-agents'
const START = Date.parse('2026-03-01T09:00:00Z')

let server: TestServer
let dir: string
let secrets: SecretStore
let controller: AppController
let events: MonitorEvent[]
let sessions: Map<string, Record<string, unknown>>

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(() => server.close())

async function open(): Promise<void> {
  controller = createAppController(
    referenceControllerPorts({
      settings: await openSettings({ dir }),
      secrets,
      clock: new ManualClock(START)
    })
  )
  controller.on('monitor:event', (e) => events.push(e))
  await controller.start()
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-tray-agents-'))
  secrets = createSessionSecretStore('Kept in memory for this test.')
  events = []
  sessions = new Map()
  server.received.length = 0
  server.handle((req, res) => {
    if (req.headers['x-goog-api-key'] !== KEY)
      return json(res, 401, { error: { code: 401, message: 'Invalid key.', status: 'UNAUTHENTICATED' } })
    const url = new URL(req.url, server.url)
    if (url.pathname === '/v1alpha/sessions') return json(res, 200, { sessions: [...sessions.values()] })
    if (/\/activities$/.test(url.pathname)) return json(res, 200, { activities: LIST_ACTIVITIES.activities })
    if (req.method === 'POST') return json(res, 200, {})
    json(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } })
  })
  await open()
})

afterEach(async () => {
  await controller.stop()
  await rm(dir, { recursive: true, force: true })
})

const session = (id: string, state: string, updateTime: string, source?: string) => ({
  id,
  title: `Task ${id}`,
  state,
  updateTime,
  url: `https://jules.google.com/session/${id}`,
  ...(source === undefined ? {} : { sourceContext: { source } })
})

async function addJules(): Promise<string> {
  const view = await controller.handlers['connection:save']({
    connection: { name: 'Mine', baseUrl: `${server.url}/v1alpha`, publishingDomain: '', service: 'jules' },
    apiKey: KEY
  })
  return view.id
}

const pollNow = () => controller.handlers['monitor:poll-now']()
const waiting = () => events.filter((e) => e.kind === 'agent-waiting')

it('checks the key with the service before storing it, and keeps the account as of its service', async () => {
  const refused = await dispatch(controller.handlers, 'connection:save', {
    connection: { name: 'Mine', baseUrl: `${server.url}/v1alpha`, publishingDomain: '', service: 'jules' },
    apiKey: 'wrong-key'
  })
  expect(refused).toEqual({ ok: false, error: expect.objectContaining({ kind: 'auth' }) })
  expect(controller.getState().connections).toEqual([])

  const id = await addJules()
  const [connection] = controller.getState().connections
  expect(connection).toEqual(expect.objectContaining({ id, service: 'jules', hasKey: true }))
  await pollNow()
  expect(controller.getState().connections[0]?.agentHealth).toEqual({ state: 'ok', polledAt: expect.any(String) })
})

it('a session awaiting plan approval is told once, and not again after a restart', async () => {
  sessions.set('s1', session('s1', 'IN_PROGRESS', '2026-03-01T08:00:00Z'))
  sessions.set('s2', session('s2', 'COMPLETED', '2026-03-01T08:30:00Z'))
  const connectionId = await addJules()
  await pollNow()
  expect(events).toEqual([])

  sessions.set('s1', session('s1', 'AWAITING_PLAN_APPROVAL', '2026-03-01T08:10:00Z'))
  await pollNow()
  expect(waiting()).toEqual([
    expect.objectContaining({ connectionId, taskId: 's1', waiting: expect.objectContaining({ kind: 'plan_approval' }) })
  ])
  expect(controller.getState().agentTasks.map((t) => [t.id, t.status, t.connectionId])).toEqual([
    ['s1', 'waiting', connectionId],
    ['s2', 'completed', connectionId]
  ])
  await pollNow()
  expect(waiting()).toHaveLength(1)

  await controller.stop()
  const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { agents: Record<string, unknown> }
  expect(Object.keys(state.agents)).toEqual([connectionId])
  events = []
  await open()
  await pollNow()
  expect(controller.getState().agentTasks[0]?.status).toBe('waiting')
  expect(events).toEqual([])
})

it('approves and replies through the handlers, each reaching the service', async () => {
  sessions.set('s1', session('s1', 'AWAITING_PLAN_APPROVAL', '2026-03-01T08:00:00Z'))
  const connectionId = await addJules()
  await pollNow()
  await controller.handlers['agent:approve']({ connectionId, taskId: 's1' })
  expect(
    await dispatch(controller.handlers, 'agent:reply', { connectionId, taskId: 's1', message: '  Go on.  ' })
  ).toEqual({ ok: true, value: undefined })
  expect(server.received.filter((r) => r.method === 'POST').map((r) => [r.url, r.body])).toEqual([
    ['/v1alpha/sessions/s1:approvePlan', '{}'],
    ['/v1alpha/sessions/s1:sendMessage', '{"prompt":"Go on."}']
  ])
  expect(await dispatch(controller.handlers, 'agent:approve', { connectionId: 'nope', taskId: 's1' })).toEqual({
    ok: false,
    error: expect.objectContaining({ kind: 'invalid_argument' })
  })
})

it('a failure is unseen until its task is opened; a muted source is not told', async () => {
  sessions.set('s1', session('s1', 'IN_PROGRESS', '2026-03-01T08:00:00Z'))
  sessions.set('s2', session('s2', 'IN_PROGRESS', '2026-03-01T08:00:00Z', 'sources/github/o/r'))
  const connectionId = await addJules()
  await pollNow()
  await controller.handlers['agent:mute-project']({ connectionId, projectId: 'sources/github/o/r', muted: true })
  sessions.set('s1', session('s1', 'FAILED', '2026-03-01T08:20:00Z'))
  sessions.set('s2', session('s2', 'FAILED', '2026-03-01T08:20:00Z', 'sources/github/o/r'))
  await pollNow()
  expect(events.map((e) => e.kind === 'agent-status' && [e.taskId, e.to])).toEqual([['s1', 'failed']])
  const unseen = () =>
    controller
      .getState()
      .agentTasks.filter((t) => t.unseenFailure)
      .map((t) => t.id)
  expect(unseen()).toEqual(['s1'])

  const opened = await controller.handlers['agent:task']({ connectionId, taskId: 's1' })
  expect(opened.steps?.length).toBeGreaterThan(0)
  expect(unseen()).toEqual([])

  await controller.handlers['connection:remove']({ connectionId })
  expect(controller.getState().agentTasks).toEqual([])
  await controller.stop()
  const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as { agents: Record<string, unknown> }
  const config = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>
  expect(state.agents).toEqual({})
  expect(config.mutedAgentProjects).toEqual({})
  await open()
})
