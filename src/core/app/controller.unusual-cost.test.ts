// "Costing more than usual" through the controller, against the reference service, with real files
// in a temp dir: like a budget crossing, one seen in quiet hours waits for them to end (across a
// restart too) and is told once, with what the task costs then; one whose task ended meanwhile is
// not told; a muted project's is never told.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MANUAL_START_TIME, type ReferenceService, startReferenceService } from '../../reference-service'
import type { EventContract } from '../../shared/ipc'
import { createSessionSecretStore, type SecretStore } from '../secrets'
import { openSettings, type SettingsStore } from '../settings/store'
import { ManualClock } from '../util/clock'
import { type AppController, createAppController } from './controller'
import { referenceControllerPorts } from './test-controller'

const API_KEY = 'test-key-unusual-cost'

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
      // UTC+1: the service's 09:00 UTC start is 10:00 local, inside quiet hours 09:00 to 11:00.
      tz: 60
    })
  )
  controller.on('notification:shown', (n) => told.push(n))
  await controller.start()
}

beforeEach(async () => {
  service = await startReferenceService({ apiKey: API_KEY, port: 0, seed: 7, manualClock: true })
  dir = await mkdtemp(join(tmpdir(), 'agent-tray-unusual-'))
  secrets = createSessionSecretStore('Kept in memory for this test.')
  await open()
  await controller.handlers['connection:save']({
    connection: { name: 'Local', baseUrl: service.url, publishingDomain: service.publishingDomain },
    apiKey: API_KEY
  })
  const { notifications } = await controller.handlers['settings:get']()
  await controller.handlers['settings:update']({
    notifications: { ...notifications, unusualCost: true, quietHours: { enabled: true, start: '09:00', end: '11:00' } }
  })
})

afterEach(async () => {
  await controller.stop()
  await service.close()
  await rm(dir, { recursive: true, force: true })
})

const pollNow = () => controller.handlers['monitor:poll-now']()
/** Once what the gate holds is saved in state.json (written in the background): the tasks held as costing more than usual. */
async function heldTasks(expected: string[]): Promise<void> {
  await vi.waitFor(
    () =>
      expect(
        settings.readBudgetMemory().held.flatMap((e) => (e.kind === 'task-cost-unusual' ? [e.taskId] : []))
      ).toEqual(expected),
    { timeout: 10_000 }
  )
}
const costTold = () => told.filter((n) => n.title.startsWith('Costing more than usual'))
/** Quiet hours end at 11:00 local (10:00 UTC); the gate looks again once a minute. */
const pastQuietHours = () => clock.advance(60 * 60_000)

/** A watched project whose three completed tasks cost $1 each, and a running task at $1 so far. */
async function projectWithRunningTask(name: string) {
  const project = service.control.createProject({ name, firstTask: false })
  for (const n of ['One', 'Two', 'Three'])
    service.control.setTaskTotalPrice(service.control.addTask(project.id, { name: n, status: 'completed' }).id, 1)
  const task = service.control.addTask(project.id, { name: 'Build', status: 'in_progress', script: 'run-forever' })
  service.control.setTaskTotalPrice(task.id, 1)
  await controller.handlers['project:watch']({ projectId: project.id })
  await pollNow()
  return { project, task }
}

describe('costing more than usual', () => {
  it('seen in quiet hours: held across a restart, told once they end with what it costs then, and never again', async () => {
    const { task } = await projectWithRunningTask('Shop')
    service.control.setTaskTotalPrice(task.id, 4)
    await pollNow()
    expect(costTold()).toEqual([])
    await heldTasks([task.id])

    await controller.stop()
    service.control.setTaskTotalPrice(task.id, 6)
    await open(clock.now() + 5 * 60_000)
    await pollNow()
    expect(costTold()).toEqual([])
    await pastQuietHours()
    expect(costTold()).toMatchObject([
      { taskId: task.id, body: "Shop: 'Build' has cost $6.00 so far; its completed tasks cost $1.00 (median)." }
    ])
    await heldTasks([])

    await pollNow()
    await controller.stop()
    await open(clock.now())
    await pollNow()
    await clock.advance(2 * 60_000)
    expect(costTold()).toEqual([])
  })

  it('seen in quiet hours, but the task ended before they did: not told', async () => {
    const { task } = await projectWithRunningTask('Blog')
    service.control.setTaskTotalPrice(task.id, 4)
    await pollNow()
    await heldTasks([task.id])
    service.control.setTaskStatus(task.id, 'completed')
    await pollNow()
    await pastQuietHours()
    expect(costTold()).toEqual([])
    await heldTasks([])
  })

  it('of a project muted while it was held: not told', async () => {
    const { project, task } = await projectWithRunningTask('Site')
    service.control.setTaskTotalPrice(task.id, 4)
    await pollNow()
    await heldTasks([task.id])
    await controller.handlers['project:set-watch-options']({ projectId: project.id, muted: true })
    await pastQuietHours()
    expect(costTold()).toEqual([])
    await heldTasks([])
  })
})
