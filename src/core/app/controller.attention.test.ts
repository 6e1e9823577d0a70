// The tray's "attention" through the controller, against the reference service: only failures and
// budget crossings the monitor saw since the user last looked count, and that survives a restart.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANUAL_START_TIME, type ReferenceService, startReferenceService } from '../../reference-service'
import { createSessionSecretStore, type SecretStore } from '../secrets'
import { openSettings, type SettingsStore } from '../settings/store'
import { summariseTray } from '../tray/state'
import { ManualClock } from '../util/clock'
import { type AppController, createAppController } from './controller'
import { dispatch } from './dispatch'
import { referenceControllerPorts } from './test-controller'

const API_KEY = 'test-key-attention'

let service: ReferenceService
let dir: string
let secrets: SecretStore
let settings: SettingsStore
let clock: ManualClock
let controller: AppController
let connectionId: string

async function open(): Promise<void> {
  settings = await openSettings({ dir })
  clock = new ManualClock(Date.parse(MANUAL_START_TIME))
  controller = createAppController(
    referenceControllerPorts({
      settings,
      secrets,
      clock
    })
  )
  await controller.start()
}

async function restart(): Promise<void> {
  await controller.stop()
  await open()
}

beforeEach(async () => {
  service = await startReferenceService({ apiKey: API_KEY, port: 0, seed: 11, manualClock: true })
  dir = await mkdtemp(join(tmpdir(), 'agent-tray-attention-'))
  secrets = createSessionSecretStore('Kept in memory for this test.')
  await open()
  const view = await controller.handlers['connection:save']({
    connection: { name: 'Local', baseUrl: service.url, publishingDomain: service.publishingDomain },
    apiKey: API_KEY
  })
  connectionId = view.id
})

afterEach(async () => {
  await controller.stop()
  await service.close()
  await rm(dir, { recursive: true, force: true })
})

const pollNow = () => controller.handlers['monitor:poll-now']()
const attentionOf = (projectId: string) =>
  controller.getState().projects.find((p) => p.watched.projectId === projectId)?.attention
const trayState = () => summariseTray(controller.getState(), true).state

/** A watched project with one old failure (there at the baseline) and one running task. */
async function projectWithOldFailure() {
  const project = service.control.createProject({ name: 'Shop' })
  const old = service.control.addTask(project.id, { name: 'Old', status: 'failed' })
  const running = service.control.addTask(project.id, { name: 'Build', status: 'in_progress', script: 'run-forever' })
  await controller.handlers['project:watch']({ projectId: project.id })
  await pollNow()
  return { project, old, running }
}

