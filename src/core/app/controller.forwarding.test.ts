// Forwarding as the app runs it, against the reference service over HTTP and loopback receivers:
// the round the gate is told also goes to the targets that want it now (away by the presence the
// platform reports), muted projects stay muted, quiet hours hold the desktop back but not a target
// unless it asks, and budget news is forwarded like a task's end.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MANUAL_START_TIME, type ReferenceService, startReferenceService } from '../../reference-service'
import type { EventContract } from '../../shared/ipc'
import type { Presence } from '../forward/away'
import { type Receiver, startReceiver } from '../forward/test-receivers'
import { createSessionSecretStore } from '../secrets'
import { openSettings } from '../settings/store'
import { ManualClock } from '../util/clock'
import { type AppController, createAppController } from './controller'
import { referenceControllerPorts } from './test-controller'

const API_KEY = 'test-key-forwarding'

let service: ReferenceService
let receiver: Receiver
let dir: string
let controller: AppController
let told: EventContract['notification:shown'][]
const presence: Presence = { locked: false, idleMs: 0 }

beforeEach(async () => {
  service = await startReferenceService({ apiKey: API_KEY, port: 0, seed: 5, manualClock: true })
  receiver = await startReceiver()
  dir = await mkdtemp(join(tmpdir(), 'agent-tray-forwarding-'))
  presence.locked = false
  presence.idleMs = 0
  told = []
  controller = createAppController(
    referenceControllerPorts({
      settings: await openSettings({ dir }),
      secrets: createSessionSecretStore('Kept in memory for this test.'),
      clock: new ManualClock(Date.parse(MANUAL_START_TIME)),
      // powerMonitor's stand-in: the lock as its idle state, the idle time in seconds.
      presence: {
        on: () => undefined,
        off: () => undefined,
        getSystemIdleTime: () => presence.idleMs / 1000,
        getSystemIdleState: () => (presence.locked ? 'locked' : 'active')
      }
    })
  )
  controller.on('notification:shown', (n) => told.push(n))
  await controller.start()
  await controller.handlers['connection:save']({
    connection: { name: 'Local', baseUrl: service.url, publishingDomain: service.publishingDomain },
    apiKey: API_KEY
  })
})

afterEach(async () => {
  await controller.stop()
  await receiver.close()
  await service.close()
  await rm(dir, { recursive: true, force: true })
})

const pollNow = () => controller.handlers['monitor:poll-now']()
const taskIds = (from = 0) =>
  receiver.received.slice(from).map((r) => (JSON.parse(r.body) as { task: { id: string } | null }).task?.id)

async function watched(name: string, muted = false) {
  const project = service.control.createProject({ name })
  await controller.handlers['project:watch']({ projectId: project.id })
  if (muted) await controller.handlers['project:set-watch-options']({ projectId: project.id, muted: true })
  return project
}

function running(projectId: string, name: string) {
  return service.control.addTask(projectId, { name, status: 'in_progress', script: 'run-forever' })
}

