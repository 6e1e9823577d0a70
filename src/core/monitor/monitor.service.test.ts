// The monitor against the reference service over real HTTP, through the real client. Only time
// is faked: the monitor's schedule runs on a ManualClock, the service's on its manual clock.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from '../../reference-service/index'
import type { MonitorEvent, ProjectSnapshot } from '../../shared/monitor'
import { DEFAULT_NOTIFICATION_PREFS, type PollingPrefs } from '../../shared/settings'
import { createServiceClient, type ServiceClient } from '../client/index'
import { decideNotifications } from '../notify/policy'
import { ManualClock } from '../util/clock'
import { Monitor, type MonitorCycle, type MonitorOptions, type TaskSource } from './monitor'

const KEY = 'monitor-integration-key'
const polling: PollingPrefs = { activeIntervalMs: 5_000, idleIntervalMs: 60_000, maxConcurrency: 4 }
const DETAILS_ROUTE = 'GET /tasks/{id}/steps-and-usages'

let service: ReferenceService
let client: ServiceClient
const monitors: Monitor[] = []

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 11, manualClock: true })
  // No retries inside the client: the monitor's own backoff is what is under test.
  client = createServiceClient({ baseUrl: service.url, apiKey: KEY, retry: { retries: 0 } })
})
afterAll(async () => {
  await client.close()
  await service.close()
})
beforeEach(() => {
  service.control.clearFaults()
  service.control.resetStats()
})
afterEach(() => {
  for (const m of monitors.splice(0)) m.dispose()
})

/** The real client, noting which tasks' details were asked for. */
function recordingSource(): TaskSource & { detailIds: string[] } {
  const detailIds: string[] = []
  return {
    detailIds,
    listTasks: (projectId, signal) => client.listTasks(projectId, signal),
    getStepsAndUsages: (taskId, signal) => {
      detailIds.push(taskId)
      return client.getStepsAndUsages(taskId, signal)
    }
  }
}

function startMonitor(over: Partial<MonitorOptions> & Pick<MonitorOptions, 'source'>) {
  const clock = over.clock instanceof ManualClock ? over.clock : new ManualClock()
  const monitor = new Monitor({ connectionId: 'conn', clock, random: () => 0.5, polling, ...over })
  monitors.push(monitor)
  const events: MonitorEvent[] = []
  const cycles: MonitorCycle[] = []
  monitor.on('event', (e) => events.push(e))
  monitor.on('cycle', (c) => cycles.push(c))
  return { monitor, clock, events, cycles }
}

const detailRequests = () => service.control.stats().byRoute[DETAILS_ROUTE]?.requests ?? 0

function newProject(name: string, tasks: { name: string; status: 'todo' | 'in_progress' | 'completed' }[]) {
  const project = service.control.createProject({ name })
  const ids = tasks.map((t) => service.control.addTask(project.id, t).id)
  return { projectId: project.id, taskIds: ids }
}

