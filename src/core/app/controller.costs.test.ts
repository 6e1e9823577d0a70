// Costs through the controller, against the reference service: the report over the watched
// projects, the monitor's own fetches reused, missing records fetched once in the background and
// kept across a restart, and Export CSV through the save port.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANUAL_START_TIME, type ReferenceService, startReferenceService } from '../../reference-service'
import { createSessionSecretStore, type SecretStore } from '../secrets'
import { openSettings } from '../settings/store'
import { ManualClock } from '../util/clock'
import { type AppController, createAppController } from './controller'
import { referenceControllerPorts } from './test-controller'

const API_KEY = 'test-key-costs'
const DETAILS = 'GET /tasks/{id}/steps-and-usages'
let service: ReferenceService
let dir: string
let secrets: SecretStore
let controller: AppController
const saved: { name: string; contents: string }[] = []

async function open(): Promise<void> {
  const settings = await openSettings({ dir })
  controller = createAppController(
    referenceControllerPorts({
      settings,
      secrets,
      saveFile: async (name, contents) => (saved.push({ name, contents }), `/saved/${name}`),
      clock: new ManualClock(Date.parse(service.control.now()))
    })
  )
  await controller.start()
}

beforeEach(async () => {
  service = await startReferenceService({
    apiKey: API_KEY,
    port: 0,
    seed: 5,
    manualClock: true,
    startTime: MANUAL_START_TIME
  })
  dir = await mkdtemp(join(tmpdir(), 'agent-tray-costs-'))
  secrets = createSessionSecretStore('Kept in memory for this test.')
  saved.length = 0
  await open()
  await controller.handlers['connection:save']({
    connection: { name: 'Local', baseUrl: service.url, publishingDomain: service.publishingDomain },
    apiKey: API_KEY
  })
})

afterEach(async () => {
  await controller.stop()
  await service.close()
  await rm(dir, { recursive: true, force: true })
})

const detailRequests = (): number => service.control.stats().byRoute[DETAILS]?.requests ?? 0

async function watchedProject() {
  const project = service.control.createProject({ name: 'Shop', firstTask: false })
  const tasks = [
    service.control.addTask(project.id, { name: 'One', status: 'completed' }),
    service.control.addTask(project.id, { name: 'Two', status: 'failed' })
  ]
  await controller.handlers['project:watch']({ projectId: project.id })
  await controller.handlers['monitor:poll-now']()
  return { project, tasks }
}

describe('costs', () => {
  it('reports by day with every record fetched once, and nothing fetched again after a restart', async () => {
    const { tasks } = await watchedProject()
    const report = await controller.handlers['costs:report']({ grouping: 'day', stackBy: 'project', complete: true })
    const total = tasks.reduce((s, t) => s + (service.control.getTask(t.id)?.total_price ?? 0), 0)
    expect(report.report.totals.costUsd).toBeCloseTo(total, 9)
    expect(report.report.totals.estimatedUsd).toBe(0)
    expect(report.failedTasks).toBe(0)
    // The monitor's first poll saw both tasks as new and fetched neither; the report's fetcher did, once each.
    expect(detailRequests()).toBe(2)
    expect(report.chart.stacks.map((s) => s.name)).toEqual(['Shop'])

    await controller.stop()
    service.control.resetStats()
    await open()
    await controller.handlers['monitor:poll-now']()
    const again = await controller.handlers['costs:report']({ grouping: 'model', stackBy: 'model', complete: true })
    expect(again.report.totals.costUsd).toBeCloseTo(total, 9)
    expect(again.report.totals.calls).toBeGreaterThan(0)
    expect(detailRequests()).toBe(0)
  })

  it('answers at once with estimates while records are missing', async () => {
    await watchedProject()
    // A task the window looked at: its details were fetched by the monitor, not again for costs.
    const quick = await controller.handlers['costs:report']({ grouping: 'task', stackBy: 'project' })
    expect(quick.report.rows).toHaveLength(2)
    // Each task still being fetched is an estimate meanwhile, and only those.
    expect(quick.report.rows.filter((r) => r.estimatedUsd !== 0)).toHaveLength(quick.pendingTasks)
    const done = await controller.handlers['costs:report']({ grouping: 'task', stackBy: 'project', complete: true })
    expect(done.pendingTasks).toBe(0)
    expect(done.report.rows.every((r) => r.estimatedUsd === 0)).toBe(true)
    expect(detailRequests()).toBe(2)
  })

  it('takes a changed task’s records from the monitor’s own fetch instead of fetching them again', async () => {
    const project = service.control.createProject({ name: 'Live', firstTask: false })
    service.control.addTask(project.id, { name: 'Running', status: 'in_progress', script: 'run-forever' })
    await controller.handlers['project:watch']({ projectId: project.id })
    await controller.handlers['monitor:poll-now']()
    await controller.handlers['costs:report']({ grouping: 'day', stackBy: 'project', complete: true })
    expect(detailRequests()).toBe(1)
    service.control.advance(60_000)
    // The task changed: the monitor fetches its details for the change, and the costs take them.
    await controller.handlers['monitor:poll-now']()
    expect(detailRequests()).toBe(2)
    const report = await controller.handlers['costs:report']({ grouping: 'day', stackBy: 'project', complete: true })
    expect(detailRequests()).toBe(2)
    expect(report.report.totals.estimatedUsd).toBe(0)
  })

  it('refuses a range that ends after today by its own clock, in the window’s words', async () => {
    await watchedProject()
    // The manual clock stands at MANUAL_START_TIME, 2026-01-05 in UTC.
    await expect(
      controller.handlers['costs:report']({
        grouping: 'day',
        stackBy: 'project',
        since: '2026-01-01',
        until: '2026-01-06'
      })
    ).rejects.toMatchObject({
      kind: 'invalid_argument',
      message: 'The last day must not be after today (2026-01-05).'
    })
    await expect(
      controller.handlers['costs:export-csv']({ grouping: 'day', since: '2026-01-06' })
    ).rejects.toMatchObject({
      kind: 'invalid_argument',
      message: 'The first day must not be after today (2026-01-05).'
    })
    expect(saved).toEqual([])
  })

  it('saves the CSV through the save port, named after the range and grouping', async () => {
    await watchedProject()
    const result = await controller.handlers['costs:export-csv']({
      grouping: 'project',
      since: '2026-01-01',
      until: '2026-01-05'
    })
    expect(result.path).toBe('/saved/agent-tray-costs-2026-01-01-to-2026-01-05-by-project.csv')
    expect(saved[0]!.contents.split('\r\n')[0]).toBe('project_id,project,cost_usd,estimated_usd,tasks')
    expect(saved[0]!.contents).toContain(',Shop,')
  })
})
