// The command against each fault of the reference service that commands.test.ts does not already
// cover (malformed and error are there): the exit code of the documented class, one line on
// stderr, or success where the fault only slows things down. Real HTTP; only sleeping is skipped.
import fs from 'node:fs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient } from '../core/client'
import { type FaultRule, type ReferenceService, startReferenceService } from '../reference-service'
import type { ClientOptions } from './deps'
import { EXIT } from './exit-codes'
import { makeRunner, type RunResult, tempDir } from './test-harness'

const KEY = 'test-key-CLI-faults-5be7'
let service: ReferenceService
let configDir: string
let run: ReturnType<typeof makeRunner>
let projectId: string
let taskId: string
const waits: number[] = []

/** The real client with retries whose waits are noted, not slept, and short timeouts. */
const retryingClient = (options: ClientOptions) =>
  createServiceClient({
    ...options,
    retry: { retries: 2 },
    timeouts: { headersMs: 300, bodyMs: 300 },
    sleep: async (ms) => {
      waits.push(ms)
    }
  })

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 9, manualClock: true })
  configDir = tempDir()
  run = makeRunner({
    service,
    configDir,
    env: { AGENT_TRAY_BASE_URL: service.url, AGENT_TRAY_API_KEY: KEY },
    deps: { createClient: retryingClient }
  })
  const p = service.control.createProject({ name: 'Faulty' })
  projectId = p.id
  taskId = service.control.addTask(p.id, { name: 'Done', status: 'completed' }).id
})
afterEach(() => {
  service.control.clearFaults()
  waits.length = 0
})
afterAll(async () => {
  await service.close()
  fs.rmSync(configDir, { recursive: true, force: true })
})

const fault = (rule: FaultRule) => service.control.setFaults({ rules: [rule] })

function failedWith(r: RunResult, code: number): string {
  expect(r.code).toBe(code)
  expect(r.out).toBe('')
  const lines = r.err.split('\n').filter((l) => l !== '')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(/^agent-tray: /)
  return lines[0]!
}

describe('the command under each fault of the service', () => {
  it('latency within the timeouts: the answer, only later', async () => {
    fault({ kind: 'latency', ms: 150 })
    const t0 = performance.now()
    const r = await run(['tasks', projectId])
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140)
    expect(r.code).toBe(EXIT.ok)
    expect(r.out).toContain(taskId)
  })

  it('latency beyond the headers timeout: network or timeout (5)', async () => {
    fault({ kind: 'latency', ms: 1_000, times: 1 })
    // A read is retried after a timeout: the retry finds the fault gone.
    expect((await run(['tasks', projectId])).code).toBe(EXIT.ok)
    fault({ kind: 'latency', ms: 1_000 })
    const once = {
      createClient: (o: ClientOptions) =>
        createServiceClient({ ...o, retry: { retries: 0 }, timeouts: { headersMs: 300 } })
    }
    expect(failedWith(await run(['tasks', projectId], { deps: once }), EXIT.network)).toMatch(/did not answer/)
  })

  it('rate_limit: a short one is waited out (Retry-After honoured); one that lasts is busy (9) after the retries', async () => {
    fault({ kind: 'rate_limit', retryAfterSeconds: 2, times: 1 })
    const ok = await run(['tasks', projectId])
    expect(ok.code).toBe(EXIT.ok)
    expect(ok.out).toContain(taskId)
    expect(waits).toHaveLength(1)
    expect(waits[0]).toBeGreaterThanOrEqual(2_000)

    waits.length = 0
    fault({ kind: 'rate_limit', retryAfterSeconds: 1 })
    failedWith(await run(['tasks', projectId]), EXIT.service)
    expect(waits).toHaveLength(2)
  })

  it('a truncated body: network (5)', async () => {
    fault({ kind: 'truncated' })
    failedWith(await run(['tasks', projectId]), EXIT.network)
  })

  it('a dropped connection: network (5); a single drop is retried away', async () => {
    fault({ kind: 'drop' })
    failedWith(await run(['steps', taskId]), EXIT.network)
    fault({ kind: 'drop', times: 1 })
    const r = await run(['steps', taskId])
    expect(r.code).toBe(EXIT.ok)
    expect(r.err).toBe('')
  })

  it('a body slower than the body timeout: network or timeout (5)', async () => {
    fault({ kind: 'slow', chunkBytes: 8, intervalMs: 50 })
    failedWith(await run(['project', 'get', projectId]), EXIT.network)
  })

  it('a slow body within the timeout still arrives whole', async () => {
    fault({ kind: 'slow', chunkBytes: 4_096, intervalMs: 10 })
    const r = await run(['project', 'get', projectId, '--json'])
    expect(r.code).toBe(EXIT.ok)
    expect(JSON.parse(r.out)).toMatchObject({ id: projectId, name: 'Faulty' })
  })
})
