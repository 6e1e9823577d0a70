import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANUAL_START_TIME, type ReferenceService, startReferenceService } from '../../reference-service'
import { type AppState, EVENT_CHANNELS, type EventContract } from '../../shared/ipc'
import { createServiceClient } from '../client'
import type { Notification } from '../notify/policy'
import { createSessionSecretStore, decodeBoundKey, type SecretStore } from '../secrets'
import { openSettings, type SettingsStore } from '../settings/store'
import { ManualClock } from '../util/clock'
import { type AppController, createAppController, DEMO_CONNECTION_ID } from './controller'
import { dispatch } from './dispatch'
import type { ControllerPorts } from './ports'
import { referenceControllerPorts } from './test-controller'

const API_KEY = 'test-key-7f3a9c'

interface Rig {
  service: ReferenceService
  dir: string
  settings: SettingsStore
  secrets: SecretStore
  clock: ManualClock
  controller: AppController
  opened: string[]
  notified: Notification[]
  events: { [E in keyof EventContract]: EventContract[E][] }
}

let rig: Rig
const cleanups: (() => Promise<void>)[] = []

async function makeController(
  dir: string,
  service: ReferenceService,
  secrets: SecretStore,
  extra: Partial<ControllerPorts> = {}
) {
  const settings = await openSettings({ dir })
  const clock = new ManualClock(Date.parse(MANUAL_START_TIME))
  const opened: string[] = []
  const notified: Notification[] = []
  const controller = createAppController(
    referenceControllerPorts({
      settings,
      secrets,
      openExternal: async (url) => {
        opened.push(url)
      },
      notify: (n) => notified.push(n),
      clock,
      ...extra
    })
  )
  const events = Object.fromEntries(EVENT_CHANNELS.map((c) => [c, []])) as unknown as Rig['events']
  for (const channel of EVENT_CHANNELS)
    controller.on(channel, (payload: unknown) => (events[channel] as unknown[]).push(payload))
  return { settings, clock, controller, opened, notified, events }
}

beforeEach(async () => {
  const service = await startReferenceService({ apiKey: API_KEY, port: 0, seed: 7, manualClock: true })
  const dir = await mkdtemp(join(tmpdir(), 'agent-tray-app-'))
  const secrets = createSessionSecretStore('Kept in memory for this test.')
  const parts = await makeController(dir, service, secrets)
  rig = { service, dir, secrets, ...parts }
  await rig.controller.start()
  cleanups.push(async () => {
    await rig.controller.stop()
    await service.close()
    await rm(dir, { recursive: true, force: true })
  })
})

afterEach(async () => {
  for (const c of cleanups.splice(0)) await c()
})

async function connect(): Promise<string> {
  const view = await rig.controller.handlers['connection:save']({
    connection: { name: 'Local', baseUrl: rig.service.url, publishingDomain: rig.service.publishingDomain },
    apiKey: API_KEY
  })
  return view.id
}

/** The key kept for a connection (the store holds it with its origin, core/secrets/custody.ts). */
async function storedKey(id: string): Promise<string | null> {
  const stored = await rig.secrets.get(id)
  return stored === null ? null : (decodeBoundKey(stored)?.key ?? null)
}

async function pollNow(): Promise<void> {
  await rig.controller.handlers['monitor:poll-now']()
}

/** Lets the coalesced 'app:state' push go out. */
async function flushState(): Promise<AppState> {
  await rig.clock.advance(150)
  const last = rig.events['app:state'].at(-1)
  if (!last) throw new Error('no app:state was pushed')
  return last
}

