// The idle measure's child: a monitor on the real clock watching projects where nothing happens.
// After its first (baseline) round, its CPU time over one more idle interval (+10% for jitter),
// a window in which every project is polled exactly once: the steady state of an idle day.
import { createServiceClient } from '../src/core/client/index'
import { Monitor } from '../src/core/monitor/index'
import type { PollingPrefs } from '../src/shared/settings'
import { serveWorker } from './worker-serve'

export interface IdleInput {
  url: string
  apiKey: string
  projectIds: string[]
  polling: PollingPrefs
}

export interface IdleOutput {
  cpu_ms: number
  wall_ms: number
  requests: number
  response_bytes: number
  first_round_cpu_ms: number
  first_round_ms: number
  rss_mb: number
}

serveWorker<IdleInput, IdleOutput>(async (input) => {
  let requests = 0
  let bytes = 0
  const client = createServiceClient({
    baseUrl: input.url,
    apiKey: input.apiKey,
    onResponse: (r) => {
      requests += 1
      bytes += r.bytes
    }
  })
  const monitor = new Monitor({
    connectionId: 'bench',
    source: client,
    projects: input.projectIds,
    polling: input.polling
  })
  const firstCpu = process.cpuUsage()
  const firstBegan = performance.now()
  monitor.start()
  await monitor.idle()
  const first = process.cpuUsage(firstCpu)
  const firstMs = performance.now() - firstBegan

  requests = 0
  bytes = 0
  const cpu = process.cpuUsage()
  const began = performance.now()
  // The jitter is ±10%: by then every project has had its second poll, and none a third.
  await new Promise((resolve) => setTimeout(resolve, input.polling.idleIntervalMs * 1.1))
  await monitor.idle()
  const used = process.cpuUsage(cpu)
  const wall = performance.now() - began
  const rss = process.memoryUsage().rss
  monitor.dispose()
  await client.close()
  return {
    cpu_ms: (used.user + used.system) / 1000,
    wall_ms: wall,
    requests,
    response_bytes: bytes,
    first_round_cpu_ms: (first.user + first.system) / 1000,
    first_round_ms: firstMs,
    rss_mb: Math.round((rss / 1024 / 1024) * 10) / 10
  }
})
