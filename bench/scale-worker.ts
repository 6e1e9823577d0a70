// The scale measure's child: a monitor with the default polling prefs watching every project of
// the fixture, timing full poll cycles and sampling its own memory. The first cycle is cold (no
// list known yet: every list is downloaded, parsed and baselined); the later ones are steady
// (conditional requests: lists unchanged since the last cycle come back 304 and are skipped).
import { readFileSync } from 'node:fs'
import { getHeapStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { createServiceClient } from '../src/core/client/index'
import { Monitor } from '../src/core/monitor/index'
import { DEFAULT_POLLING_PREFS } from '../src/shared/settings'
import { serveWorker } from './worker-process'

export interface ScaleInput {
  url: string
  apiKey: string
  projectIds: string[]
  cycles: number
  /** The service's process, to charge it its own CPU time per cycle (Linux only). */
  servicePid?: number
}

export interface ScaleOutput {
  cycles: {
    kind: 'cold' | 'steady'
    wall_ms: number
    cpu_ms: number
    /** CPU time of the service process over the cycle; null where /proc cannot tell. */
    service_cpu_ms: number | null
    /** Lists that came in full (changed), and steps-and-usages fetched. */
    lists: number
    details: number
    bytes: number
    requests: number
    not_modified: number
  }[]
  baseline_rss_mb: number
  peak_rss_mb: number
  max_rss_mb: number
  /** Heap in use right after the last cycle, and after a forced full collection (what is retained). */
  heap_used_mb: number
  heap_after_gc_mb: number
  heap_limit_mb: number
  tasks_held: number
  steps_held: number
  summaries_held: number
}

const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10

/** utime + stime of a process from /proc (in USER_HZ ticks, 100 a second on Linux); null elsewhere. */
function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    const ticks = Number(fields[11]) + Number(fields[12])
    return Number.isFinite(ticks) ? ticks * 10 : null
  } catch {
    return null
  }
}

/** A full collection on demand without a command-line flag (the worker runs at default heap settings). */
function collector(): () => void {
  setFlagsFromString('--expose-gc')
  return runInNewContext('gc') as () => void
}

serveWorker<ScaleInput, ScaleOutput>(async (input) => {
  const baseline = process.memoryUsage().rss
  let peak = baseline
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 20)
  let bytes = 0
  let requests = 0
  let notModified = 0
  let lists = 0
  let details = 0
  const client = createServiceClient({
    baseUrl: input.url,
    apiKey: input.apiKey,
    onResponse: (r) => {
      bytes += r.bytes
      requests += 1
      if (r.status === 304) notModified += 1
      else if (r.status === 200 && r.path.endsWith('/tasks')) lists += 1
      else if (r.status === 200 && r.path.endsWith('/steps-and-usages')) details += 1
    }
  })
  const monitor = new Monitor({ connectionId: 'bench', source: client, projects: input.projectIds, polling: DEFAULT_POLLING_PREFS })
  const cycles: ScaleOutput['cycles'] = []
  for (let i = 0; i < input.cycles; i++) {
    bytes = 0
    requests = 0
    notModified = 0
    lists = 0
    details = 0
    const serviceCpu = processCpuMs(input.servicePid)
    const cpu = process.cpuUsage()
    const began = performance.now()
    // Paused, so only the forced full cycle runs: every project, at the default concurrency.
    await monitor.pollNow()
    const used = process.cpuUsage(cpu)
    cycles.push({
      kind: i === 0 ? 'cold' : 'steady',
      wall_ms: performance.now() - began,
      cpu_ms: (used.user + used.system) / 1000,
      service_cpu_ms: serviceCpu === null ? null : (processCpuMs(input.servicePid) ?? serviceCpu) - serviceCpu,
      lists,
      details,
      bytes,
      requests,
      not_modified: notModified
    })
  }
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  let tasks = 0
  let steps = 0
  let summaries = 0
  for (const id of input.projectIds) {
    if (monitor.getSummary(id)) summaries += 1
    for (const t of monitor.getTasks(id) ?? []) {
      tasks += 1
      steps += t.steps.length
    }
  }
  const heapUsed = process.memoryUsage().heapUsed
  collector()()
  const heapAfterGc = process.memoryUsage().heapUsed
  monitor.dispose()
  await client.close()
  return {
    cycles,
    baseline_rss_mb: mb(baseline),
    peak_rss_mb: mb(peak),
    max_rss_mb: mb(process.resourceUsage().maxRSS * 1024),
    heap_used_mb: mb(heapUsed),
    heap_after_gc_mb: mb(heapAfterGc),
    heap_limit_mb: mb(getHeapStatistics().heap_size_limit),
    tasks_held: tasks,
    steps_held: steps,
    summaries_held: summaries
  }
})
