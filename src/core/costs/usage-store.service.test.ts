// The usage store and its fetcher against the reference service over real HTTP: requests counted
// by the service's own stats, a restart is a second store on the same directory.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from '../../reference-service/index'
import type { CostRange } from '../../shared/cost-range'
import { costReport } from '../../shared/cost-report'
import type { Task } from '../../shared/service'
import { createServiceClient, type ServiceClient } from '../client/index'
import { createLimiter } from '../util/limiter'
import { BACKGROUND_WINDOW_MS } from './background-window'
import { type ProjectTasks, reportTasks, tasksInRange } from './report-data'
import { USAGE_CACHE_FILE } from './usage-cache-document'
import { createUsageFetcher } from './usage-fetcher'
import { openUsageStore, type UsageStore } from './usage-store'

const KEY = 'usage-store-key'
const DETAILS = 'GET /tasks/{id}/steps-and-usages'
let service: ReferenceService
let client: ServiceClient
let dir: string
const dirs: string[] = []

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 7, manualClock: true })
  client = createServiceClient({ baseUrl: service.url, apiKey: KEY, retry: { retries: 0 } })
})
afterAll(async () => {
  await client.close()
  await service.close()
})
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'usage-store-'))
  dirs.push(dir)
  service.control.resetStats()
})
const stores: UsageStore[] = []
afterEach(async () => {
  for (const s of stores.splice(0)) await s.flush()
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

const detailRequests = (): number => service.control.stats().byRoute[DETAILS]?.requests ?? 0
/** The shared polling limit, as the session's `limited()` gives it. */
const pollingLimit = createLimiter(4)
const fetchVia = (_connectionId: string, taskId: string) => pollingLimit.run(() => client.getStepsAndUsages(taskId))

function projectWithTasks(): { projectId: string; running: string } {
  const project = service.control.createProject({ name: 'Costs', firstTask: false })
  service.control.addTask(project.id, { name: 'done', status: 'completed' })
  service.control.addTask(project.id, { name: 'failed', status: 'failed' })
  const running = service.control.addTask(project.id, { name: 'running', status: 'in_progress', script: 'run-forever' })
  return { projectId: project.id, running: running.id }
}

async function open(maxTasks?: number) {
  const notices: string[] = []
  // On the service's clock, as the app's store is on the app's: which tasks are recent depends on it.
  const store = await openUsageStore({
    dir,
    maxTasks,
    now: () => new Date(service.control.now()),
    onNotice: (n) => notices.push(n)
  })
  stores.push(store)
  return { store, notices, fetcher: createUsageFetcher({ store, fetch: fetchVia }) }
}

describe('usage store and fetcher', () => {
  it('fetches each missing task once, ended tasks never again, an active one again only once it changed', async () => {
    const { projectId, running } = projectWithTasks()
    const { store, fetcher } = await open()
    const tasks = await client.listTasks(projectId)
    const first = await fetcher.ensure('c1', tasks)
    expect(first).toEqual({ total: 3, done: 3, failed: 0 })
    expect(detailRequests()).toBe(3)
    for (const t of tasks) expect(store.usages('c1', t.id)).toEqual(expect.any(Array))

    expect(await fetcher.ensure('c1', tasks)).toEqual({ total: 0, done: 0, failed: 0 })
    expect(detailRequests()).toBe(3)

    service.control.advance(10 * 60_000)
    const later = await client.listTasks(projectId)
    const changed = later.find((t) => t.id === running)!
    expect(changed.updated_at).not.toBe(tasks.find((t) => t.id === running)!.updated_at)
    expect(await fetcher.ensure('c1', later)).toEqual({ total: 1, done: 1, failed: 0 })
    expect(detailRequests()).toBe(4)
  })

  it('asks once for a task wanted by two reports at the same time', async () => {
    const { projectId } = projectWithTasks()
    const { fetcher } = await open()
    const tasks = await client.listTasks(projectId)
    const [a, b] = await Promise.all([fetcher.ensure('c1', tasks), fetcher.ensure('c1', tasks)])
    expect(a.done + b.done).toBe(6)
    expect(detailRequests()).toBe(3)
  })

  it('keeps the records across a restart: nothing is downloaded again', async () => {
    const { projectId } = projectWithTasks()
    const before = await open()
    const tasks = await client.listTasks(projectId)
    await before.fetcher.ensure('c1', tasks)
    await before.store.flush()
    expect(detailRequests()).toBe(3)

    const after = await open()
    expect(await after.fetcher.ensure('c1', tasks)).toEqual({ total: 0, done: 0, failed: 0 })
    expect(detailRequests()).toBe(3)
    const details = await client.getStepsAndUsages(tasks[0]!.id)
    expect(after.store.usages('c1', tasks[0]!.id)?.map((u) => u.final_price)).toEqual(
      details.usages.map((u) => u.final_price)
    )
    // Only what the cost model reads is kept, not the provider's request and response.
    expect(fs.readFileSync(path.join(dir, USAGE_CACHE_FILE), 'utf8')).not.toContain('request_data')
  })

  it('takes what the monitor fetched anyway when it accounts for the listed task', async () => {
    const { projectId } = projectWithTasks()
    const { store, fetcher } = await open()
    const tasks = await client.listTasks(projectId)
    store.noteTasks('c1', tasks)
    for (const t of tasks) store.offerDetails('c1', t.id, (await client.getStepsAndUsages(t.id)).usages)
    expect(detailRequests()).toBe(3)
    expect(await fetcher.ensure('c1', tasks)).toEqual({ total: 0, done: 0, failed: 0 })
    expect(detailRequests()).toBe(3)
  })

  it('does not retry a task whose fetch failed until it changes, and counts the failure', async () => {
    const { projectId } = projectWithTasks()
    const { fetcher } = await open()
    const tasks = await client.listTasks(projectId)
    const ghost: Task = { ...tasks[0]!, id: 'no-such-task' }
    expect(await fetcher.ensure('c1', [ghost])).toEqual({ total: 1, done: 1, failed: 1 })
    expect(await fetcher.ensure('c1', [ghost])).toEqual({ total: 0, done: 0, failed: 0 })
    expect(await fetcher.ensure('c1', [{ ...ghost, updated_at: '2030-01-01T00:00:00.000Z' }])).toEqual({
      total: 1,
      done: 1,
      failed: 1
    })
  })

  it('rebuilds a damaged cache without an error, keeping the damaged file aside', async () => {
    const { projectId } = projectWithTasks()
    fs.writeFileSync(path.join(dir, USAGE_CACHE_FILE), '{"version":1,"tasks":{"c1":{"x":{"projectId":')
    const { store, fetcher, notices } = await open()
    expect(notices.join('\n')).toMatch(/rebuilt/)
    expect(fs.readdirSync(dir).some((f) => f.startsWith(`${USAGE_CACHE_FILE}.corrupt-`))).toBe(true)
    const tasks = await client.listTasks(projectId)
    await fetcher.ensure('c1', tasks)
    await store.flush()
    const reopened = await open()
    expect(reopened.notices).toEqual([])
    expect(tasks.every((t) => reopened.store.usages('c1', t.id) !== undefined)).toBe(true)
  })

  it('keeps at most the bound, the most recently updated tasks first', async () => {
    // A minute apart: tasks changed at the same instant would leave which one is kept to chance.
    const projectId = service.control.createProject({ name: 'Bound', firstTask: false }).id
    for (const status of ['completed', 'failed', 'cancelled'] as const) {
      service.control.addTask(projectId, { name: status, status })
      service.control.advance(60_000)
    }
    const { store, fetcher } = await open(2)
    const tasks = await client.listTasks(projectId)
    expect(new Set(tasks.map((t) => t.updated_at)).size).toBe(3)
    await fetcher.ensure('c1', tasks)
    await store.flush()
    const newest = [...tasks]
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at))
      .slice(0, 2)
      .map((t) => t.id)
    const reopened = await open(2)
    expect(
      tasks
        .filter((t) => reopened.store.usages('c1', t.id) !== undefined)
        .map((t) => t.id)
        .sort()
    ).toEqual(newest.sort())
  })

  it('remembers the last listed state only of recent tasks whose records are not kept for good, however many it is shown; reports stay right', async () => {
    const { store, fetcher } = await open()
    const DAY_MS = 24 * 60 * 60_000
    // Thirty tasks that ended before the background window, and a project listed once and then no longer.
    const old = service.control.createProject({ name: 'Old', firstTask: false })
    for (let i = 0; i < 30; i++) service.control.addTask(old.id, { name: `old ${i}`, status: 'completed' })
    service.control.advance(BACKGROUND_WINDOW_MS + DAY_MS)
    const gone = service.control.createProject({ name: 'Gone', firstTask: false })
    service.control.addTask(gone.id, { name: 'left', status: 'completed' })
    const { projectId, running } = projectWithTasks()
    const oldTasks = await client.listTasks(old.id)
    let tasks = await client.listTasks(projectId)
    store.noteTasks('c1', await client.listTasks(gone.id))
    // Listed again and again, as the monitor does: only the recent ones are remembered.
    for (let poll = 0; poll < 3; poll++) {
      store.noteTasks('c1', oldTasks)
      store.noteTasks('c1', tasks)
    }
    expect(store.listedCount).toBe(4)
    // The background fetch keeps the ended ones for good: they need no listed state any more.
    await fetcher.ensure('c1', tasks)
    expect(store.listedCount).toBe(2)

    // What the monitor fetches of the running task after its list is still kept for it.
    service.control.advance(60_000)
    tasks = await client.listTasks(projectId)
    store.noteTasks('c1', tasks)
    const runningNow = tasks.find((t) => t.id === running)!
    expect(store.isCurrent('c1', runningNow)).toBe(false)
    store.offerDetails('c1', running, (await client.getStepsAndUsages(running)).usages)
    expect(store.isCurrent('c1', runningNow)).toBe(true)

    // The project no longer listed: its task is forgotten once it leaves the window.
    service.control.advance(BACKGROUND_WINDOW_MS)
    tasks = await client.listTasks(projectId)
    store.noteTasks('c1', tasks)
    expect(store.listedCount).toBe(1)

    // A report over all of it, made as the Costs screen makes it, says what the service's own records say.
    const projects: ProjectTasks[] = [
      { projectId: old.id, projectName: 'Old', tasks: oldTasks },
      { projectId: gone.id, projectName: 'Gone', tasks: await client.listTasks(gone.id) },
      { projectId, projectName: 'Costs', tasks }
    ]
    const range: CostRange = { since: '2026-01-01', until: '2026-12-31' }
    const inRange = tasksInRange(projects, range, 0)
    expect(inRange).toHaveLength(34)
    store.noteTasks('c1', inRange)
    expect(await fetcher.ensure('c1', inRange)).toMatchObject({ failed: 0 })
    const fromStore = costReport(reportTasks('c1', projects, store, range, 0), range, 'task', 0)
    const fromService = costReport(
      await Promise.all(
        projects.flatMap((p) =>
          p.tasks.map(async (task) => ({
            projectId: p.projectId,
            projectName: p.projectName,
            task,
            usages: (await client.getStepsAndUsages(task.id)).usages
          }))
        )
      ),
      range,
      'task',
      0
    )
    expect(fromStore.unfetchedTasks).toBe(0)
    expect(fromStore.totals.costUsd).toBeGreaterThan(0)
    expect(fromStore).toEqual(fromService)
    expect(store.listedCount).toBe(1)
  })
})

