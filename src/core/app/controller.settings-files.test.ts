// The app's side of damaged settings files: the controller reads settings and state through the same
// store as the command, on every state push, poll and change. A file damaged, or replaced by a
// directory, while the app runs never crashes it: reads keep what was read, a change fails as a
// result, a failed write of the last seen state is reported, and all works again once it is put back.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { MANUAL_START_TIME, type ReferenceService, startReferenceService } from '../../reference-service'
import { type AppState, EVENT_CHANNELS } from '../../shared/ipc'
import { createSessionSecretStore } from '../secrets'
import { SettingsFileError } from '../settings/file-error'
import { openSettings, type SettingsStore } from '../settings/store'
import { ManualClock } from '../util/clock'
import { type AppController, createAppController } from './controller'
import { dispatch } from './dispatch'
import { referenceControllerPorts } from './test-controller'

const API_KEY = 'settings-files-app-key'
let service: ReferenceService
let dir: string
let settings: SettingsStore
let clock: ManualClock
let controller: AppController
let states: AppState[]
let failures: { context: string; error: unknown }[]

beforeEach(async () => {
  service = await startReferenceService({ apiKey: API_KEY, port: 0, seed: 5, manualClock: true })
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-app-files-'))
  settings = await openSettings({ dir })
  clock = new ManualClock(Date.parse(MANUAL_START_TIME))
  failures = []
  controller = createAppController(
    referenceControllerPorts({
      settings,
      secrets: createSessionSecretStore('Kept in memory for this test.'),
      clock,
      onError: (context, error) => failures.push({ context, error })
    })
  )
  states = []
  for (const channel of EVENT_CHANNELS)
    if (channel === 'app:state') controller.on(channel, (state) => states.push(state))
  await controller.start()
  await controller.handlers['connection:save']({
    connection: { name: 'Local', baseUrl: service.url, publishingDomain: service.publishingDomain },
    apiKey: API_KEY
  })
  for (const name of ['One', 'Two', 'Three']) {
    const project = service.control.createProject({ name })
    service.control.addTask(project.id, { name: `${name} task`, status: 'in_progress', script: 'run-forever' })
    await controller.handlers['project:watch']({ projectId: project.id })
  }
  await controller.handlers['monitor:poll-now']()
})

afterEach(async () => {
  await controller.stop()
  await service.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const file = (name: string) => path.join(dir, name)
const names = (state: AppState) => state.projects.map((p) => p.watched.name)

async function pushedState(): Promise<AppState> {
  const before = states.length
  await clock.advance(150)
  expect(states.length).toBeGreaterThan(before)
  return states.at(-1)!
}

it('config.json cut while the app runs: state, polls and changes go on; the next change keeps the original aside', async () => {
  const text = fs.readFileSync(file('config.json'), 'utf8')
  fs.writeFileSync(file('config.json'), text.slice(0, text.indexOf('"Three"')))
  // Not JSON any more: the last good copy beside it is in use.
  expect(names(controller.getState())).toEqual(['One', 'Two', 'Three'])
  await controller.handlers['monitor:poll-now']()
  const view = await controller.handlers['settings:update']({ theme: 'dark' })
  expect(view.theme).toBe('dark')
  expect(fs.readdirSync(dir).filter((n) => n.startsWith('config.json.corrupt-'))).toHaveLength(1)
  expect(names(await pushedState())).toEqual(['One', 'Two', 'Three'])
  expect(failures).toEqual([])
})

it('config.json and state.json replaced by directories while the app runs: nothing crashes, and all works again once they are back', async () => {
  for (const name of ['config.json', 'state.json']) {
    fs.renameSync(file(name), file(`${name}.away`))
    fs.mkdirSync(file(name))
  }
  // Reading: the settings read last, with the reason in the store's notices.
  const state = controller.getState()
  expect(names(state)).toEqual(['One', 'Two', 'Three'])
  // The window is told with the next push, not only at the next start.
  expect((await pushedState()).notices).toContainEqual(
    expect.stringMatching(/config\.json is a directory, not a settings file/)
  )

  // A change: refused as a result, never thrown out of the handler's dispatch.
  const refused = await dispatch(controller.handlers, 'settings:update', { theme: 'dark' })
  expect(refused).toMatchObject({
    ok: false,
    error: { message: expect.stringMatching(/config\.json is a directory, not a settings file/) }
  })
  expect(fs.statSync(file('config.json')).isDirectory()).toBe(true)

  // Polling goes on; saving what it saw fails, and is reported rather than thrown.
  service.control.addTask(state.projects[0]!.watched.projectId, { name: 'New one', status: 'todo' })
  await controller.handlers['monitor:poll-now']()
  expect(names(await pushedState())).toEqual(['One', 'Two', 'Three'])
  // The write is the monitor's own, after the poll, under the file lock.
  await vi.waitFor(() => expect(failures.map((f) => f.context)).toContain('saving the last seen state'))
  expect(failures.every((f) => f.error instanceof SettingsFileError)).toBe(true)

  for (const name of ['config.json', 'state.json']) {
    fs.rmdirSync(file(name))
    fs.renameSync(file(`${name}.away`), file(name))
  }
  expect((await controller.handlers['settings:update']({ theme: 'dark' })).theme).toBe('dark')
  await controller.handlers['monitor:poll-now']()
  await controller.stop()
  const reopened = await openSettings({ dir })
  expect(Object.keys(reopened.readLastSeen()[states.at(-1)!.activeConnectionId!] ?? {})).toHaveLength(3)
})