describe('monitor over HTTP', () => {
  it('sets a silent baseline, then reports a status change with details of that task only', async () => {
    const { projectId, taskIds } = newProject('Shop', [
      { name: 'Add login', status: 'in_progress' },
      { name: 'Old work', status: 'completed' },
      { name: 'Next', status: 'todo' }
    ])
    const source = recordingSource()
    const { monitor, events, cycles } = startMonitor({ source, projects: [projectId] })
    await monitor.pollNow()
    expect(events.filter((e) => e.kind !== 'project-health')).toEqual([])
    expect(cycles).toEqual([])
    expect(monitor.getHealth(projectId).state).toBe('ok')
    expect(monitor.getSummary(projectId)?.total).toBe(3)
    expect(await monitor.loadTasks(projectId)).toHaveLength(3)
    expect(detailRequests()).toBe(0)

    service.control.setTaskStatus(taskIds[0]!, 'completed')
    await monitor.pollNow(projectId)
    expect(cycles).toHaveLength(1)
    const change = cycles[0]!.events.find((e) => e.kind === 'task-status')
    expect(change).toMatchObject({
      projectId,
      taskId: taskIds[0],
      taskName: 'Add login',
      from: 'in_progress',
      to: 'completed'
    })
    expect(cycles[0]!.events.every((e) => 'taskId' in e && e.taskId === taskIds[0])).toBe(true)
    expect(source.detailIds).toEqual([taskIds[0]])
    expect(detailRequests()).toBe(1)

    const names: Record<string, string> = { [projectId]: 'Shop' }
    const notes = decideNotifications(cycles[0]!, DEFAULT_NOTIFICATION_PREFS, {
      projectName: (_c, p) => names[p] ?? ''
    })
    // How long it ran and what it cost come from the service's task, over HTTP.
    expect(notes).toEqual([
      {
        kind: 'task',
        title: 'Task completed',
        body: expect.stringMatching(/^Shop: 'Add login' completed in \d+ (s|min) · \$\d+\.\d+$/),
        connectionId: 'conn',
        projectId,
        taskId: taskIds[0],
        outcome: 'completed'
      }
    ])

    // Nothing changed: no events, no details fetched.
    await monitor.pollNow(projectId)
    expect(cycles).toHaveLength(1)
    expect(detailRequests()).toBe(1)
  })

  it('refreshes only the focused task among unchanged ones', async () => {
    const { projectId, taskIds } = newProject('Blog', [
      { name: 'A', status: 'completed' },
      { name: 'B', status: 'completed' }
    ])
    const source = recordingSource()
    const { monitor } = startMonitor({ source, projects: [projectId] })
    monitor.focusTask(taskIds[1]!)
    await monitor.pollNow()
    await monitor.pollNow()
    expect(source.detailIds).toEqual([taskIds[1], taskIds[1]])
    expect(detailRequests()).toBe(2)
    expect(monitor.getCachedDetails(taskIds[1]!)?.steps.length).toBeGreaterThan(0)
    expect(monitor.getCachedDetails(taskIds[0]!)).toBeUndefined()
  })

  it('backs off on 500s and recovers, then honours a 429 Retry-After', async () => {
    const { projectId } = newProject('Flaky', [{ name: 'Run', status: 'in_progress' }])
    const source = recordingSource()
    const { monitor, clock, events } = startMonitor({ source, projects: [projectId] })
    service.control.setFaults({ rules: [{ kind: 'error', status: 500, pathPrefix: '/projects/', times: 3 }] })
    const polls: number[] = []
    const origin = clock.now()
    const realList = source.listTasks
    source.listTasks = (id, signal) => {
      polls.push(clock.now() - origin)
      return realList(id, signal)
    }
    monitor.start()
    await clock.advance(0)
    await monitor.idle()
    for (let i = 0; i < 4; i++) {
      await clock.runNext()
      await monitor.idle()
    }
    // Three errors (0, +5s, +10s), success at 35s, then the fast interval again.
    expect(polls).toEqual([0, 5_000, 15_000, 35_000, 40_000])
    const health = events.filter(
      (e): e is Extract<MonitorEvent, { kind: 'project-health' }> => e.kind === 'project-health'
    )
    expect(health.map((e) => e.health.state)).toEqual(['error', 'ok'])
    const firstHealth = health[0]!.health
    expect(firstHealth.state === 'error' && firstHealth.error.kind).toBe('server')

    service.control.setFaults({
      rules: [{ kind: 'rate_limit', retryAfterSeconds: 30, pathPrefix: '/projects/', times: 1 }]
    })
    await clock.runNext()
    await monitor.idle()
    const limited = monitor.getHealth(projectId)
    expect(limited.state).toBe('error')
    if (limited.state !== 'error') return
    expect(limited.error).toMatchObject({ kind: 'rate_limited', retryAfterMs: 30_000 })
    // Retry-After is a floor: jitter only adds (random 0.5 → +5%).
    expect(Date.parse(limited.nextPollAt) - clock.now()).toBe(31_500)
    await clock.runNext()
    await monitor.idle()
    expect(monitor.getHealth(projectId).state).toBe('ok')
    expect(polls.at(-1)! - polls.at(-2)!).toBe(31_500)
  })

  it('reports an unknown project as not_found and keeps checking slowly', async () => {
    const source = recordingSource()
    const { monitor, clock } = startMonitor({ source, projects: ['no-such-project'] })
    await monitor.pollNow()
    const health = monitor.getHealth('no-such-project')
    expect(health.state === 'error' && health.error.kind).toBe('not_found')
    expect(health.state === 'error' && Date.parse(health.nextPollAt) - clock.now()).toBe(60_000)
  })

  it('after a restart, reports exactly what changed while closed as one away summary', async () => {
    const shop = newProject('Shop', [
      { name: 'Checkout', status: 'in_progress' },
      { name: 'Search', status: 'in_progress' },
      { name: 'Footer', status: 'completed' }
    ])
    const blog = newProject('Blog', [{ name: 'Post', status: 'completed' }])
    let saved: Record<string, ProjectSnapshot> = {}
    const first = startMonitor({ source: recordingSource(), projects: [shop.projectId, blog.projectId] })
    first.monitor.on('state', (s) => (saved = structuredClone(s)))
    await first.monitor.pollNow()
    expect(Object.keys(saved).sort()).toEqual([shop.projectId, blog.projectId].sort())
    first.monitor.dispose()

    // While the app is closed:
    service.control.setTaskStatus(shop.taskIds[0]!, 'completed')
    service.control.setTaskStatus(shop.taskIds[1]!, 'failed')
    const added = service.control.addTask(blog.projectId, { name: 'Draft', status: 'completed' })

    const second = startMonitor({
      source: recordingSource(),
      projects: [shop.projectId, blog.projectId],
      initialState: saved
    })
    await second.monitor.pollNow()
    expect(second.cycles).toHaveLength(1)
    const away = second.cycles[0]!
    expect(away.away).toBe(true)
    const statusOrAdded = away.events
      .filter((e) => e.kind === 'task-status' || e.kind === 'task-added')
      .map((e) =>
        e.kind === 'task-status'
          ? `${e.taskId}:${e.from}->${e.to}`
          : e.kind === 'task-added'
            ? `${e.taskId}:new ${e.status}`
            : ''
      )
      .sort()
    expect(statusOrAdded).toEqual(
      [
        `${shop.taskIds[0]}:in_progress->completed`,
        `${shop.taskIds[1]}:in_progress->failed`,
        `${added.id}:new completed`
      ].sort()
    )
    const names: Record<string, string> = { [shop.projectId]: 'Shop', [blog.projectId]: 'Blog' }
    const notes = decideNotifications(away, DEFAULT_NOTIFICATION_PREFS, { projectName: (_c, p) => names[p] ?? '' })
    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatchObject({ kind: 'away', title: 'While you were away' })
    expect(notes[0]!.body).toMatch(/^3 tasks finished: 1 failed, 2 completed in projects /)

    // Nothing seen is repeated.
    await second.monitor.pollNow()
    expect(second.cycles).toHaveLength(1)
  })

  it('polls conditionally through the client: 304s while nothing changes, the change as soon as it happens', async () => {
    const { projectId, taskIds } = newProject('Quiet', [
      { name: 'Running', status: 'in_progress' },
      { name: 'Done', status: 'completed' }
    ])
    const LIST_ROUTE = 'GET /projects/{id}/tasks'
    const lists: string[] = []
    const { monitor, cycles } = startMonitor({ source: client, projects: [projectId] })
    monitor.on('tasks', ({ projectId: id }) => lists.push(id))
    await monitor.pollNow()
    await monitor.pollNow()
    await monitor.pollNow()
    // One list taken; the two polls after it were answered 304 and skipped.
    expect(lists).toEqual([projectId])
    expect(service.control.stats().byRoute[LIST_ROUTE]?.requests).toBe(3)
    expect(monitor.getHealth(projectId).state).toBe('ok')
    expect(monitor.getSummary(projectId)).toMatchObject({ running: 1, total: 2 })

    service.control.setTaskStatus(taskIds[0]!, 'failed')
    await monitor.pollNow()
    expect(lists).toEqual([projectId, projectId])
    expect(cycles.flatMap((c) => c.events).filter((e) => e.kind === 'task-status')).toMatchObject([
      { taskId: taskIds[0], to: 'failed' }
    ])
    expect(monitor.getSummary(projectId)).toMatchObject({ running: 0, failed: 1 })
  })
})

