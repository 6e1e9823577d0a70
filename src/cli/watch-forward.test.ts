// `agent-tray watch --forward` against the reference service over real HTTP: a task that fails
// while watched reaches a loopback JSON webhook once, through the outbox file.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { OUTBOX_FILE } from '../core/forward/outbox-file'
import { FORWARDING_ELSEWHERE } from '../core/forward/outbox-lock'
import { startForwardingProcess } from '../core/forward/test-forwarding-process'
import { ANSWERS, type Receiver, startReceiver } from '../core/forward/test-receivers'
import { type ReferenceService, startReferenceService } from '../reference-service'
import { forwardSecretAccount } from '../shared/forward-target'
import { EXIT } from './exit-codes'
import { makeRunner, memorySecrets, tempDir } from './test-harness'

let service: ReferenceService
let receiver: Receiver
const { keys, targets, secrets } = memorySecrets()

beforeAll(async () => {
  service = await startReferenceService({ apiKey: 'work-key-1', port: 0, seed: 3, manualClock: true })
  receiver = await startReceiver(ANSWERS.ok())
})
afterAll(async () => {
  await service.close()
  await receiver.close()
})

/** A state directory whose config watches a new project and forwards its failures to the receiver. */
function configured(): { dir: string; project: { id: string } } {
  const dir = tempDir()
  const p = service.control.createProject({ name: 'Office app' })
  fs.writeFileSync(
    path.join(dir, 'config.json'),
    JSON.stringify({
      version: 2,
      activeConnectionId: 'w',
      connections: [{ id: 'w', name: 'Work', baseUrl: service.url, publishingDomain: '' }],
      watched: {
        w: [{ projectId: p.id, name: 'Office app', muted: false, budgetUsd: null, addedAt: '2026-01-01T00:00:00.000Z' }]
      },
      forwarding: {
        targets: [
          {
            id: 'f1',
            name: 'hook',
            kind: 'webhook',
            host: '127.0.0.1',
            on: ['failed'],
            when: 'away',
            paused: false,
            quietHours: false
          }
        ],
        awayAfterMs: 300000
      }
    })
  )
  keys.set('w', 'work-key-1')
  targets.set(forwardSecretAccount('f1'), JSON.stringify({ url: `${receiver.url}/in` }))
  return { dir, project: p }
}

it('a task failing while watched is forwarded once to the webhook', async () => {
  const { dir, project: p } = configured()
  const t = service.control.addTask(p.id, { name: 'Ship <it>', status: 'todo', script: 'run-forever' })
  const polls = () => service.control.stats().byRoute['GET /projects/{id}/tasks']?.requests ?? 0
  const before = polls()
  const stop = new AbortController()
  const run = makeRunner({ configDir: dir, deps: { secrets: () => secrets } })
  const finished = run(['watch', '--forward', '--interval-ms', '1000'], {
    signal: stop.signal,
    env: { AGENT_TRAY_BASE_URL: undefined, AGENT_TRAY_API_KEY: undefined }
  })
  await vitestUntil(() => polls() > before)
  service.control.setTaskStatus(t.id, 'failed')
  await receiver.arrived(1)
  stop.abort()
  const r = await finished
  expect(r.code).toBe(0)
  const body = JSON.parse(receiver.received[0]!.body) as {
    event: string
    task: { id: string; name: string }
    project: { name: string }
  }
  expect(body).toMatchObject({
    event: 'failed',
    task: { id: t.id, name: 'Ship <it>' },
    project: { name: 'Office app' }
  })
  expect(receiver.received).toHaveLength(1)
  const outbox = JSON.parse(fs.readFileSync(path.join(dir, OUTBOX_FILE), 'utf8')) as {
    pending: unknown[]
    delivered: Record<string, string[]>
  }
  expect(outbox.pending).toEqual([])
  expect(outbox.delivered.f1).toHaveLength(1)
  fs.rmSync(dir, { recursive: true, force: true })
}, 60_000)

it('refuses to forward (exit 12, saying why) while another Agent Tray process forwards from the same directory', async () => {
  const { dir } = configured()
  const holder = startForwardingProcess(path.join(dir, OUTBOX_FILE), `${receiver.url}/in`)
  await holder.said('ready=true')
  const polls = service.control.stats().byRoute['GET /projects/{id}/tasks']?.requests ?? 0
  const run = makeRunner({ configDir: dir, deps: { secrets: () => secrets } })
  const r = await run(['watch', '--forward', '--interval-ms', '1000'], {
    env: { AGENT_TRAY_BASE_URL: undefined, AGENT_TRAY_API_KEY: undefined }
  })
  await holder.stop()
  expect(r.code).toBe(EXIT.settingsFiles)
  expect(r.err).toContain(FORWARDING_ELSEWHERE)
  expect(service.control.stats().byRoute['GET /projects/{id}/tasks']?.requests ?? 0).toBe(polls)
  fs.rmSync(dir, { recursive: true, force: true })
}, 60_000)

it("stops (exit 12, saying why) when another process takes the outbox over: the command's lock was lost", async () => {
  const { dir } = configured()
  const polls = () => service.control.stats().byRoute['GET /projects/{id}/tasks']?.requests ?? 0
  const before = polls()
  const run = makeRunner({ configDir: dir, deps: { secrets: () => secrets } })
  const finished = run(['watch', '--forward', '--interval-ms', '1000'], {
    env: { AGENT_TRAY_BASE_URL: undefined, AGENT_TRAY_API_KEY: undefined }
  })
  await vitestUntil(() => polls() > before)
  // Another process's hand on the lock: proper-lockfile sees it at its next refresh and calls it compromised.
  const lockDir = `${path.join(dir, OUTBOX_FILE)}.lock`
  fs.rmSync(lockDir, { recursive: true, force: true })
  const r = await finished
  expect(r.code).toBe(EXIT.settingsFiles)
  expect(r.err).toContain(FORWARDING_ELSEWHERE)
  fs.rmSync(dir, { recursive: true, force: true })
}, 60_000)

/** Waits on a condition the service's counters report (the watch's first poll), checking on each macrotask. */
async function vitestUntil(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((resolve) => setImmediate(resolve))
}