describe('forwarding in the app', () => {
  it("a target set to away gets a failure only while away (locked, then idle), in order, and never a muted project's", async () => {
    const shop = await watched('Shop')
    const quiet = await watched('Muted', true)
    const [a1, a2, a3, a4] = ['one', 'two', 'three', 'four'].map((n) => running(shop.id, n))
    const b1 = running(quiet.id, 'muted one')
    await pollNow()
    const added = await controller.handlers['forward:add']({
      url: `${receiver.url}/hook`,
      on: ['failed'],
      when: 'away'
    })
    expect(added).toMatchObject({
      kind: 'webhook',
      host: receiver.url.replace('http://', ''),
      when: 'away',
      paused: false,
      lastDeliveredAt: null
    })

    // At the desk: told on the desktop, not forwarded (nothing queued).
    service.control.setTaskStatus(a1!.id, 'failed')
    await pollNow()
    expect(told.map((n) => n.taskId)).toEqual([a1!.id])
    expect((await controller.handlers['forward:list']())[0]).toMatchObject({ pending: 0, lastDeliveredAt: null })
    expect(await controller.handlers['forward:presence']()).toEqual({
      away: false,
      locked: false,
      idleSeconds: 0,
      awayAfterMs: 300_000
    })

    // Locked: forwarded; the muted project's failure in the same round is not.
    presence.locked = true
    expect((await controller.handlers['forward:presence']()).away).toBe(true)
    service.control.setTaskStatus(b1.id, 'failed')
    service.control.setTaskStatus(a2!.id, 'failed')
    await pollNow()
    await receiver.arrived(1)

    // Back, then idle past the set time: forwarded again; were the muted one queued, it would come before this.
    presence.locked = false
    presence.idleMs = 300_000
    service.control.setTaskStatus(a3!.id, 'failed')
    await pollNow()
    await receiver.arrived(2)
    expect(taskIds()).toEqual([a2!.id, a3!.id])
    expect(receiver.received[1]!.headers['idempotency-key']).toMatch(/^[0-9a-f]{32}$/)

    // Paused: nothing more; resumed: the next one.
    const [target] = await controller.handlers['forward:list']()
    expect((await controller.handlers['forward:update']({ targetId: target!.id, paused: true })).paused).toBe(true)
    service.control.setTaskStatus(a4!.id, 'failed')
    await pollNow()
    await controller.handlers['forward:update']({ targetId: target!.id, paused: false })
    const a5 = running(shop.id, 'five')
    await pollNow()
    service.control.setTaskStatus(a5.id, 'failed')
    await pollNow()
    await receiver.arrived(3)
    expect(taskIds(2)).toEqual([a5.id])
  })

  it('quiet hours hold the desktop back, not a target, unless the target asks for them', async () => {
    const shop = await watched('Shop')
    const [t1, t2] = ['one', 'two'].map((n) => running(shop.id, n))
    await pollNow()
    const { notifications } = await controller.handlers['settings:get']()
    await controller.handlers['settings:update']({
      notifications: { ...notifications, quietHours: { enabled: true, start: '00:00', end: '23:59' } }
    })
    await controller.handlers['forward:add']({
      url: `${receiver.url}/all`,
      name: 'all',
      on: ['failed'],
      when: 'always'
    })
    await controller.handlers['forward:add']({
      url: `${receiver.url}/quiet`,
      name: 'quiet',
      on: ['failed'],
      when: 'always',
      quietHours: true
    })

    service.control.setTaskStatus(t1!.id, 'failed')
    await pollNow()
    await receiver.arrived(1)
    expect(told).toEqual([])

    await controller.handlers['settings:update']({
      notifications: { ...notifications, quietHours: { enabled: false, start: '00:00', end: '23:59' } }
    })
    service.control.setTaskStatus(t2!.id, 'failed')
    await pollNow()
    await receiver.arrived(3)
    const byPath = (p: string) =>
      receiver.received.filter((r) => r.path === p).map((r) => (JSON.parse(r.body) as { task: { id: string } }).task.id)
    expect(byPath('/all')).toEqual([t1!.id, t2!.id])
    // Had the quiet target been queued the first failure, it would have come first.
    expect(byPath('/quiet')).toEqual([t2!.id])
  })

  it("a budget's crossing is forwarded like a task's end", async () => {
    const shop = await watched('Shop')
    const task = running(shop.id, 'Build')
    service.control.setTaskTotalPrice(task.id, 1)
    await pollNow()
    await controller.handlers['forward:add']({ url: `${receiver.url}/hook`, on: ['budget'], when: 'always' })
    service.control.setTaskTotalPrice(task.id, 12)
    await pollNow()
    await controller.handlers['budget:save']({
      budget: { projectId: shop.id, period: 'day', limitUsd: 10, warnRatio: 0.8 }
    })
    await receiver.arrived(1)
    expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({
      event: 'budget',
      budget: { level: 'over', budget_usd: 10 },
      project: { id: shop.id, name: 'Shop' }
    })
  })
})
