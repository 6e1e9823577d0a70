// 2. Notification latency, in real time: the reference service changes a running task's status at
// a random moment, and we time how long the monitor (real clock, short active interval) takes to
// report it as an event, and to close the round that notifications are raised from.
import { createServiceClient } from '../src/core/client/index'
import { Monitor } from '../src/core/monitor/index'
import { startReferenceService } from '../src/reference-service/index'
import type { TaskStatus } from '../src/shared/service'
import type { PollingPrefs } from '../src/shared/settings'
import { seededRandom } from './random'
import { type BenchOptions, check, type MeasureResult } from './result'
import { percentile, round } from './stats'

const API_KEY = 'bench-latency-key'
const ENDINGS: readonly TaskStatus[] = ['completed', 'failed', 'cancelled']

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

interface Pending {
  startedAt: number
  /** ms from the change to the event. */
  event?: number
  done: () => void
}

export async function runLatency(options: BenchOptions): Promise<MeasureResult> {
  const samplesWanted = options.quick ? 12 : 40
  const projectCount = options.quick ? 3 : 5
  const polling: PollingPrefs = { activeIntervalMs: 1000, idleIntervalMs: 60_000, maxConcurrency: 4 }
  const random = seededRandom(2024)

  const service = await startReferenceService({ apiKey: API_KEY, port: 0, seed: 3 })
  const client = createServiceClient({ baseUrl: service.url, apiKey: API_KEY })
  const running = new Map<string, string>()
  for (let i = 0; i < projectCount; i++) {
    const project = service.control.createProject({ name: `Latency ${i + 1}` })
    running.set(
      project.id,
      service.control.addTask(project.id, { name: 'Long job', status: 'in_progress', script: 'run-forever' }).id
    )
  }
  const monitor = new Monitor({ connectionId: 'bench', source: client, projects: [...running.keys()], polling })
  const pending = new Map<string, Pending>()
  const eventMs: number[] = []
  const cycleMs: number[] = []
  monitor.on('event', (e) => {
    const p = e.kind === 'task-status' ? pending.get(e.taskId) : undefined
    if (p && p.event === undefined) p.event = performance.now() - p.startedAt
  })
  monitor.on('cycle', (c) => {
    for (const e of c.events) {
      const p = e.kind === 'task-status' ? pending.get(e.taskId) : undefined
      if (!p || p.event === undefined) continue
      eventMs.push(p.event)
      cycleMs.push(performance.now() - p.startedAt)
      pending.delete(e.kind === 'task-status' ? e.taskId : '')
      p.done()
    }
  })
  monitor.start()
  await monitor.pollNow()
  options.log(
    `latency: ${projectCount} running projects, active interval ${polling.activeIntervalMs} ms, ${samplesWanted} samples`
  )

  let taken = 0
  const loop = async (projectId: string): Promise<void> => {
    while (taken < samplesWanted) {
      taken++
      // A random moment within the poll interval.
      await sleep(random() * polling.activeIntervalMs)
      const taskId = running.get(projectId) as string
      // The project keeps a running task, so it stays on the active interval.
      running.set(
        projectId,
        service.control.addTask(projectId, { name: 'Next job', status: 'in_progress', script: 'run-forever' }).id
      )
      service.control.setTaskStatus(taskId, ENDINGS[taken % ENDINGS.length] as TaskStatus)
      const startedAt = performance.now()
      const seen = new Promise<void>((resolve) => pending.set(taskId, { startedAt, done: resolve }))
      let timer: ReturnType<typeof setTimeout> | undefined
      const timeout = new Promise<'timeout'>(
        (resolve) => (timer = setTimeout(() => resolve('timeout'), polling.idleIntervalMs))
      )
      const outcome = await Promise.race([seen, timeout])
      clearTimeout(timer)
      if (outcome === 'timeout')
        throw new Error(`latency: the change of task ${taskId} was never reported within a minute.`)
    }
  }
  await Promise.all([...running.keys()].map((id) => loop(id)))
  monitor.dispose()
  await client.close()
  await service.close()

  const p50 = percentile(eventMs, 50)
  const p95 = percentile(eventMs, 95)
  const interval = polling.activeIntervalMs
  return {
    figures: { p50_ms: round(p50), p95_ms: round(p95), active_interval_ms: interval },
    checks: [check('p95_ms', p95, '<=', interval + 100)],
    details: {
      samples: eventMs.length,
      p50_share_of_interval: round(p50 / interval, 2),
      p95_share_of_interval: round(p95 / interval, 2),
      max_ms: round(Math.max(...eventMs)),
      round_closed: { p50_ms: round(percentile(cycleMs, 50)), p95_ms: round(percentile(cycleMs, 95)) },
      projects: projectCount,
      jitter: '±10% of the interval (the monitor default)'
    },
    notes: []
  }
}
