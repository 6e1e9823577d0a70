// A Cursor account through the whole composition (composeApp, as main and the e2e host run it) against the Cursor
// fake over real HTTP: a running agent's tool calls reach the window as 'agent:steps' while it runs, and the end its
// stream tells is polled at once, so its notification comes before the polling interval has passed.
import { EventEmitter } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { type CursorFake, startCursorFake } from '../../reference-service/cursor/fake'
import type { EventChannel, EventContract } from '../../shared/ipc'
import { DEFAULT_POLLING_PREFS } from '../../shared/settings'
import type { Notification } from '../notify/policy'
import { createSessionSecretStore } from '../secrets'
import { openSettings } from '../settings/store'
import { ManualClock, type TimerHandle } from '../util/clock'
import { composeApp, type ComposedApp } from './compose'
import type { PowerEvents } from './lifecycle'

const KEY = 'key_cursor_fake_0123456789abcdef'
const START = Date.parse('2026-03-01T09:00:00Z')

let fake: CursorFake
let dir: string
let app: ComposedApp
let clock: ManualClock
let sent: { channel: EventChannel; payload: unknown }[]
let notes: Notification[]
let waiters: (() => void)[]

/** Resolves once `check` holds after something reached the window or the desktop. */
function until(check: () => boolean): Promise<void> {
  if (check()) return Promise.resolve()
  return new Promise<void>((resolve) => {
    const waiter = () => {
      if (!check()) return
      waiters = waiters.filter((w) => w !== waiter)
      resolve()
    }
    waiters.push(waiter)
  })
}
const wake = () => {
  for (const w of [...waiters]) w()
}

/** The app's clock, which also wakes the waiters when a timer is set (a poll planned). */
class WatchedClock extends ManualClock {
  override setTimeout(fn: () => void, ms: number): TimerHandle {
    const handle = super.setTimeout(fn, ms)
    wake()
    return handle
  }
}

beforeEach(async () => {
  fake = await startCursorFake({ apiKey: KEY, manualClock: true })
  dir = await mkdtemp(join(tmpdir(), 'agent-tray-live-'))
  sent = []
  notes = []
  waiters = []
  clock = new WatchedClock(START)
  app = composeApp({
    settings: await openSettings({ dir }),
    secrets: createSessionSecretStore('test'),
    clock,
    random: () => 0.5,
    tz: 0,
    window: {
      show: () => {},
      send: (channel, payload) => {
        sent.push({ channel, payload })
        wake()
      }
    },
    notify: (n) => {
      notes.push(n)
      wake()
    },
    openExternal: async () => {},
    ipc: { ipcMain: { handle: () => {}, removeHandler: () => {} }, isTrusted: () => true },
    power: new EventEmitter() as EventEmitter & PowerEvents,
    watchOnline: () => ({ check: () => {}, stop: () => {} }),
    quit: () => {},
    stateIntervalMs: 0
  })
  await app.start()
})

afterEach(async () => {
  await app.stop()
  await fake.close()
  await rm(dir, { recursive: true, force: true })
})

const stepsSent = () =>
  sent.flatMap((s) => (s.channel === 'agent:steps' ? [s.payload as EventContract['agent:steps']] : []))

it("a running agent's tool calls reach the window as they happen, and its end is told before the interval", async () => {
  const { id } = fake.control.addTask({ title: 'Add README Documentation', script: 'complete' })
  fake.control.advance(2_000)
  const view = await app.controller.handlers['connection:save']({
    connection: { name: 'Cursor', baseUrl: fake.baseUrl, publishingDomain: '', service: 'cursor' },
    apiKey: KEY
  })
  await app.controller.handlers['monitor:poll-now']()
  expect(app.controller.getState().agentTasks).toEqual([
    expect.objectContaining({ id, status: 'running', live: true, connectionId: view.id })
  ])

  fake.control.advance(3_000)
  await until(() => stepsSent().length > 0)
  expect(stepsSent()).toEqual([
    { connectionId: view.id, taskId: id, steps: [expect.objectContaining({ kind: 'tool_call', title: 'read_file' })] }
  ])
  // The same steps when the task is opened.
  const opened = await app.controller.handlers['agent:task']({ connectionId: view.id, taskId: id })
  expect(opened.steps?.map((s) => s.title)).toEqual(['read_file'])
  expect(opened.live).toBe(true)

  // The run ends on the service: its stream says so, and the poll it asks for runs at once.
  fake.control.advance(30_000)
  await until(() => stepsSent().some((s) => s.steps.length === 3))
  // Time stands still: only what is due now runs (the early poll among it), as it is planned.
  while (notes.length === 0) {
    await until(() => notes.length > 0 || clock.nextAt() === clock.now())
    await clock.advance(0)
  }
  expect(clock.now() - START).toBeLessThan(DEFAULT_POLLING_PREFS.activeIntervalMs)
  expect(notes).toEqual([expect.objectContaining({ taskId: id, connectionId: view.id })])
  expect(sent).toContainEqual({
    channel: 'monitor:event',
    payload: expect.objectContaining({ kind: 'agent-status', taskId: id, from: 'running', to: 'completed' })
  })
})