describe('connections', () => {
  it('stores the key in the secret store only: never in state, events or settings files', async () => {
    const id = await connect()
    expect(await storedKey(id)).toBe(API_KEY)
    const state = rig.controller.getState()
    expect(state.activeConnectionId).toBe(id)
    expect(state.connections).toEqual([
      {
        id,
        name: 'Local',
        baseUrl: rig.service.url,
        publishingDomain: rig.service.publishingDomain,
        hasKey: true,
        problem: null,
        notifications: { muted: false, pausedUntil: null },
        agentHealth: null
      }
    ])
    await flushState()
    expect(JSON.stringify(rig.events)).not.toContain(API_KEY)
    // Files only: the outbox's lock (a directory) is held while the app forwards.
    for (const file of await readdir(rig.dir, { withFileTypes: true })) {
      if (file.isFile()) expect(await readFile(join(rig.dir, file.name), 'utf8')).not.toContain(API_KEY)
    }
  })

  it('needs a connection before project calls, with a clear message', async () => {
    const result = await dispatch(rig.controller.handlers, 'project:watch', { projectId: 'p1' })
    expect(result).toEqual({
      ok: false,
      error: { kind: 'invalid_argument', message: expect.stringMatching(/No service connection/) }
    })
  })

  it('refuses to update a connection that does not exist', async () => {
    await expect(
      rig.controller.handlers['connection:save']({
        connection: { id: 'nope', name: 'X', baseUrl: rig.service.url, publishingDomain: '' }
      })
    ).rejects.toThrow(/no connection with id "nope"/)
    expect(rig.controller.getState().connections).toEqual([])
  })

  it('a key the service rejects is not saved: an auth error that never repeats the key', async () => {
    const result = await dispatch(rig.controller.handlers, 'connection:save', {
      connection: { name: 'Bad', baseUrl: rig.service.url, publishingDomain: '' },
      apiKey: 'wrong-key'
    })
    expect(result).toMatchObject({
      ok: false,
      error: { kind: 'auth', message: expect.stringMatching(/rejected this API key/) }
    })
    expect(JSON.stringify(result)).not.toContain('wrong-key')
    expect(rig.controller.getState().connections).toEqual([])
    expect(rig.settings.read().connections).toEqual([])
  })

  it('a service that cannot be reached is not saved either', async () => {
    const result = await dispatch(rig.controller.handlers, 'connection:save', {
      connection: { name: 'Nowhere', baseUrl: 'http://127.0.0.1:9', publishingDomain: '' },
      apiKey: API_KEY
    })
    expect(result).toMatchObject({ ok: false, error: { kind: 'network' } })
    expect(rig.settings.read().connections).toEqual([])
  })

  it('moving a connection to another origin asks for the key again: the stored key is never sent there', async () => {
    const id = await connect()
    const other = await startReferenceService({ apiKey: 'other-key-2', port: 0, seed: 3, manualClock: true })
    cleanups.push(() => other.close())
    const move = { id, name: 'Local', baseUrl: other.url, publishingDomain: '' }
    const refused = await dispatch(rig.controller.handlers, 'connection:save', { connection: move })
    expect(refused).toEqual({
      ok: false,
      error: { kind: 'invalid_argument', message: expect.stringMatching(/enter the API key again/) }
    })
    expect(other.control.stats().requests).toBe(0)
    expect(rig.settings.read().connections[0]?.baseUrl).toBe(rig.service.url)
    // The key that belongs here is checked here before anything is saved; a wrong one saves nothing.
    const wrong = await dispatch(rig.controller.handlers, 'connection:save', { connection: move, apiKey: API_KEY })
    expect(wrong).toMatchObject({ ok: false, error: { kind: 'auth' } })
    expect(rig.settings.read().connections[0]?.baseUrl).toBe(rig.service.url)
    expect(await storedKey(id)).toBe(API_KEY)
    await rig.controller.handlers['connection:save']({ connection: move, apiKey: 'other-key-2' })
    expect(rig.settings.read().connections[0]?.baseUrl).toBe(other.url)
    expect(await storedKey(id)).toBe('other-key-2')
    // Another path on the same origin keeps the key.
    await rig.controller.handlers['connection:save']({ connection: { ...move, baseUrl: `${other.url}/` } })
    expect(rig.controller.getState().connections[0]).toMatchObject({
      hasKey: true,
      problem: null,
      notifications: { muted: false, pausedUntil: null }
    })
  })

  it('refuses plain http to another machine before any key is checked or stored', async () => {
    let clients = 0
    const parts = await makeController(rig.dir, rig.service, rig.secrets, {
      createClient: (connection, apiKey) => (clients++, createServiceClient({ baseUrl: connection.baseUrl, apiKey }))
    })
    await parts.controller.start()
    cleanups.push(() => parts.controller.stop())
    await expect(
      parts.controller.handlers['connection:save']({
        connection: { name: 'Plain', baseUrl: 'http://agents.example.com', publishingDomain: '' },
        apiKey: API_KEY
      })
    ).rejects.toThrow(/must use https: plain http would send the API key in clear text/)
    expect(clients).toBe(0)
    expect(parts.settings.read().connections).toEqual([])
  })

  it('a stored plain-http connection is kept and shown with its problem, and no key is read for it or sent', async () => {
    await rig.settings.update((draft) => {
      draft.connections.push({ id: 'old', name: 'Old', baseUrl: 'http://agents.example.com', publishingDomain: '' })
      draft.watched.old = []
      draft.activeConnectionId = 'old'
    })
    await rig.secrets.set('old', 'old-key')
    let clients = 0
    const parts = await makeController(rig.dir, rig.service, rig.secrets, {
      createClient: (connection, apiKey) => (clients++, createServiceClient({ baseUrl: connection.baseUrl, apiKey }))
    })
    await parts.controller.start()
    cleanups.push(() => parts.controller.stop())
    expect(clients).toBe(0)
    expect(parts.controller.monitor).toBeNull()
    expect(parts.controller.getState().connections).toEqual([
      {
        id: 'old',
        name: 'Old',
        baseUrl: 'http://agents.example.com',
        publishingDomain: '',
        hasKey: true,
        problem: expect.stringMatching(/must use https/),
        notifications: { muted: false, pausedUntil: null },
        agentHealth: null
      }
    ])
    const result = await dispatch(parts.controller.handlers, 'project:tasks', { projectId: 'p1' })
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'invalid_argument',
        message: expect.stringMatching(/must use https.*Change the connection's address in Settings/)
      }
    })
    expect(clients).toBe(0)
  })

  it('removes a connection with its key and watched projects', async () => {
    const id = await connect()
    const project = rig.service.control.createProject({ name: 'P' })
    await rig.controller.handlers['project:watch']({ projectId: project.id })
    await rig.controller.handlers['connection:remove']({ connectionId: id })
    expect(await rig.secrets.has(id)).toBe(false)
    expect(rig.settings.read().watched[id]).toBeUndefined()
    const state = rig.controller.getState()
    expect(state).toMatchObject({ connections: [], activeConnectionId: null, projects: [] })
    expect(rig.controller.monitor).toBeNull()
  })

  it('removing a connection forgets what its monitor saw (the last seen state is not written back)', async () => {
    const id = await connect()
    const project = rig.service.control.createProject({ name: 'P' })
    rig.service.control.addTask(project.id, { name: 'T', status: 'in_progress', script: 'run-forever' })
    await rig.controller.handlers['project:watch']({ projectId: project.id })
    await pollNow()
    await rig.controller.handlers['connection:remove']({ connectionId: id })
    expect(rig.settings.readLastSeen()[id] ?? {}).toEqual({})
  })

  it('watches every connection at once; the active one is where new projects are watched', async () => {
    const first = await connect()
    const p1 = rig.service.control.createProject({ name: 'First' })
    await rig.controller.handlers['project:watch']({ projectId: p1.id })
    const second = (
      await rig.controller.handlers['connection:save']({
        connection: { name: 'Other', baseUrl: rig.service.url, publishingDomain: '' },
        apiKey: API_KEY
      })
    ).id
    expect(rig.controller.getState().activeConnectionId).toBe(first)
    await rig.controller.handlers['connection:activate']({ connectionId: second })
    const p2 = rig.service.control.createProject({ name: 'Second' })
    await rig.controller.handlers['project:watch']({ projectId: p2.id })
    expect(rig.settings.read().watched[second]?.map((w) => w.projectId)).toEqual([p2.id])
    // Both connections stay open and shown, each project with its connection.
    expect(rig.controller.getState().projects.map((p) => [p.connectionId, p.watched.projectId])).toEqual([
      [first, p1.id],
      [second, p2.id]
    ])
    expect(rig.controller.monitor?.connectionId).toBe(second)
    // A request about a project goes to the connection watching it, whichever is active.
    rig.service.control.addTask(p1.id, { name: 'Only in the first project' })
    const tasks = await rig.controller.handlers['project:tasks']({ projectId: p1.id })
    expect(tasks.map((t) => t.name)).toContain('Only in the first project')
    await expect(rig.controller.handlers['project:tasks']({ connectionId: 'nope', projectId: p1.id })).rejects.toThrow(
      /no connection with id "nope"/
    )
  })
})

