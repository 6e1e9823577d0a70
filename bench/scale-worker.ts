// The scale measure's child: a monitor with the default polling prefs watching one size of the
// fixture. It first warms up on a project outside the measured set (so the figures are the work
// per project, not the JIT's one-off start), then times one cold full cycle (no list known yet:
// every list downloaded, parsed and baselined), then steady full cycles, each after the service's
// clock moved on so that the projects with a running task changed and the rest did not, and last
// the physical floor on the same lists (each fetched again as the client asks for it, and only
// decompressed, decoded and JSON.parsed). The
// floor comes last because the memory its parsing takes stays in the process (V8 keeps the heap
// it grew to): run before the steady cycles, it was counted in their RSS as the monitor's.
import { readFileSync } from 'node:fs'
import { getHeapStatistics, setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import zlib from 'node:zlib'
import { Pool } from 'undici'
import { ACCEPT_ENCODING } from '../src/core/client/http'
import { createServiceClient, type ServiceClient } from '../src/core/client/index'
import { Monitor } from '../src/core/monitor/index'
import { DEFAULT_POLLING_PREFS } from '../src/shared/settings'
import { controlClient } from './service-process'
import { serveWorker } from './worker-serve'

export interface ScaleInput {
  url: string
  apiKey: string
  projectIds: string[]
  /** Projects of the same shape outside `projectIds`, polled before anything is measured. */
  warmupProjectIds: string[]
  steadyCycles: number
  /** How far the service's (manual) clock moves before each steady cycle. */
  advanceMs: number
  /** The service's process, to charge it its own CPU time per cycle (Linux only). */
  servicePid?: number
}

export interface CycleFigures {
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
}

export interface ScaleOutput {
  cold: CycleFigures
  steady: CycleFigures[]
  /** CPU time of decompressing, decoding (UTF-8) and JSON.parse of the lists' bodies, and their size as decoded. */
  parse_floor_ms: number
  parse_floor_bytes: number
  /** RSS and heap (after a full collection) once warmed up, before the cold cycle. */
  baseline_rss_mb: number
  baseline_heap_mb: number
  /** Peak RSS over the cold and steady cycles (sampled), and the kernel's high-water mark by their end. */
  peak_rss_mb: number
  max_rss_mb: number
  /** Heap after a full collection once the cold cycle is over: what the monitor keeps. */
  heap_after_cold_mb: number
  heap_used_mb: number
  heap_after_gc_mb: number
  heap_limit_mb: number
  summaries_held: number
}

const MB = 1024 * 1024
const mb = (bytes: number): number => Math.round((bytes / MB) * 100) / 100

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

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since)
  return (used.user + used.system) / 1000
}

/** One-shot decoders of the codings the client offers (the client runs the same work off-thread: CPU either way). */
const INFLATE: Record<string, (b: Buffer) => Buffer> = {
  gzip: zlib.gunzipSync,
  'x-gzip': zlib.gunzipSync,
  br: zlib.brotliDecompressSync,
  zstd: (b) => (zlib as unknown as { zstdDecompressSync: (b: Buffer) => Buffer }).zstdDecompressSync(b)
}

/**
 * The floor: every list body fetched again with the client's Accept-Encoding, so the same bytes
 * it got, and only decompressed, decoded and parsed (the cold cycle's lists; the 1 % with a
 * running task have moved on since). Only that synchronous part is timed, four fetches in
 * flight as the monitor has.
 */
