// A round of changes is told only once the last seen state that holds it is written: a crash
// between the two then repeats nothing (the next start finds the old state and tells the change
// once, as 'While you were away'). The whole property, across a real SIGKILL mid-write, is in the
// soak (bench/soak.test.ts); this is the order itself, with the state write held open by hand.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { MANUAL_START_TIME, type ReferenceService, startReferenceService } from '../../reference-service'
import type { Notification } from '../notify/policy'
import { createSessionSecretStore } from '../secrets'
import { openSettings, type SettingsStore } from '../settings/store'
import { ManualClock } from '../util/clock'
import { type AppController, createAppController } from './controller'
import { referenceControllerPorts } from './test-controller'

const API_KEY = 'told-after-write-key'
let service: ReferenceService
let dir: string
let controller: AppController
let clock: ManualClock
const notified: Notification[] = []
/** Writes of the last seen state wait here until released. */
let held: { release: () => void; written: Promise<void> }[] = []
let holding = true

function holdingWrites(store: SettingsStore): SettingsStore {
  return Object.assign(Object.create(store) as SettingsStore, {
    writeLastSeen: (...args: Parameters<SettingsStore['writeLastSeen']>) =>
      !holding
        ? store.writeLastSeen(...args)
        : new Promise<void>((resolve, reject) => {
            let release = (): void => undefined
            const written = new Promise<void>((r) => (release = r)).then(() =>
              store.writeLastSeen(...args).then(resolve, reject)
            )
            held.push({ release, written })
          })
  })
}

beforeEach(async () => {
  service = await startReferenceService({ apiKey: API_KEY, port: 0, seed: 11, manualClock: true })
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-told-'))
  clock = new ManualClock(Date.parse(MANUAL_START_TIME))
  notified.length = 0
  held = []
  holding = true
  controller = createAppController(
    referenceControllerPorts({
      settings: holdingWrites(await openSettings({ dir })),
      secrets: createSessionSecretStore('Kept in memory for this test.'),
      notify: (n) => notified.push(n),
      clock
    })
  )
  await controller.start()
})

afterEach(async () => {
  holding = false
  for (const h of held) h.release()
  await controller.stop()
  await service.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

async function releaseAll(): Promise<void> {
  while (held.length > 0) {
    const now = held.splice(0)
    for (const h of now) h.release()
    await Promise.all(now.map((h) => h.written))
  }
}

it('tells a finished task only after the state that holds it is written, and Refresh waits for both', async () => {
  await controller.handlers['connection:save']({
    connection: { name: 'Local', baseUrl: service.url, publishingDomain: service.publishingDomain },
    apiKey: API_KEY
  })
  const project = service.control.createProject({ name: 'Shop' })
  const task = service.control.addTask(project.id, { name: 'Build', status: 'in_progress', script: 'run-forever' })
  await controller.handlers['project:watch']({ projectId: project.id })
  const first = controller.handlers['monitor:poll-now']()
  await releaseAll()
  await first

  service.control.setTaskStatus(task.id, 'failed')
  let refreshed = false
  const refresh = controller.handlers['monitor:poll-now']().then(() => (refreshed = true))
  await controller.monitor?.idle()
  await clock.advance(0)
  // The round is known (the poll is done), its state is being written: nothing told yet.
  expect(held.length).toBeGreaterThan(0)
  expect(notified).toEqual([])
  expect(refreshed).toBe(false)

  await releaseAll()
  await refresh
  expect(notified).toEqual([expect.objectContaining({ kind: 'task', taskId: task.id, outcome: 'failed' })])
})