describe('projects', () => {
  it('watching a missing project gives not_found and saves nothing', async () => {
    const id = await connect()
    const result = await dispatch(rig.controller.handlers, 'project:watch', { projectId: 'no-such-project' })
    expect(result).toEqual({
      ok: false,
      error: {
        kind: 'not_found',
        status: 404,
        message: 'There is no project "no-such-project" on Local: check the id.'
      }
    })
    expect(rig.settings.read().watched[id]).toEqual([])
    expect(rig.controller.getState().projects).toEqual([])
  })

  it('watches a project, polls it, and shows counts and cost', async () => {
    await connect()
    const project = rig.service.control.createProject({ name: 'Shop' })
    rig.service.control.addTask(project.id, { name: 'Running', status: 'in_progress', script: 'run-forever' })
    rig.service.control.addTask(project.id, { name: 'Broke', status: 'failed' })
    const watched = await rig.controller.handlers['project:watch']({ projectId: project.id })
    expect(watched).toMatchObject({ projectId: project.id, name: 'Shop', muted: false })
    // Watching twice keeps one entry.
    await rig.controller.handlers['project:watch']({ projectId: project.id })
    await pollNow()
    const state = await flushState()
    expect(state.projects).toHaveLength(1)
    const view = state.projects[0]!
    expect(view.project?.name).toBe('Shop')
    expect(view.health.state).toBe('ok')
    expect(view.counts).toEqual({ running: 1, failed: 1, total: 2 })
    const tasks = await rig.controller.handlers['project:tasks']({ projectId: project.id })
    const total = tasks.reduce((s, t) => s + (t.total_price ?? 0), 0)
    expect(view.costTotalUsd).toBeCloseTo(total, 6)
    expect(view.lastActivityAt).not.toBeNull()
  })

  it('a task the service sent broken is left out with a notice: one per kind, replaced at most once a minute', async () => {
    await connect()
    const project = rig.service.control.createProject({ name: 'Shop' })
    rig.service.control.addTask(project.id, { name: 'One', status: 'completed' })
    rig.service.control.addTask(project.id, { name: 'Two', status: 'failed' })
    await rig.controller.handlers['project:watch']({ projectId: project.id })
    await pollNow()
    expect((await flushState()).notices).toEqual([])

    const breakOne = (index: number) =>
      rig.service.control.setFaults({
        rules: [{ kind: 'corrupt_record', index, pathPrefix: `/projects/${project.id}/tasks`, times: 1 }]
      })
    breakOne(0)
    await pollNow()
    let state = await flushState()
    expect(state.projects[0]?.counts.total).toBe(1)
    expect(state.notices).toEqual([
      expect.stringMatching(/^The service sent a task that could not be read \(\[0\]\.id: .+\); it was left out/)
    ])
    const first = state.notices[0]

    breakOne(1)
    await pollNow()
    expect((await flushState()).notices).toEqual([first])

    await rig.clock.advance(60_000)
    breakOne(1)
    await pollNow()
    state = await flushState()
    expect(state.notices).toEqual([expect.stringContaining('([1].id: ')])

    rig.controller.reportInvalidRecord({
      resource: 'step',
      index: 2,
      id: 's-1',
      path: '[2].status',
      message: 'bad status'
    })
    expect((await flushState()).notices).toEqual([
      state.notices[0],
      expect.stringContaining('a step "s-1" that could not be read ([2].status: bad status)')
    ])
  })

  it('reports a task status change as a monitor event and a notification', async () => {
    await connect()
    const project = rig.service.control.createProject({ name: 'Shop' })
    const task = rig.service.control.addTask(project.id, {
      name: 'Build cart',
      status: 'in_progress',
      script: 'run-forever'
    })
    await rig.controller.handlers['project:watch']({ projectId: project.id })
    await pollNow()
    rig.service.control.setTaskStatus(task.id, 'completed')
    await pollNow()
    expect(rig.events['monitor:event']).toContainEqual(
      expect.objectContaining({
        kind: 'task-status',
        projectId: project.id,
        taskId: task.id,
        from: 'in_progress',
        to: 'completed'
      })
    )
    expect(rig.events['notification:shown']).toEqual([
      expect.objectContaining({ projectId: project.id, taskId: task.id, body: expect.stringContaining('Build cart') })
    ])
    expect(rig.notified).toHaveLength(1)
    expect(rig.notified[0]).toMatchObject({ kind: 'task', taskId: task.id })
    const state = await flushState()
    expect(state.projects[0]?.counts).toMatchObject({ running: 0, failed: 0, total: 1 })
  })

  it('does not notify while notifications are paused, nor for a muted project', async () => {
    await connect()
    const project = rig.service.control.createProject({ name: 'Shop' })
    const a = rig.service.control.addTask(project.id, { name: 'A', status: 'in_progress', script: 'run-forever' })
    const b = rig.service.control.addTask(project.id, { name: 'B', status: 'in_progress', script: 'run-forever' })
    await rig.controller.handlers['project:watch']({ projectId: project.id })
    await pollNow()
    await rig.controller.handlers['monitor:pause-notifications']({ minutes: 30 })
    expect(rig.controller.getState().monitor.notificationsPausedUntil).toBe(
      new Date(rig.clock.now() + 30 * 60_000).toISOString()
    )
    rig.service.control.setTaskStatus(a.id, 'completed')
    await pollNow()
    expect(rig.events['monitor:event'].some((e) => e.kind === 'task-status')).toBe(true)
    expect(rig.events['notification:shown']).toEqual([])

    await rig.controller.handlers['monitor:pause-notifications']({ minutes: null })
    expect(rig.controller.getState().monitor.notificationsPausedUntil).toBeNull()
    expect(rig.settings.read().notifications.pausedUntil).toBeNull()
    await rig.controller.handlers['project:set-watch-options']({ projectId: project.id, muted: true })
    rig.service.control.setTaskStatus(b.id, 'failed')
    await pollNow()
    expect(rig.events['notification:shown']).toEqual([])
  })

  it('creates (and watches), updates and publishes a project', async () => {
    await connect()
    const created = await rig.controller.handlers['project:create']({
      project: { name: 'New app', project_type: 'web', user_email: 'ann@example.com' },
      watch: true
    })
    expect(created.name).toBe('New app')
    expect(rig.controller.getState().projects.map((p) => p.watched.projectId)).toEqual([created.id])
    const updated = await rig.controller.handlers['project:update']({
      projectId: created.id,
      update: { name: 'Renamed' }
    })
    expect(updated.name).toBe('Renamed')
    expect(rig.controller.getState().projects[0]?.project?.name).toBe('Renamed')
    // The settings remember the new name, for the list before the first poll of the next run.
    await expect
      .poll(() => rig.settings.read().watched[rig.controller.getState().activeConnectionId!]?.[0]?.name)
      .toBe('Renamed')

    const wrong = await dispatch(rig.controller.handlers, 'project:publish', {
      projectId: created.id,
      hostname: 'my-app.example.com'
    })
    expect(wrong).toMatchObject({
      ok: false,
      error: { kind: 'invalid_argument', message: expect.stringMatching(/sub-domain of/) }
    })
    const published = await rig.controller.handlers['project:publish']({
      projectId: created.id,
      hostname: `my-app.${rig.service.publishingDomain}`
    })
    expect(published.status).toBe('success')
  })

  it("sets a new project's return URL to its agent-tray:// link when asked, and only then", async () => {
    await connect()
    const linked = await rig.controller.handlers['project:create']({
      project: { name: 'Linked' },
      watch: true,
      returnToApp: true
    })
    expect(linked.return_url).toBe(`agent-tray://projects/${linked.id}`)
    expect(rig.service.control.listProjects().find((p) => p.id === linked.id)?.return_url).toBe(
      `agent-tray://projects/${linked.id}`
    )
    const plain = await rig.controller.handlers['project:create']({ project: { name: 'Plain' }, watch: false })
    expect(plain.return_url ?? '').toBe('')
    // A return URL the user gave wins.
    const own = await rig.controller.handlers['project:create']({
      project: { name: 'Own', return_url: 'https://example.com/back' },
      watch: false,
      returnToApp: true
    })
    expect(own.return_url).toBe('https://example.com/back')
  })

  it('creates without watching when asked', async () => {
    await connect()
    const created = await rig.controller.handlers['project:create']({ project: { name: 'Loose' }, watch: false })
    expect(created.id).toBeTruthy()
    expect(rig.controller.getState().projects).toEqual([])
  })

  it('a budget reached during a pause is told once the pause is over, once, and only then', async () => {
    await connect()
    const project = rig.service.control.createProject({ name: 'Costly' })
    rig.service.control.addTask(project.id, { name: 'Big', status: 'completed' })
    await rig.controller.handlers['project:watch']({ projectId: project.id })
    await pollNow()
    const spent = (await rig.controller.handlers['project:tasks']({ projectId: project.id })).reduce(
      (s, t) => s + (t.total_price ?? 0),
      0
    )
    expect(spent).toBeGreaterThan(0)
    await rig.controller.handlers['monitor:pause-notifications']({ minutes: 5 })
    await rig.controller.handlers['project:set-watch-options']({ projectId: project.id, budgetUsd: spent / 2 })
    rig.service.control.addTask(project.id, { name: 'More', status: 'todo' })
    await pollNow()
    expect(rig.controller.getState().monitor.notificationsPausedUntil).not.toBeNull()
    expect(rig.notified).toEqual([])

    await rig.clock.advance(4 * 60_000)
    expect(rig.notified).toEqual([])
    await rig.clock.advance(2 * 60_000)
    const told = rig.notified.filter((n) => n.kind === 'budget')
    expect(told).toEqual([
      expect.objectContaining({
        kind: 'budget',
        projectId: project.id,
        title: "Budget reached: project 'Costly', total"
      })
    ])
    await rig.clock.advance(5 * 60_000)
    await pollNow()
    expect(rig.notified.filter((n) => n.kind === 'budget')).toHaveLength(1)
  })

  it('sets a budget and unwatches', async () => {
    const id = await connect()
    const project = rig.service.control.createProject({ name: 'Shop' })
    await rig.controller.handlers['project:watch']({ projectId: project.id })
    await rig.controller.handlers['project:set-watch-options']({ projectId: project.id, budgetUsd: 5 })
    expect(rig.settings.read().budgets[id]).toMatchObject([
      { projectId: project.id, period: 'total', limitUsd: 5, warnRatio: 0.8 }
    ])
    expect(rig.controller.getState().projects[0]?.budgetUsd).toBe(5)
    await rig.controller.handlers['project:unwatch']({ projectId: project.id })
    // Its budgets go with it.
    expect(rig.settings.read().budgets[id]).toEqual([])
    expect(rig.controller.getState().projects).toEqual([])
    expect(rig.controller.monitor?.watched()).toEqual([])
    await expect(
      rig.controller.handlers['project:set-watch-options']({ projectId: project.id, muted: true })
    ).rejects.toThrow(/not watched/)
  })

  it('gives task details and focuses the task', async () => {
    await connect()
    const project = rig.service.control.createProject({ name: 'Shop' })
    const task = rig.service.control.addTask(project.id, { name: 'Done', status: 'completed' })
    await rig.controller.handlers['project:watch']({ projectId: project.id })
    const details = await rig.controller.handlers['task:details']({ taskId: task.id })
    expect(details.steps.length).toBeGreaterThan(0)
    expect(details.steps.every((s) => s.task_id === task.id)).toBe(true)
    expect(rig.controller.monitor?.focusedTask).toBe(task.id)
    await rig.controller.handlers['task:focus']({ taskId: null })
    expect(rig.controller.monitor?.focusedTask).toBeNull()
  })

  it('lists tasks as summaries and gives one task in full', async () => {
    await connect()
    const project = rig.service.control.createProject({ name: 'Shop' })
    const done = rig.service.control.addTask(project.id, {
      name: 'Done',
      status: 'completed',
      text_requirement: 'Build the cart page'
    })
    rig.service.control.addTask(project.id, { name: 'Running', status: 'in_progress', script: 'run-forever' })
    // Unwatched: straight from the service; watched: from what the monitor holds.
    for (const watch of [false, true]) {
      if (watch) {
        await rig.controller.handlers['project:watch']({ projectId: project.id })
        await pollNow()
      }
      const summaries = await rig.controller.handlers['project:tasks']({ projectId: project.id })
      expect(summaries.map((t) => t.name).sort()).toEqual(['Done', 'Running'])
      const full = await rig.controller.handlers['project:task']({ projectId: project.id, taskId: done.id })
      expect(full?.text_requirement).toBe('Build the cart page')
      const summary = summaries.find((t) => t.id === done.id)!
      expect(summary).not.toHaveProperty('steps')
      expect(summary).not.toHaveProperty('text_requirement')
      expect(summary).toMatchObject({ status: 'completed', total_price: full?.total_price, branch: full?.branch })
      const counted = Object.values(summary.step_counts).reduce((s, n) => s + (n ?? 0), 0)
      expect(counted).toBeGreaterThan(0)
      expect(counted).toBe(full?.steps.length)
      expect(
        await rig.controller.handlers['project:task']({ projectId: project.id, taskId: 'no-such-task' })
      ).toBeNull()
    }
  })
})