describe('the fetcher’s turns', () => {
  /** A fetch through the service that holds the first task's response until the test releases it. */
  function heldFetch(held: string) {
    const requested: string[] = []
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let reached!: () => void
    const holding = new Promise<void>((resolve) => (reached = resolve))
    const fetch = async (_connectionId: string, taskId: string) => {
      requested.push(taskId)
      if (taskId === held) {
        reached()
        await gate
      }
      return client.getStepsAndUsages(taskId)
    }
    return { fetch, requested, release, holding }
  }

  it('tells its progress as each task is done or failed', async () => {
    const { projectId } = projectWithTasks()
    const { store } = await open()
    const tasks = (await client.listTasks(projectId)).slice(0, 2)
    const fetcher = createUsageFetcher({ store, fetch: fetchVia, concurrency: 1 })
    const progress: unknown[] = []
    const ghost: Task = { ...tasks[0]!, id: 'no-such-task' }
    const result = await fetcher.ensure('c1', [...tasks, ghost], (p) => progress.push(p))
    expect(result).toEqual({ total: 3, done: 3, failed: 1 })
    expect(progress).toEqual([
      { total: 3, done: 0, failed: 0 },
      { total: 3, done: 1, failed: 0 },
      { total: 3, done: 2, failed: 0 },
      { total: 3, done: 3, failed: 1 }
    ])
  })

  it('does not fetch a task whose records the monitor brought while it waited its turn', async () => {
    const { projectId } = projectWithTasks()
    const { store } = await open()
    const [first, second] = await client.listTasks(projectId)
    const held = heldFetch(first!.id)
    const fetcher = createUsageFetcher({ store, fetch: held.fetch, concurrency: 1 })
    const fetching = fetcher.ensure('c1', [first!, second!])
    await held.holding
    store.noteTasks('c1', [second!])
    store.offerDetails('c1', second!.id, (await client.getStepsAndUsages(second!.id)).usages)
    held.release()
    expect(await fetching).toEqual({ total: 2, done: 2, failed: 0 })
    expect(held.requested).toEqual([first!.id])
  })

  it('no longer wants a task under way once its records are current, so a report does not wait for it', async () => {
    const { projectId } = projectWithTasks()
    const { store } = await open()
    const [task] = await client.listTasks(projectId)
    const held = heldFetch(task!.id)
    const fetcher = createUsageFetcher({ store, fetch: held.fetch })
    const fetching = fetcher.ensure('c1', [task!])
    await held.holding
    // Under way and not current: a second report joins the fetch.
    expect(fetcher.wants('c1', task!)).toBe(true)
    store.noteTasks('c1', [task!])
    store.offerDetails('c1', task!.id, (await client.getStepsAndUsages(task!.id)).usages)
    expect(fetcher.wants('c1', task!)).toBe(false)
    expect(await fetcher.ensure('c1', [task!])).toEqual({ total: 0, done: 0, failed: 0 })
    held.release()
    expect(await fetching).toEqual({ total: 1, done: 1, failed: 0 })
    expect(held.requested).toEqual([task!.id])
  })
})