describe('attention', () => {
  it('does not count failures that were there at the baseline', async () => {
    const { project } = await projectWithOldFailure()
    const view = controller.getState().projects[0]
    expect(view?.counts.failed).toBe(1)
    expect(view?.attention).toEqual({ failedTaskIds: [], budgetCrossed: false })
    expect(trayState()).toBe('running')
    expect(attentionOf(project.id)?.failedTaskIds).toEqual([])
  })

  it('counts a task seen failing, until the user acknowledges the project; a restart keeps it acknowledged', async () => {
    const { project, running } = await projectWithOldFailure()
    service.control.setTaskStatus(running.id, 'failed')
    await pollNow()
    expect(attentionOf(project.id)).toEqual({ failedTaskIds: [running.id], budgetCrossed: false })
    expect(trayState()).toBe('attention')

    expect(await dispatch(controller.handlers, 'attention:acknowledge', { projectId: project.id })).toEqual({
      ok: true,
      value: undefined
    })
    expect(attentionOf(project.id)).toEqual({ failedTaskIds: [], budgetCrossed: false })
    expect(trayState()).toBe('idle')

    await restart()
    await pollNow()
    expect(controller.getState().projects[0]?.counts.failed).toBe(2)
    expect(attentionOf(project.id)?.failedTaskIds).toEqual([])
    expect(trayState()).toBe('idle')
    expect(settings.read().attention[connectionId]?.[project.id]).toEqual({
      acknowledgedAt: new Date(Date.parse(MANUAL_START_TIME)).toISOString(),
      failedTaskIds: [],
      budgetCrossed: false,
      completedTaskIds: [],
      tasks: {},
      budgetCrossedAt: null
    })
  })

  it('keeps what the user has not seen across a restart', async () => {
    const { project, running } = await projectWithOldFailure()
    service.control.setTaskStatus(running.id, 'failed')
    await pollNow()
    await restart()
    expect(attentionOf(project.id)?.failedTaskIds).toEqual([running.id])
    await pollNow()
    expect(trayState()).toBe('attention')
  })

  it('counts a failure that happened while the app was closed', async () => {
    const { project, running } = await projectWithOldFailure()
    await controller.stop()
    service.control.setTaskStatus(running.id, 'failed')
    await open()
    await pollNow()
    expect(attentionOf(project.id)?.failedTaskIds).toEqual([running.id])
  })

  it('opening the failed task sees that failure only; a retried task is no longer new', async () => {
    const project = service.control.createProject({ name: 'Shop' })
    const a = service.control.addTask(project.id, { name: 'A', status: 'in_progress', script: 'run-forever' })
    const b = service.control.addTask(project.id, { name: 'B', status: 'in_progress', script: 'run-forever' })
    const c = service.control.addTask(project.id, { name: 'C', status: 'in_progress', script: 'run-forever' })
    await controller.handlers['project:watch']({ projectId: project.id })
    await pollNow()
    for (const t of [a, b, c]) service.control.setTaskStatus(t.id, 'failed')
    await pollNow()
    expect(attentionOf(project.id)?.failedTaskIds.sort()).toEqual([a.id, b.id, c.id].sort())
    await controller.handlers['task:details']({ taskId: a.id })
    expect(attentionOf(project.id)?.failedTaskIds.sort()).toEqual([b.id, c.id].sort())
    service.control.setTaskStatus(b.id, 'in_progress')
    await pollNow()
    expect(attentionOf(project.id)?.failedTaskIds).toEqual([c.id])
  })

  it('asks for attention when a budget is crossed, until acknowledged with the list of projects', async () => {
    const project = service.control.createProject({ name: 'Shop' })
    const task = service.control.addTask(project.id, { name: 'Build', status: 'in_progress', script: 'run-forever' })
    service.control.setTaskTotalPrice(task.id, 0.5)
    await controller.handlers['project:watch']({ projectId: project.id })
    await controller.handlers['project:set-watch-options']({ projectId: project.id, budgetUsd: 1 })
    await pollNow()
    expect(attentionOf(project.id)?.budgetCrossed).toBe(false)
    service.control.setTaskTotalPrice(task.id, 2)
    await pollNow()
    expect(attentionOf(project.id)).toEqual({ failedTaskIds: [], budgetCrossed: true })
    expect(trayState()).toBe('attention')
    // Still over budget on the next poll: told once, and still asking until seen.
    await pollNow()
    expect(trayState()).toBe('attention')
    await controller.handlers['attention:acknowledge']({})
    expect(attentionOf(project.id)?.budgetCrossed).toBe(false)
    expect(summariseTray(controller.getState(), true)).toMatchObject({
      state: 'running',
      overBudget: 1,
      budgetsCrossed: 0
    })
    await restart()
    await pollNow()
    expect(attentionOf(project.id)?.budgetCrossed).toBe(false)
  })

  it('forgets what a project needed once it is unwatched', async () => {
    const { project, running } = await projectWithOldFailure()
    service.control.setTaskStatus(running.id, 'failed')
    await pollNow()
    await controller.handlers['project:unwatch']({ projectId: project.id })
    await controller.handlers['project:watch']({ projectId: project.id })
    await pollNow()
    expect(attentionOf(project.id)?.failedTaskIds).toEqual([])
    await restart()
    expect(settings.read().attention[connectionId]?.[project.id]).toBeUndefined()
  })

  it('lists failures, completions and budget crossings newest first, each acknowledged on its own, and running tasks with progress', async () => {
    const project = service.control.createProject({ name: 'Shop' })
    const other = service.control.createProject({ name: 'Blog' })
    const fails = service.control.addTask(project.id, { name: 'Fails', status: 'in_progress', script: 'run-forever' })
    const ends = service.control.addTask(other.id, { name: 'Ends', status: 'in_progress', script: 'run-forever' })
    const runs = service.control.addTask(project.id, { name: 'Runs', status: 'in_progress', script: 'run-forever' })
    service.control.setTaskTotalPrice(runs.id, 0.25)
    await controller.handlers['project:watch']({ projectId: project.id })
    await controller.handlers['project:watch']({ projectId: other.id })
    await pollNow()
    const spent = controller.getState().projects.find((p) => p.watched.projectId === project.id)!.costTotalUsd
    await controller.handlers['project:set-watch-options']({ projectId: project.id, budgetUsd: Math.ceil(spent) + 1 })
    await pollNow()
    service.control.setTaskStatus(fails.id, 'failed')
    await pollNow()
    await clock.advance(60_000)
    service.control.setTaskStatus(ends.id, 'completed')
    await pollNow()
    await clock.advance(60_000)
    service.control.setTaskTotalPrice(runs.id, Math.ceil(spent) + 3)
    await pollNow()

    const now = await controller.handlers['now:get']()
    expect(now.items.map((i) => [i.kind, i.projectName, i.taskName ?? null])).toEqual([
      ['budget', 'Shop', null],
      ['completed', 'Blog', 'Ends'],
      ['failed', 'Shop', 'Fails']
    ])
    expect(now.items.every((i) => i.connectionId === connectionId)).toBe(true)
    expect(now.running).toEqual([
      expect.objectContaining({
        projectId: project.id,
        projectName: 'Shop',
        taskId: runs.id,
        name: 'Runs',
        costUsd: Math.ceil(spent) + 3,
        startedAt: runs.created_at
      })
    ])
    // A completion does not ask the tray for attention; a failure and a budget crossing do.
    expect(summariseTray(controller.getState(), true)).toMatchObject({
      state: 'attention',
      newFailed: 1,
      budgetsCrossed: 1
    })

    await controller.handlers['attention:acknowledge']({ projectId: project.id, budget: true })
    expect((await controller.handlers['now:get']()).items.map((i) => i.kind)).toEqual(['completed', 'failed'])
    expect(summariseTray(controller.getState(), true)).toMatchObject({
      state: 'attention',
      newFailed: 1,
      budgetsCrossed: 0
    })
    // Opening the failed task sees that item only.
    await controller.handlers['task:details']({ taskId: fails.id })
    expect((await controller.handlers['now:get']()).items.map((i) => i.kind)).toEqual(['completed'])
    expect(trayState()).toBe('running')
    await restart()
    expect((await controller.handlers['now:get']()).items.map((i) => [i.kind, i.taskId])).toEqual([
      ['completed', ends.id]
    ])
    await controller.handlers['attention:acknowledge']({})
    expect((await controller.handlers['now:get']()).items).toEqual([])
  })

  it('a failure says the step where it broke, in a project where nothing runs any more', async () => {
    const project = service.control.createProject({ name: 'Garden', firstTask: false })
    const breaks = service.control.addTask(project.id, { name: 'Breaks', status: 'in_progress', script: 'fail' })
    await controller.handlers['project:watch']({ projectId: project.id })
    await pollNow()
    // The service's day goes by: the plan runs out, its last step fails, and the task with it.
    service.control.advance(24 * 3_600_000)
    await pollNow()
    const task = service.control.getTask(breaks.id)!
    expect(task.status).toBe('failed')
    const ordered = [...task.steps].sort((a, b) => Date.parse(a.created_at) - Date.parse(b.created_at))
    const broke = ordered.findIndex((s) => s.status === 'failed')
    expect(broke).toBeGreaterThan(0)
    expect(controller.getState().projects[0]?.counts.running).toBe(0)

    const now = await controller.handlers['now:get']()
    expect(now.items).toEqual([
      expect.objectContaining({
        kind: 'failed',
        taskId: breaks.id,
        failedStep: { name: ordered[broke]!.name, number: broke + 1 }
      })
    ])
  })

  it('acknowledging without a connection or for a project not watched is harmless', async () => {
    await controller.handlers['connection:remove']({ connectionId })
    expect(await dispatch(controller.handlers, 'attention:acknowledge', {})).toEqual({ ok: true, value: undefined })
    expect(settings.read().attention).toEqual({})
  })
})