describe('settings, shell and run state', () => {
  it('reads and updates the settings view, and applies polling to the monitor', async () => {
    await connect()
    const before = await rig.controller.handlers['settings:get']()
    expect(before.theme).toBe('system')
    const after = await rig.controller.handlers['settings:update']({
      theme: 'dark',
      polling: { activeIntervalMs: 2000, idleIntervalMs: 30000, maxConcurrency: 2 }
    })
    expect(after).toMatchObject({ theme: 'dark', polling: { activeIntervalMs: 2000 } })
    expect(rig.settings.read().theme).toBe('dark')
    expect(await rig.controller.handlers['settings:get']()).toEqual(after)
  })

  it('opens only http(s) URLs', async () => {
    await rig.controller.handlers['shell:open-external']({ url: 'https://example.com/a' })
    await expect(rig.controller.handlers['shell:open-external']({ url: 'javascript:alert(1)' })).rejects.toThrow(
      /Only http/
    )
    const viaDispatch = await dispatch(rig.controller.handlers, 'shell:open-external', { url: 'file:///etc/passwd' })
    expect(viaDispatch).toMatchObject({ ok: false, error: { kind: 'invalid_argument' } })
    expect(rig.opened).toEqual(['https://example.com/a'])
  })

  it('pauses polling while offline or suspended', async () => {
    await connect()
    expect(rig.controller.getState().monitor.paused).toBe(false)
    rig.controller.setOnline(false)
    expect(rig.controller.getState().monitor.paused).toBe(true)
    rig.controller.suspend()
    rig.controller.setOnline(true)
    expect(rig.controller.getState().monitor.paused).toBe(true)
    rig.controller.resume()
    expect(rig.controller.getState().monitor.paused).toBe(false)
  })

  it('pushes the state again when a notification pause ends', async () => {
    await rig.controller.pauseNotifications(1)
    expect((await flushState()).monitor.notificationsPausedUntil).not.toBeNull()
    await rig.clock.advance(60_000)
    expect((await flushState()).monitor.notificationsPausedUntil).toBeNull()
  })

  it('coalesces state pushes', async () => {
    await connect()
    await flushState()
    const before = rig.events['app:state'].length
    for (let i = 0; i < 5; i++) await rig.controller.handlers['settings:update']({ theme: i % 2 ? 'dark' : 'light' })
    await rig.clock.advance(150)
    expect(rig.events['app:state'].length - before).toBe(1)
  })

  it('openTask emits navigate:task', async () => {
    rig.controller.openTask('p1', 't1')
    expect(rig.events['navigate:task']).toEqual([{ projectId: 'p1', taskId: 't1' }])
  })
})