async function parseFloor(input: ScaleInput): Promise<{ ms: number; bytes: number }> {
  const pool = new Pool(new URL(input.url).origin, { connections: 4 })
  let ms = 0
  let bytes = 0
  let next = 0
  const one = async (): Promise<void> => {
    while (next < input.projectIds.length) {
      const id = input.projectIds[next++] as string
      const res = await pool.request({
        path: `/projects/${encodeURIComponent(id)}/tasks`,
        method: 'GET',
        headers: { 'x-api-key': input.apiKey, 'accept-encoding': ACCEPT_ENCODING }
      })
      const wire = Buffer.from(await res.body.arrayBuffer())
      if (res.statusCode !== 200) throw new Error(`The floor's fetch of ${id} got HTTP ${res.statusCode}.`)
      const coding = String(res.headers['content-encoding'] ?? '')
      const inflate = coding === '' ? (b: Buffer) => b : INFLATE[coding]
      if (!inflate) throw new Error(`The floor's fetch of ${id} came as ${coding}, which the client does not offer.`)
      const began = process.cpuUsage()
      const body = inflate(wire)
      JSON.parse(body.toString('utf8'))
      ms += cpuMs(began)
      bytes += body.length
    }
  }
  await Promise.all([one(), one(), one(), one()])
  await pool.close()
  return { ms, bytes }
}

serveWorker<ScaleInput, ScaleOutput>(async (input) => {
  const gc = collector()
  const control = controlClient(input.url, input.apiKey)
  let bytes = 0
  let requests = 0
  let notModified = 0
  let lists = 0
  let details = 0
  const client: ServiceClient = createServiceClient({
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

  // Warm-up: the same code paths, cold and steady, on projects that are not measured, by monitors
  // thrown away.
  for (let i = 0; i < 2; i++) {
    const warm = new Monitor({
      connectionId: 'warm-up',
      source: client,
      projects: input.warmupProjectIds,
      polling: DEFAULT_POLLING_PREFS
    })
    await warm.pollNow()
    await warm.pollNow()
    warm.dispose()
  }
  gc()
  const baselineRss = process.memoryUsage().rss
  const baselineHeap = process.memoryUsage().heapUsed
  let peak = baselineRss
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 20)

  const monitor = new Monitor({
    connectionId: 'bench',
    source: client,
    projects: input.projectIds,
    polling: DEFAULT_POLLING_PREFS
  })
  const cycle = async (): Promise<CycleFigures> => {
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
    const wall = performance.now() - began
    const used = cpuMs(cpu)
    const serviceAfter = processCpuMs(input.servicePid)
    return {
      wall_ms: wall,
      cpu_ms: used,
      service_cpu_ms: serviceCpu === null || serviceAfter === null ? null : serviceAfter - serviceCpu,
      lists,
      details,
      bytes,
      requests,
      not_modified: notModified
    }
  }

  const cold = await cycle()
  clearInterval(sampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  gc()
  const heapAfterCold = process.memoryUsage().heapUsed

  const steadySampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 20)
  const steady: CycleFigures[] = []
  for (let i = 0; i < input.steadyCycles; i++) {
    await control.advance(input.advanceMs)
    steady.push(await cycle())
  }
  clearInterval(steadySampler)
  peak = Math.max(peak, process.memoryUsage().rss)
  // The kernel's high-water mark, read before the floor's own parsing could raise it.
  const maxRss = process.resourceUsage().maxRSS * 1024

  let summaries = 0
  for (const id of input.projectIds) if (monitor.getSummary(id)) summaries += 1
  const heapUsed = process.memoryUsage().heapUsed
  gc()
  const heapAfterGc = process.memoryUsage().heapUsed

  // Last: not charged to the monitor's memory (see the top).
  const floor = await parseFloor(input)
  monitor.dispose()
  await client.close()
  return {
    cold,
    steady,
    parse_floor_ms: floor.ms,
    parse_floor_bytes: floor.bytes,
    baseline_rss_mb: mb(baselineRss),
    baseline_heap_mb: mb(baselineHeap),
    peak_rss_mb: mb(peak),
    max_rss_mb: mb(maxRss),
    heap_after_cold_mb: mb(heapAfterCold),
    heap_used_mb: mb(heapUsed),
    heap_after_gc_mb: mb(heapAfterGc),
    heap_limit_mb: mb(getHeapStatistics().heap_size_limit),
    summaries_held: summaries
  }
})
