// The cursor-stream measure's client side, alone in its process (cursor-stream.ts holds the fake and drives its
// clock), so that process.cpuUsage() and the heap here are the client's only.
// - stream: the runs followed through the account's stream path (the Cursor client's transport, openRunStream,
//   followRun in a StreamPool), after the one poll that finds them; the parent moves the fake's clock event by event
//   and this process only reads. CPU: the whole window, from opening the streams to the last `done`.
// - poll: the board (AgentWatch over the Cursor account, as the app polls it) on a ManualClock. Before each poll this
//   process asks the parent over IPC to move the fake to the poll's time; CPU is summed over the polls only (from
//   moving the clock to the poll's end), so the stepping's IPC is left out.
import v8 from 'node:v8'
import type { LiveNews } from '../src/core/providers/account'
import { AgentWatch } from '../src/core/providers/board'
import { createCursorClient } from '../src/core/providers/cursor/client'
import { followRun, openRunStream, type RunKey, StreamPool } from '../src/core/providers/cursor/stream'
import { openAgentAccount } from '../src/core/providers/registry'
import { ManualClock } from '../src/core/util/clock'
import { createLimiter } from '../src/core/util/limiter'
import type { PollingPrefs } from '../src/shared/settings'
import { seededRandom } from './random'

export interface StreamWorkerInput {
  /** board: the board as the app opens it since live-core, its account streaming (onLive to takeLive) and polled. */
  mode: 'stream' | 'poll' | 'board'
  baseUrl: string
  key: string
  startMs: number
  endMs: number
  polling: PollingPrefs
  /** Stream mode: the tool calls told by the half hour, when the heap is read after a full GC. */
  stepsAtHalf: number
}

export interface StreamWorkerOutput {
  cpu_ms: number
  /** Poll mode: the whole window with the stepping's IPC, for comparison. */
  cpu_ms_with_stepping: number
  wall_ms: number
  peak_heap_mb: number
  /** Heap after a full GC at the half hour, over the heap after one before the client started. */
  retained_heap_kb: number
  max_rss_mb: number
  polls: number
  updates: number
  steps: number
  ends: string[]
}

/** Messages between the parent and this process. */
export type ToWorker = { type: 'start'; input: StreamWorkerInput } | { type: 'advanced' }
export type FromWorker =
  | { type: 'advance'; to: number }
  | { type: 'streaming' }
  | { type: 'result'; result: StreamWorkerOutput }
  | { type: 'error'; error: string }

const gc = (globalThis as { gc?: () => void }).gc
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10
const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000
const send = (m: FromWorker): void => void process.send?.(m)

let peakHeap = 0
const sampleHeap = (): void => {
  peakHeap = Math.max(peakHeap, v8.getHeapStatistics().used_heap_size)
}
/** A full GC's heap, and the CPU the GC took (taken back out of the window it fell in). */
function settledHeap(): { heap: number; cpuMs: number } {
  const before = process.cpuUsage()
  gc?.()
  const heap = v8.getHeapStatistics().used_heap_size
  return { heap, cpuMs: cpuMs(process.cpuUsage(before)) }
}

let advanced: (() => void) | null = null
/** The parent has moved the fake's clock to `to`. */
function fakeAt(to: number): Promise<void> {
  return new Promise((resolve) => {
    advanced = resolve
    send({ type: 'advance', to })
  })
}