describe('one record per project', () => {
  /** The real client, noting the ETag each digest list was asked with. */
  function etagRecordingSource(): TaskSource & { etags: (string | null)[]; lists: number } {
    const etags: (string | null)[] = []
    const source = {
      etags,
      /** Task lists asked for, of any kind. */
      lists: 0,
      listTasks: (projectId: string, signal?: AbortSignal) => (source.lists++, client.listTasks(projectId, signal)),
      listTasksIfChanged: (projectId: string, etag: string | null, signal?: AbortSignal) => (
        source.lists++,
        client.listTasksIfChanged(projectId, etag, signal)
      ),
      listTaskDigestsIfChanged: (projectId: string, etag: string | null, signal?: AbortSignal) => {
        source.lists++
        etags.push(etag)
        return client.listTaskDigestsIfChanged(projectId, etag, signal)
      },
      getStepsAndUsages: (taskId: string, signal?: AbortSignal) => client.getStepsAndUsages(taskId, signal)
    }
    return source
  }

  it('an unwatch forgets all of the project, even mid-poll; watched again, it starts as new', async () => {
    const { projectId, taskIds } = newProject('Shop', [
      { name: 'Checkout', status: 'in_progress' },
      { name: 'Footer', status: 'completed' }
    ])
    const source = etagRecordingSource()
    const { monitor, cycles, events } = startMonitor({ source, projects: [projectId] })
    const states: Record<string, ProjectSnapshot>[] = []
    monitor.on('state', (s) => states.push(s))
    monitor.focusProject(projectId)
    monitor.focusTask(taskIds[0]!)
    await monitor.pollNow()
    expect(monitor.getTasks(projectId)).toHaveLength(2)
    expect(monitor.getSummary(projectId)).toMatchObject({ running: 1 })
    expect(monitor.getHealth(projectId).state).toBe('ok')
    expect(Object.keys(monitor.snapshot())).toEqual([projectId])
    expect(monitor.getCachedDetails(taskIds[0]!)).toBeDefined()

    // A poll hangs on the service; the project is unwatched while it waits.
    service.control.setFaults({
      rules: [{ kind: 'latency', ms: 60_000, pathPrefix: `/projects/${projectId}/tasks`, times: 1 }]
    })
    service.control.setTaskStatus(taskIds[0]!, 'failed')
    const asked = source.lists
    const waiting = monitor.pollNow(projectId)
    // Mid-poll: the list was asked for, and the service holds its answer.
    await expect.poll(() => source.lists).toBe(asked + 1)
    const eventsBefore = events.length
    monitor.unwatch(projectId)
    await waiting
    expect(monitor.watched()).toEqual([])
    expect(monitor.snapshot()).toEqual({})
    expect(states.at(-1)).toEqual({})
    expect(monitor.getTasks(projectId)).toBeUndefined()
    expect(monitor.getSummary(projectId)).toBeUndefined()
    expect(monitor.getHealth(projectId)).toEqual({ state: 'unknown' })
    expect(monitor.getRunningCost(projectId)).toBe(0)
    expect(monitor.projectOfTask(taskIds[0]!)).toBeUndefined()
    expect(monitor.focusedProject).toBeNull()
    // What is the window's or the task's, not the project's, stays (ARCHITECTURE.md).
    expect(monitor.focusedTask).toBe(taskIds[0])
    expect(monitor.getCachedDetails(taskIds[0]!)).toBeDefined()
    await monitor.idle()
    expect(events.length).toBe(eventsBefore)

    // Watched again: a fresh start. The first list is asked for unconditionally, and what changed
    // while it was not watched is its new baseline, told neither live nor as "while you were away".
    service.control.clearFaults()
    monitor.watch(projectId)
    await monitor.pollNow()
    expect(source.etags).toEqual([null])
    expect(cycles).toEqual([])
    expect(monitor.getSummary(projectId)).toMatchObject({ running: 0, failed: 1 })
    expect(monitor.getTasks(projectId)).toBeUndefined()
  })

  it('forgets the former state of a project not watched from the start', async () => {
    const kept = newProject('Kept', [{ name: 'Build', status: 'in_progress' }])
    const dropped = newProject('Dropped', [{ name: 'Deploy', status: 'in_progress' }])
    let saved: Record<string, ProjectSnapshot> = {}
    const first = startMonitor({ source: client, projects: [kept.projectId, dropped.projectId] })
    first.monitor.on('state', (s) => (saved = structuredClone(s)))
    await first.monitor.pollNow()
    first.monitor.dispose()
    expect(Object.keys(saved).sort()).toEqual([kept.projectId, dropped.projectId].sort())

    // Unwatched while the app was closed (e.g. by `agent-tray watch-list remove`), then its task ends.
    service.control.setTaskStatus(dropped.taskIds[0]!, 'completed')
    const second = startMonitor({ source: client, projects: [kept.projectId], initialState: saved })
    expect(Object.keys(second.monitor.snapshot())).toEqual([kept.projectId])
    // Watched again in this run: no "While you were away" from a state it was not watching.
    second.monitor.watch(dropped.projectId)
    await second.monitor.pollNow()
    expect(second.cycles).toEqual([])
  })
})
