// The soak's child: the app's own composition (core/app/compose.ts, as src/main runs it) on a
// settings directory, a manual clock the parent moves in step with the reference service's, and
// a notifier that reports every notification to the parent the moment it is shown. A restart is
// in this process: the composition is stopped (writing what it saw) and a new one is built from
// a newly opened store, so it knows only what the files say. The one crash is a real SIGKILL from
// the parent, sent while this process is inside a write of state.json (see killingStateConf); a
// second one, when the day forwards, while a forward is on its way (the receiver is the parent's).
import { EventEmitter } from 'node:events'
import fs from 'node:fs'
import Conf from 'conf'
import { composeApp, type ComposedApp } from '../src/core/app/compose'
import type { PowerEvents } from '../src/core/app/lifecycle'
import { saveTargetSecret } from '../src/core/forward/target-secrets'
import type { Notification } from '../src/core/notify/policy'
import { createSessionSecretStore } from '../src/core/secrets'
import { type ConfLike, openSettings, settingsConfOptions } from '../src/core/settings'
import { ManualClock } from '../src/core/util/clock'
import { DEFAULT_PUBLISHING_DOMAIN } from '../src/reference-service/types'
import type { PollingPrefs } from '../src/shared/settings'
import { seededRandom } from './random'

export type ToSoakWorker =
  | {
      type: 'start'
      dir: string
      url: string
      apiKey: string
      /** The simulated moment the controller starts at. */
      at: number
      seed: number
      /** First start only: the connection is added and these projects watched, through the app's own handlers. */
      setup?: { projectIds: string[]; polling: PollingPrefs }
      /** A forwarding target (a JSON webhook on loopback) that gets every task's end, always; added at the first start. */
      forwardUrl?: string
    }
  | { type: 'advance'; ms: number }
  /** From now on, the first state.json write after a notification was shown is where this process dies. */
  | { type: 'arm-kill' }
  | { type: 'heap' }
  /** Stops the controller (a graceful restart's first half). */
  | { type: 'stop' }
  | { type: 'exit' }

export type FromSoakWorker =
  | { type: 'done'; nextAt: number | null; heapMb?: number; timersLeft?: number; startMs?: number }
  | { type: 'notification'; notification: Notification; at: number }
  /** Inside a write of state.json: the parent kills this process now. */
  | { type: 'writing-state' }
  | { type: 'app-error'; context: string; message: string }
  | { type: 'failed'; error: string }

const send = (message: FromSoakWorker): void => {
  process.send?.(message)
}

let app: ComposedApp | null = null
let clock: ManualClock | null = null
let armed = false
let shownSinceArmed = 0

/**
 * state.json's store, killed mid-write when armed: half of the new content is in a temporary file
 * beside it (as the atomic write leaves it before its rename), the lock is held, state.json itself
 * is still the old one. The parent is told and sends SIGKILL; this process waits for it, blocked.
 */
function killingStateConf(dir: string): ConfLike {
  const real = new Conf({ ...settingsConfOptions(dir), configName: 'state' })
  return {
    get path() {
      return real.path
    },
    get store() {
      return real.store
    },
    set store(value: Record<string, unknown>) {
      if (armed && shownSinceArmed > 0) {
        const text = settingsConfOptions(dir).serialize(value)
        fs.writeFileSync(`${real.path}.tmp-soak`, text.slice(0, Math.floor(text.length / 2)))
        send({ type: 'writing-state' })
        // Synchronously, so nothing else runs: the write stays cut where it is.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20_000)
        throw new Error('The parent did not kill the soak worker within 20 s of its state write.')
      }
      real.store = value
    }
  }
}

function quietPower(): PowerEvents {
  return new EventEmitter() as EventEmitter & PowerEvents
}

async function start(input: Extract<ToSoakWorker, { type: 'start' }>): Promise<void> {
  const store = await openSettings({ dir: input.dir, stateConf: () => killingStateConf(input.dir) })
  const secrets = createSessionSecretStore('Kept in memory by the soak.')
  // The key store is the session's (the keychain is tested elsewhere): a restart is given the key again.
  for (const c of store.read().connections) await secrets.set(c.id, input.apiKey)
  // And the forwarding target's URL, as the keychain would keep it.
  if (input.forwardUrl !== undefined)
    for (const t of store.read().forwarding.targets)
      await saveTargetSecret(secrets.forwarding, t.id, { url: input.forwardUrl })
  clock = new ManualClock(input.at)
  const now = clock
  app = composeApp({
    settings: store,
    secrets,
    window: { show: () => undefined, send: () => undefined },
    notify: (notification) => {
      shownSinceArmed += 1
      send({ type: 'notification', notification, at: now.now() })
    },
    openExternal: async () => undefined,
    ipc: { ipcMain: { handle: () => undefined, removeHandler: () => undefined }, isTrusted: () => false },
    power: quietPower(),
    watchOnline: (onChange) => {
      onChange(true)
      return { check: () => onChange(true), stop: () => undefined }
    },
    quit: () => undefined,
    log: () => undefined,
    onError: (context, error) =>
      send({ type: 'app-error', context, message: error instanceof Error ? error.message : String(error) }),
    clock,
    random: seededRandom(input.seed),
    tz: 0
  })
  await app.start()
  if (input.setup) {
    const { handlers } = app.controller
    await handlers['settings:update']({ polling: input.setup.polling })
    await handlers['connection:save']({
      connection: { name: 'Soak', baseUrl: input.url, publishingDomain: DEFAULT_PUBLISHING_DOMAIN },
      apiKey: input.apiKey
    })
    for (const projectId of input.setup.projectIds) await handlers['project:watch']({ projectId })
    if (input.forwardUrl !== undefined)
      await handlers['forward:add']({
        url: input.forwardUrl,
        name: 'Soak receiver',
        on: ['failed', 'completed', 'cancelled'],
        when: 'always'
      })
  }
  await app.controller.monitor?.idle()
}

async function handle(message: ToSoakWorker): Promise<FromSoakWorker | null> {
  switch (message.type) {
    case 'start': {
      const began = performance.now()
      await start(message)
      return { type: 'done', nextAt: clock?.nextAt() ?? null, startMs: performance.now() - began }
    }
    case 'advance': {
      if (!clock || !app) throw new Error('advance before start')
      await clock.advance(message.ms)
      await app.controller.monitor?.idle()
      return { type: 'done', nextAt: clock.nextAt() }
    }
    case 'arm-kill':
      armed = true
      shownSinceArmed = 0
      return { type: 'done', nextAt: clock?.nextAt() ?? null }
    case 'heap': {
      // Run with --expose-gc: a full collection, then what is still held.
      const gc = (globalThis as { gc?: () => void }).gc
      if (typeof gc !== 'function') throw new Error('The soak worker needs --expose-gc to measure its heap.')
      gc()
      return { type: 'done', nextAt: clock?.nextAt() ?? null, heapMb: process.memoryUsage().heapUsed / 1024 / 1024 }
    }
    case 'stop': {
      await app?.stop()
      const timersLeft = clock?.pending ?? 0
      app = null
      clock = null
      return { type: 'done', nextAt: null, timersLeft }
    }
    case 'exit':
      await app?.stop()
      process.exit(0)
  }
}

// One request at a time (the parent waits for each answer), answered in order.
let queue: Promise<void> = Promise.resolve()
process.on('message', (message) => {
  queue = queue.then(async () => {
    try {
      const answer = await handle(message as ToSoakWorker)
      if (answer) send(answer)
    } catch (error) {
      send({ type: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) })
    }
  })
})
