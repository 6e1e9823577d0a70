// An account in config.json whose `service` this version does not know (a newer version's, a hand edit): shown with
// its problem, never polled, its key sent nowhere. A loopback server stands where its address points and records
// every request.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest'
import { newWatchedProject } from '../../shared/watched-project'
import { json, startTestServer, type TestServer } from '../providers/test-server'
import { createSessionSecretStore, type SecretStore } from '../secrets'
import { keyCustody } from '../secrets/custody'
import { openSettings } from '../settings/store'
import { ManualClock } from '../util/clock'
import { type AppController, createAppController } from './controller'
import { dispatch } from './dispatch'
import { referenceControllerPorts } from './test-controller'

const KEY = 'future-service-key-0f3a9c'
const ID = 'c-future'
const PROBLEM =
  'This account is for a service this version of Agent Tray does not know: future-agent. Update Agent Tray, or remove the account.'

let server: TestServer
let dir: string
let secrets: SecretStore
let controller: AppController
let clock: ManualClock

beforeAll(async () => {
  server = await startTestServer()
  // Whatever is asked, a Workser-shaped answer: had the account been taken for Workser's, it would be polled.
  server.handle((_req, res) => json(res, 200, { tasks: [], items: [] }))
})
afterAll(() => server.close())

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-tray-unknown-service-'))
  secrets = createSessionSecretStore('Kept in memory for this test.')
  server.received.length = 0
  await keyCustody(secrets).set(ID, server.url, KEY)
  const settings = await openSettings({ dir })
  await settings.update((draft) => {
    draft.connections.push({
      id: ID,
      name: 'Future',
      baseUrl: server.url,
      publishingDomain: '',
      service: 'future-agent'
    })
    draft.activeConnectionId = ID
    draft.watched[ID] = [newWatchedProject('p1', new Date('2026-03-01T08:00:00Z'))]
  })
  controller = createAppController(
    referenceControllerPorts({
      settings: await openSettings({ dir }),
      secrets,
      clock: (clock = new ManualClock(Date.parse('2026-03-01T09:00:00Z')))
    })
  )
  await controller.start()
})

afterEach(async () => {
  await controller.stop()
  await rm(dir, { recursive: true, force: true })
})

it('is shown with its problem, and never polled: its key goes nowhere', async () => {
  // Refresh has nothing to poll, and says why.
  const refresh = await dispatch(controller.handlers, 'monitor:poll-now', undefined)
  expect(refresh).toEqual({ ok: false, error: expect.objectContaining({ message: PROBLEM }) })
  await clock.advance(60 * 60_000)
  const [view] = controller.getState().connections
  expect(view).toEqual(
    expect.objectContaining({ id: ID, service: 'future-agent', hasKey: true, problem: PROBLEM, agentHealth: null })
  )
  expect(controller.getState().agentTasks).toEqual([])
  expect(server.received).toEqual([])
})

it('a request about it says the problem; saving it with a new key is refused, so no key is checked anywhere', async () => {
  const tasks = await dispatch(controller.handlers, 'project:get', { connectionId: ID, projectId: 'p1' })
  expect(tasks).toEqual({ ok: false, error: expect.objectContaining({ kind: 'invalid_argument', message: PROBLEM }) })
  const saved = await dispatch(controller.handlers, 'connection:save', {
    connection: { id: ID, name: 'Future', baseUrl: server.url, publishingDomain: '' },
    apiKey: 'another-key-for-it'
  })
  expect(saved).toEqual({ ok: false, error: expect.objectContaining({ kind: 'invalid_argument', message: PROBLEM }) })
  expect(server.received).toEqual([])
})
