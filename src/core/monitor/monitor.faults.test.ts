// The monitor against each fault of the reference service (the ones monitor.service.test.ts does
// not already cover: error and rate_limit are there): the project's health says what went wrong,
// what was known is kept, and the next poll after the fault recovers. Real HTTP, short timeouts.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type FaultRule, type ReferenceService, startReferenceService } from '../../reference-service/index'
import type { MonitorEvent, ServiceErrorKind } from '../../shared/monitor'
import type { PollingPrefs } from '../../shared/settings'
import { createServiceClient, type ServiceClient } from '../client/index'
import { ManualClock } from '../util/clock'
import { Monitor } from './monitor'

const KEY = 'monitor-faults-key'
const polling: PollingPrefs = { activeIntervalMs: 5_000, idleIntervalMs: 60_000, maxConcurrency: 4 }

let service: ReferenceService
let client: ServiceClient
const monitors: Monitor[] = []

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 5, manualClock: true })
  // No retries: one poll meets the fault once. Short timeouts keep latency and slow bodies fast.
  client = createServiceClient({
    baseUrl: service.url,
    apiKey: KEY,
    retry: { retries: 0 },
    timeouts: { headersMs: 300, bodyMs: 300 }
  })
})
afterAll(async () => {
  await client.close()
  await service.close()
})
afterEach(() => {
  service.control.clearFaults()
  for (const m of monitors.splice(0)) m.dispose()
})

type Health = Extract<MonitorEvent, { kind: 'project-health' }>['health']

async function watched(name: string) {
  const project = service.control.createProject({ name })
  service.control.addTask(project.id, { name: 'Running', status: 'in_progress', script: 'run-forever' })
  service.control.addTask(project.id, { name: 'Done', status: 'completed' })
  const monitor = new Monitor({
    connectionId: 'conn',
    clock: new ManualClock(),
    random: () => 0.5,
    polling,
    source: client,
    projects: [project.id]
  })
  monitors.push(monitor)
  const health: Health[] = []
  monitor.on('event', (e) => {
    if (e.kind === 'project-health') health.push(e.health)
  })
  await monitor.pollNow()
  expect(monitor.getHealth(project.id).state).toBe('ok')
  return { projectId: project.id, monitor, health }
}

const faults: { name: string; rule: FaultRule; kind: ServiceErrorKind }[] = [
  { name: 'latency beyond the headers timeout', rule: { kind: 'latency', ms: 1_000 }, kind: 'timeout' },
  { name: 'a malformed body', rule: { kind: 'malformed' }, kind: 'invalid_response' },
  { name: 'a truncated body', rule: { kind: 'truncated' }, kind: 'network' },
  { name: 'a dropped connection', rule: { kind: 'drop' }, kind: 'network' },
  {
    name: 'a body slower than the body timeout',
    rule: { kind: 'slow', chunkBytes: 8, intervalMs: 50 },
    kind: 'timeout'
  }
]

describe('monitor under each fault of the service', () => {
  for (const { name, rule, kind } of faults) {
    it(`${name}: health error (${kind}) keeping what was known, then ok once the fault is gone`, async () => {
      const { projectId, monitor, health } = await watched(name)
      const known = monitor.getSummary(projectId)
      expect(known).toMatchObject({ running: 1, total: 2 })
      // A different list than the one the monitor holds, so no 304 can hide the fault.
      service.control.addTask(projectId, { name: 'New', status: 'todo' })
      service.control.setFaults({ rules: [{ ...rule, pathPrefix: `/projects/${projectId}/tasks` }] })
      await monitor.pollNow()
      const failed = monitor.getHealth(projectId)
      expect(failed.state === 'error' && failed.error.kind).toBe(kind)
      expect(monitor.getSummary(projectId)).toEqual(known)

      service.control.clearFaults()
      await monitor.pollNow()
      expect(monitor.getHealth(projectId).state).toBe('ok')
      expect(monitor.getSummary(projectId)?.total).toBe(3)
      expect(health.map((h) => h.state).slice(-2)).toEqual(['error', 'ok'])
    })
  }

  it('latency within the timeouts: only slower, never an error', async () => {
    const { projectId, monitor, health } = await watched('Latency within')
    service.control.addTask(projectId, { name: 'New', status: 'todo' })
    service.control.setFaults({ rules: [{ kind: 'latency', ms: 100, pathPrefix: `/projects/${projectId}/tasks` }] })
    const t0 = performance.now()
    await monitor.pollNow()
    expect(performance.now() - t0).toBeGreaterThanOrEqual(90)
    expect(monitor.getHealth(projectId).state).toBe('ok')
    expect(monitor.getSummary(projectId)?.total).toBe(3)
    expect(health.every((h) => h.state === 'ok')).toBe(true)
  })
})
