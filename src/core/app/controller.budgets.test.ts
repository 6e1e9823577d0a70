// Budgets through the controller, against the reference service, with real files in a temp dir:
// warning and limit each told once per period, the tray's attention on a crossed limit, and a
// crossing held by quiet hours told after a restart, once.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANUAL_START_TIME, type ReferenceService, startReferenceService } from '../../reference-service'
import type { EventContract } from '../../shared/ipc'
import { createSessionSecretStore, type SecretStore } from '../secrets'
import { openSettings, type SettingsStore } from '../settings/store'
import { summariseTray } from '../tray/state'
import { ManualClock } from '../util/clock'
import { type AppController, createAppController } from './controller'
import { referenceControllerPorts } from './test-controller'

const API_KEY = 'test-key-budgets'

let service: ReferenceService
let dir: string
let secrets: SecretStore
let settings: SettingsStore
let clock: ManualClock
let controller: AppController
let told: EventContract['notification:shown'][]

async function open(at = Date.parse(MANUAL_START_TIME)): Promise<void> {
  settings = await openSettings({ dir })
  clock = new ManualClock(at)
  told = []
  controller = createAppController(
    referenceControllerPorts({
      settings,
      secrets,
      clock,
      // UTC+1: the service's 09:00 UTC start is 10:00 local.
      tz: 60
    })
  )
  controller.on('notification:shown', (n) => told.push(n))
  await controller.start()
}

beforeEach(async () => {
  service = await startReferenceService({ apiKey: API_KEY, port: 0, seed: 7, manualClock: true })
  dir = await mkdtemp(join(tmpdir(), 'agent-tray-budgets-'))
  secrets = createSessionSecretStore('Kept in memory for this test.')
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

const pollNow = () => controller.handlers['monitor:poll-now']()
const budgetTitles = () => told.filter((n) => /budget/i.test(n.title)).map((n) => n.title)

async function runningProject(name: string) {
  const project = service.control.createProject({ name })
  const task = service.control.addTask(project.id, { name: 'Build', status: 'in_progress', script: 'run-forever' })
  service.control.setTaskTotalPrice(task.id, 1)
  await controller.handlers['project:watch']({ projectId: project.id })
  await pollNow()
  return { project, task }
}

describe('budgets', () => {
  it("a project's daily budget: the warning, then the limit, each told once, with the state and the tray's attention", async () => {
    const { project, task } = await runningProject('Shop')
    await controller.handlers['budget:save']({
      budget: { projectId: project.id, period: 'day', limitUsd: 10, warnRatio: 0.8 }
    })
    expect(budgetTitles()).toEqual([])

    service.control.setTaskTotalPrice(task.id, 8.5)
    await pollNow()
    await pollNow()
    expect(budgetTitles()).toEqual(["Nearing the daily budget of project 'Shop'"])
    const state = controller.getState().budgets[0]!
    expect(state).toMatchObject({ periodKey: '2026-01-05', spentUsd: 8.5, state: 'near' })

    service.control.setTaskTotalPrice(task.id, 10.5)
    await pollNow()
    service.control.setTaskTotalPrice(task.id, 11)
    await pollNow()
    expect(budgetTitles()).toEqual([
      "Nearing the daily budget of project 'Shop'",
      "Budget reached: project 'Shop', daily"
    ])
    expect(controller.getState().budgets[0]).toMatchObject({ state: 'over', spentUsd: 11 })
    expect(summariseTray(controller.getState(), true)).toMatchObject({ state: 'attention', overBudget: 1 })
  })

  it('an account budget crossed in quiet hours is told after a restart, once', async () => {
    const { task } = await runningProject('Blog')
    // 10:00 local is inside quiet hours until 11:00.
    const { notifications } = await controller.handlers['settings:get']()
    await controller.handlers['settings:update']({
      notifications: { ...notifications, quietHours: { enabled: true, start: '09:00', end: '11:00' } }
    })
    await controller.handlers['budget:save']({
      budget: { projectId: null, period: 'month', limitUsd: 20, warnRatio: 0.8 }
    })
    service.control.setTaskTotalPrice(task.id, 25)
    await pollNow()
    expect(budgetTitles()).toEqual([])
    // The whole account's limit asks for attention while it lasts.
    expect(summariseTray(controller.getState(), true).state).toBe('attention')
    const at = clock.now()

    await controller.stop()
    await open(at + 5 * 60_000)
    await pollNow()
    expect(budgetTitles()).toEqual([])
    // Quiet hours end at 11:00 local (10:00 UTC); the gate looks again once a minute.
    await clock.advance(60 * 60_000)
    expect(budgetTitles()).toEqual(['Budget reached: all watched projects, monthly'])
    await pollNow()
    await controller.stop()
    await open(clock.now())
    await pollNow()
    await clock.advance(2 * 60_000)
    expect(budgetTitles()).toEqual([])
  })
})
