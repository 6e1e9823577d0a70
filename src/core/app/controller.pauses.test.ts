// Pausing notifications, of every account or of one, against the reference service: the window is
// told once when a pause ends, and only of the pause in effect: a pause replaced, lifted, or of an
// account since removed leaves no timer behind, nor does stop().
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANUAL_START_TIME, type ReferenceService, startReferenceService } from '../../reference-service'
import type { AppState } from '../../shared/ipc'
import { createSessionSecretStore } from '../secrets'
import { openSettings } from '../settings/store'
import { ManualClock } from '../util/clock'
import { type AppController, createAppController } from './controller'
import { referenceControllerPorts } from './test-controller'

const API_KEY = 'test-key-pauses-51c2'
const MINUTE = 60_000

let service: ReferenceService
let dir: string
let clock: ManualClock
let controller: AppController
let pushes: AppState[]
let stopped: boolean

beforeEach(async () => {
  service = await startReferenceService({ apiKey: API_KEY, port: 0, seed: 3, manualClock: true })
  dir = await mkdtemp(join(tmpdir(), 'agent-tray-pauses-'))
  clock = new ManualClock(Date.parse(MANUAL_START_TIME))
  await startController()
})

/** The app on the test's settings directory, as a start reads it. */
async function startController(): Promise<void> {
  controller = createAppController(
    referenceControllerPorts({
      settings: await openSettings({ dir }),
      secrets: createSessionSecretStore('Kept in memory for this test.'),
      clock
    })
  )
  pushes = []
  stopped = false
  controller.on('app:state', (state) => pushes.push(state))
  await controller.start()
}

afterEach(async () => {
  if (!stopped) await controller.stop()
  await service.close()
  await rm(dir, { recursive: true, force: true })
})

async function account(name: string): Promise<string> {
  const view = await controller.handlers['connection:save']({
    connection: { name, baseUrl: service.url, publishingDomain: '' },
    apiKey: API_KEY
  })
  return view.id
}

/** Moves time on and says how many 'app:state' pushes went out meanwhile (each coalesced over 100 ms). */
async function pushesOver(ms: number): Promise<number> {
  await clock.advance(150)
  const before = pushes.length
  await clock.advance(ms)
  await clock.advance(150)
  return pushes.length - before
}

const accountPause = (id: string): string | null =>
  controller.getState().connections.find((c) => c.id === id)?.notifications.pausedUntil ?? null

describe('pausing one account', () => {
  it('paused again for longer: the window hears once, when the second pause ends', async () => {
    const id = await account('Work')
    await controller.handlers['connection:set-notifications']({ connectionId: id, pauseMinutes: 10 })
    await controller.handlers['connection:set-notifications']({ connectionId: id, pauseMinutes: 60 })
    // The first pause's end is no news: the second one is still in effect.
    expect(await pushesOver(11 * MINUTE)).toBe(0)
    expect(accountPause(id)).not.toBeNull()
    expect(await pushesOver(50 * MINUTE)).toBe(1)
    expect(pushes.at(-1)?.connections.find((c) => c.id === id)?.notifications.pausedUntil).toBeNull()
  })

  it('lifted, or its account removed: nothing is told when the pause would have ended', async () => {
    const kept = await account('Work')
    const gone = await account('Home')
    await controller.handlers['connection:set-notifications']({ connectionId: kept, pauseMinutes: 10 })
    await controller.handlers['connection:set-notifications']({ connectionId: gone, pauseMinutes: 10 })
    await controller.handlers['connection:set-notifications']({ connectionId: kept, pauseMinutes: null })
    await controller.handlers['connection:remove']({ connectionId: gone })
    expect(accountPause(kept)).toBeNull()
    expect(await pushesOver(11 * MINUTE)).toBe(0)
  })

  it('a mute alone leaves the pause and its timer as they were', async () => {
    const id = await account('Work')
    await controller.handlers['connection:set-notifications']({ connectionId: id, pauseMinutes: 10 })
    await controller.handlers['connection:set-notifications']({ connectionId: id, muted: true })
    expect(await pushesOver(11 * MINUTE)).toBe(1)
    expect(accountPause(id)).toBeNull()
  })
})

describe('pausing every account', () => {
  it('paused again for longer, then lifted: nothing is told at either end', async () => {
    await controller.handlers['monitor:pause-notifications']({ minutes: 10 })
    await controller.handlers['monitor:pause-notifications']({ minutes: 60 })
    expect(await pushesOver(11 * MINUTE)).toBe(0)
    await controller.handlers['monitor:pause-notifications']({ minutes: null })
    expect(controller.getState().monitor.notificationsPausedUntil).toBeNull()
    expect(await pushesOver(60 * MINUTE)).toBe(0)
  })
})

describe('a restart', () => {
  it('keeps a stored pause ending on time: the window hears when each one ends', async () => {
    const id = await account('Work')
    await controller.handlers['monitor:pause-notifications']({ minutes: 10 })
    await controller.handlers['connection:set-notifications']({ connectionId: id, pauseMinutes: 30 })
    await controller.stop()
    await startController()
    expect(controller.getState().monitor.notificationsPausedUntil).not.toBeNull()
    expect(accountPause(id)).not.toBeNull()
    expect(await pushesOver(9 * MINUTE)).toBe(0)
    expect(await pushesOver(MINUTE)).toBe(1)
    expect(pushes.at(-1)?.monitor.notificationsPausedUntil).toBeNull()
    expect(await pushesOver(19 * MINUTE)).toBe(0)
    expect(await pushesOver(MINUTE)).toBe(1)
    expect(pushes.at(-1)?.connections.find((c) => c.id === id)?.notifications.pausedUntil).toBeNull()
  })
})

describe('stop', () => {
  it('leaves no pause timer behind', async () => {
    const id = await account('Work')
    await controller.handlers['connection:set-notifications']({ connectionId: id, pauseMinutes: 10 })
    await controller.handlers['monitor:pause-notifications']({ minutes: 30 })
    await controller.stop()
    stopped = true
    expect(clock.pending).toBe(0)
  })
})