async function streamMode(input: StreamWorkerInput): Promise<StreamWorkerOutput> {
  const client = createCursorClient({ apiKey: input.key, account: 'bench', baseUrl: input.baseUrl })
  const tasks = await client.poll()
  const runs: RunKey[] = tasks.map((t) => ({ agentId: t.id, runId: client.latestRuns().get(t.id)?.id ?? '' }))
  const base = settledHeap().heap
  let updates = 0
  let steps = 0
  let retained = 0
  let gcMs = 0
  const ends: string[] = []
  let allEnded: () => void = () => undefined
  const ended = new Promise<void>((resolve) => (allEnded = resolve))
  const pool = new StreamPool({
    max: runs.length,
    start: (run) =>
      followRun({
        open: openRunStream(client.transport, run.agentId, run.runId),
        onUpdate(u) {
          updates++
          if (u.kind === 'step') {
            steps++
            // The half hour by the events' count: the heap the open streams hold, after a full GC.
            if (steps === input.stepsAtHalf) {
              const s = settledHeap()
              retained = s.heap - base
              gcMs += s.cpuMs
            }
          }
          sampleHeap()
        }
      }),
    onEnd: (_run, end) => {
      ends.push(end.how)
      if (ends.length === runs.length) allEnded()
    }
  })
  const cpu = process.cpuUsage()
  const began = performance.now()
  pool.want(runs)
  send({ type: 'streaming' })
  await ended
  const used = cpuMs(process.cpuUsage(cpu)) - gcMs
  const wall = performance.now() - began
  pool.close()
  await client.close()
  return {
    cpu_ms: used,
    cpu_ms_with_stepping: used,
    wall_ms: wall,
    peak_heap_mb: mb(peakHeap),
    retained_heap_kb: Math.round(retained / 1024),
    max_rss_mb: mb(process.resourceUsage().maxRSS * 1024),
    polls: 1,
    updates,
    steps,
    ends
  }
}

async function boardMode(input: StreamWorkerInput): Promise<StreamWorkerOutput> {
  const clock = new ManualClock(input.startMs)
  let polls = 0
  let updates = 0
  let relay: (news: LiveNews) => void = () => undefined
  let polled: () => void = () => undefined
  const watch = new AgentWatch({
    connectionId: 'bench',
    account: openAgentAccount('cursor', {
      key: input.key,
      account: 'bench',
      baseUrl: input.baseUrl,
      now: () => clock.now(),
      ...(input.mode === 'board' ? { onLive: (news: LiveNews) => relay(news) } : {})
    }),
    polling: input.polling,
    clock,
    random: seededRandom(37),
    limiter: createLimiter(input.polling.maxConcurrency),
    memory: null,
    save: async () => undefined,
    muted: () => false,
    onRound: () => undefined,
    onChange: () => {
      polls++
      sampleHeap()
      polled()
    },
    onError: (context, error) => {
      throw new Error(`${context}: ${String(error)}`)
    }
  })
  relay = (news) => {
    updates++
    sampleHeap()
    watch.takeLive(news)
  }
  const nextPoll = () => new Promise<void>((resolve) => (polled = resolve))
  const base = settledHeap().heap
  let retained: number | null = null
  let work = 0
  const whole = process.cpuUsage()
  const began = performance.now()
  let gcMs = 0
  const half = input.startMs + (input.endMs - input.startMs) / 2
  let first = nextPoll()
  let cpu = process.cpuUsage()
  watch.start()
  await first
  work += cpuMs(process.cpuUsage(cpu))
  for (let at = clock.nextAt(); at !== null && at <= input.endMs; at = clock.nextAt()) {
    await fakeAt(at)
    cpu = process.cpuUsage()
    first = nextPoll()
    await clock.advance(at - clock.now())
    await first
    work += cpuMs(process.cpuUsage(cpu))
    if (retained === null && clock.now() >= half) {
      const s = settledHeap()
      retained = s.heap - base
      gcMs += s.cpuMs
    }
  }
  const withStepping = cpuMs(process.cpuUsage(whole)) - gcMs
  const wall = performance.now() - began
  await watch.close()
  return {
    cpu_ms: work,
    cpu_ms_with_stepping: withStepping,
    wall_ms: wall,
    peak_heap_mb: mb(peakHeap),
    retained_heap_kb: Math.round((retained ?? Number.NaN) / 1024),
    max_rss_mb: mb(process.resourceUsage().maxRSS * 1024),
    polls,
    updates,
    steps: 0,
    ends: []
  }
}

process.on('message', (m: ToWorker) => {
  if (m.type === 'advanced') {
    const resolve = advanced
    advanced = null
    resolve?.()
    return
  }
  const job = m.input.mode === 'stream' ? streamMode(m.input) : boardMode(m.input)
  job.then(
    (result) => process.send?.({ type: 'result', result } satisfies FromWorker, () => process.exit(0)),
    (error: unknown) =>
      process.send?.(
        {
          type: 'error',
          error: error instanceof Error ? (error.stack ?? error.message) : String(error)
        } satisfies FromWorker,
        () => process.exit(1)
      )
  )
})
