// One writer of the outbox: two real processes on one state directory (the app and `agent-tray
// watch --forward`). The second waits while the first forwards, and takes over once it stops,
// sending what was told to it meanwhile; the first's memory of what it delivered is kept.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { ManualClock } from '../util/clock'
import { createForwarding } from './forwarding'
import { MAX_PENDING_PER_TARGET } from './outbox'
import { OUTBOX_FILE } from './outbox-file'
import { FORWARDING_ELSEWHERE_APP, lockOutbox, OUTBOX_LOCK_RETRY_MS } from './outbox-lock'
import { NAMES, taskEnded, WEBHOOK_TARGET } from './test-events'
import { startForwardingProcess } from './test-forwarding-process'
import { ANSWERS, startReceiver } from './test-receivers'

const cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

async function setup() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-writers-'))
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }))
  const r = await startReceiver(ANSWERS.ok())
  cleanup.push(() => r.close())
  return { file: path.join(dir, OUTBOX_FILE), url: `${r.url}/hook`, r }
}

function open(file: string, url: string, clock: ManualClock, onError?: (error: unknown) => void) {
  const forwarding = createForwarding({
    onError,
    file,
    clock,
    secrets: { get: () => Promise.resolve(JSON.stringify({ url })) },
    settings: () => ({ forwarding: { targets: [WEBHOOK_TARGET] }, watched: {}, connectionNotifications: {} }),
    names: NAMES,
    moment: () => ({ away: true, quiet: false }),
    onGiveUp: () => undefined,
    lockRetryMs: OUTBOX_LOCK_RETRY_MS
  })
  cleanup.push(() => forwarding.close())
  return forwarding
}

it('while another process forwards, a second waits (its events kept), and takes over once the first stops', async () => {
  const { file, url, r } = await setup()
  const first = startForwardingProcess(file, url)
  cleanup.push(() => first.kill())
  await first.said('ready=true')

  const clock = new ManualClock(Date.UTC(2026, 10, 27, 9))
  const second = open(file, url, clock)
  expect(await second.ready).toEqual({ held: false, reason: FORWARDING_ELSEWHERE_APP })
  second.forward('c1', [taskEnded('t1')])
  expect(second.status('f1')).toEqual({ pending: 1, lastError: FORWARDING_ELSEWHERE_APP })
  await clock.advance(OUTBOX_LOCK_RETRY_MS)
  await second.idle()
  expect(second.status('f1')).toEqual({ pending: 1, lastError: FORWARDING_ELSEWHERE_APP })
  expect(r.received).toHaveLength(0)

  await first.stop()
  await clock.advance(OUTBOX_LOCK_RETRY_MS)
  await second.idle()
  await r.arrived(1)
  await second.idle()
  expect(second.status('f1')).toMatchObject({ pending: 0 })
  expect(r.received).toHaveLength(1)
})

it('a process that finds the outbox held says so at once (the command refuses on it)', async () => {
  const { file, url } = await setup()
  const clock = new ManualClock(Date.UTC(2026, 10, 27, 9))
  const holder = open(file, url, clock)
  expect(await holder.ready).toEqual({ held: true })
  const other = startForwardingProcess(file, url)
  cleanup.push(() => other.kill())
  await other.said('ready=false')
  await holder.close()
  // Free again once the holder stopped: a new process takes it.
  const next = startForwardingProcess(file, url)
  cleanup.push(() => next.kill())
  await next.said('ready=true')
})

it('an outbox whose lock cannot be made says why, not that another process forwards', async () => {
  const { file, url } = await setup()
  // A file where the state directory should be: nothing can be made in it.
  fs.writeFileSync(file, '')
  const forwarding = open(path.join(file, OUTBOX_FILE), url, new ManualClock(Date.UTC(2026, 10, 27, 9)))
  const ready = await forwarding.ready
  expect(ready).toEqual({
    held: false,
    reason: expect.stringMatching(/^Forwarding cannot lock its outbox: E(EXIST|NOTDIR)/) as unknown as string
  })
  expect(forwarding.status('f1').lastError).toBe(ready.held ? undefined : ready.reason)
})

it('a lock that cannot be made is told once, not at each retry', async () => {
  const { file, url } = await setup()
  fs.writeFileSync(file, '')
  const clock = new ManualClock(Date.UTC(2026, 10, 27, 9))
  const errors: unknown[] = []
  const forwarding = open(path.join(file, OUTBOX_FILE), url, clock, (error) => errors.push(error))
  await forwarding.ready
  for (let i = 0; i < 3; i++) {
    await clock.advance(OUTBOX_LOCK_RETRY_MS)
    await forwarding.idle()
  }
  expect(errors).toHaveLength(1)
  expect(forwarding.status('f1').lastError).toMatch(/^Forwarding cannot lock its outbox/)
})

it('while it waits for another process, past the bound the oldest events are dropped, told once', async () => {
  const { file, url } = await setup()
  const other = await lockOutbox(file, () => undefined)
  cleanup.push(() => other?.release())
  const errors: unknown[] = []
  const waiting = open(file, url, new ManualClock(Date.UTC(2026, 10, 27, 9)), (error) => errors.push(error))
  expect(await waiting.ready).toMatchObject({ held: false })
  for (let i = 0; i < MAX_PENDING_PER_TARGET + 3; i++) waiting.forward('c1', [taskEnded(`t${i}`)])
  expect(waiting.status('f1').pending).toBe(MAX_PENDING_PER_TARGET)
  expect(errors.map(String)).toEqual([
    expect.stringContaining(`past ${MAX_PENDING_PER_TARGET} waiting events, the oldest are dropped`)
  ])
})