describe('demo and restarts', () => {
  it('starts the demo: a Demo connection watching the demo projects', async () => {
    const demoService = await startReferenceService({ apiKey: 'demo-key', port: 0, seed: 3, manualClock: true })
    cleanups.push(() => demoService.close())
    await rig.controller.stop()
    const parts = await makeController(rig.dir, rig.service, rig.secrets, {
      startDemo: async () => ({
        baseUrl: demoService.url,
        apiKey: 'demo-key',
        publishingDomain: demoService.publishingDomain,
        ...demoService.control.seedDemo()
      })
    })
    Object.assign(rig, parts)
    await rig.controller.start()
    await rig.controller.handlers['demo:start']()
    const state = rig.controller.getState()
    expect(state.demo).toBe(true)
    expect(state.activeConnectionId).toBe(DEMO_CONNECTION_ID)
    expect(state.projects).toHaveLength(3)
    await pollNow()
    const pushed = await flushState()
    expect(pushed.projects.every((p) => p.health.state === 'ok')).toBe(true)
    expect(pushed.projects.map((p) => p.project?.name).sort()).toEqual([
      'Portfolio site',
      'Recipe Box',
      'Team standup board'
    ])
    expect(JSON.stringify(pushed)).not.toContain('demo-key')
  })

  it('refuses the demo where there is none', async () => {
    const result = await dispatch(rig.controller.handlers, 'demo:start', undefined)
    expect(result).toMatchObject({ ok: false, error: { kind: 'forbidden' } })
  })

  it('after a restart, a change made while away is announced once, as such', async () => {
    await connect()
    const project = rig.service.control.createProject({ name: 'Shop' })
    const task = rig.service.control.addTask(project.id, {
      name: 'Build',
      status: 'in_progress',
      script: 'run-forever'
    })
    await rig.controller.handlers['project:watch']({ projectId: project.id })
    await pollNow()
    await rig.controller.stop()

    rig.service.control.setTaskStatus(task.id, 'completed')
    const parts = await makeController(rig.dir, rig.service, rig.secrets)
    Object.assign(rig, parts)
    await rig.controller.start()
    await pollNow()
    expect(rig.notified).toEqual([expect.objectContaining({ kind: 'away' })])
    await pollNow()
    expect(rig.notified).toHaveLength(1)
  })
})
