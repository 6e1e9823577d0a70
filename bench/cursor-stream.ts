// Cursor streaming vs polling: 5 live Cursor runs over one simulated hour of tool calls, followed by their event
// streams (the account's stream path: the client's transport, openRunStream, followRun in a StreamPool) against
// polling the same runs with the board at the active interval (AgentWatch over the Cursor account, DEFAULT_POLLING_PREFS),
// and the board as the app runs it since live-core (the account streaming as well as polled).
// The Cursor fake (reference service, real HTTP, a real SSE stream) runs here on its manual clock and this process
// drives it; the client runs alone in a child (cursor-stream-worker.ts), so its CPU and heap are its own. Requests and
// bytes are the fake's count of what it sent (on the wire: headers, compression and heartbeats included).
import { fork } from 'node:child_process'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { MAX_STREAMS } from '../src/core/providers/cursor/stream'
import { startCursorFake } from '../src/reference-service/cursor/fake'
import type { ServiceStats } from '../src/reference-service/types'
import { DEFAULT_POLLING_PREFS } from '../src/shared/settings'
import { bundledWorker } from './bundle'
import type { FromWorker, StreamWorkerInput, StreamWorkerOutput, ToWorker } from './cursor-stream-worker'
import { type BenchOptions, check, type MeasureResult } from './result'
import { REPO_ROOT } from './service-process'
import { round } from './stats'

const KEY = 'key_cursor_bench_0123456789abcdef'
const START = '2026-03-10T09:00:00.000Z'
const HOUR_MS = 3_600_000
export const LIVE_RUNS = 5
/** Each run makes a tool call this often (simulated), the runs a few seconds apart. */
const TOOL_CALL_EVERY_MS = 20_000
const STAGGER_MS = 4_000
/** The runs finish just before the hour ends, so both ways see them end. */
const FINISH_BEFORE_END_MS = 5_000
/** Real time for the fake's pump (10 ms) to send what the clock made due, before the clock moves on. */
const PACE_MS = 15
const TOOLS = ['read_file', 'edit_file', 'run_terminal_cmd', 'grep_search'] as const

interface Planned {
  at: number
  act: () => void
}

interface HourResult {
  worker: StreamWorkerOutput
  stats: ServiceStats
  toolCalls: number
}

/** One simulated hour, the client in `mode`. */
async function simulateHour(mode: StreamWorkerInput['mode']): Promise<HourResult> {
  const startMs = Date.parse(START)
  const endMs = startMs + HOUR_MS
  const fake = await startCursorFake({ apiKey: KEY, manualClock: true, startTime: START })
  const agents = Array.from(
    { length: LIVE_RUNS },
    (_, i) => fake.control.addTask({ title: `Live run ${i}`, repository: 'myorg/webapp', state: 'RUNNING' }).id
  )
  const plan: Planned[] = []
  agents.forEach((agentId, i) => {
    const runId = fake.control.latestRunId(agentId)
    let n = 0
    for (let at = startMs + (i + 1) * STAGGER_MS; at < endMs - FINISH_BEFORE_END_MS; at += TOOL_CALL_EVERY_MS) {
      const call = ++n
      const name = TOOLS[call % TOOLS.length] as string
      plan.push({
        at,
        act: () =>
          fake.control.addEvent(runId, 'tool_call', {
            callId: `call-${i}-${call}`,
            name,
            status: 'completed',
            args:
              name === 'run_terminal_cmd' ? { command: 'npm test -- --run' } : { path: `src/module-${call % 40}.ts` },
            timestamp: new Date(at).toISOString()
          })
      })
    }
  })
  const toolCalls = plan.length
  const stepsAtHalf = plan.filter((p) => p.at <= startMs + HOUR_MS / 2).length
  for (const agentId of agents)
    plan.push({ at: endMs - FINISH_BEFORE_END_MS, act: () => fake.control.setTaskState(agentId, 'FINISHED') })
  plan.sort((a, b) => a.at - b.at)

  let fakeAt = startMs
  let next = 0
  /** The fake's clock to `to`, each planned event told at its own time. */
  const moveTo = (to: number): void => {
    for (; next < plan.length && (plan[next] as Planned).at <= to; next++) {
      const p = plan[next] as Planned
      fake.control.advance(p.at - fakeAt)
      fakeAt = p.at
      p.act()
    }
    fake.control.advance(to - fakeAt)
    fakeAt = to
  }

  const child = fork(bundledWorker(path.join(REPO_ROOT, 'bench/cursor-stream-worker.ts')), [], {
    cwd: REPO_ROOT,
    execArgv: ['--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc']
  })
  const tell = (m: ToWorker) => child.send(m)
  /** The fake's clock to `to`, each planned event with real time for the pump to send it. */
  const paceTo = async (to: number): Promise<void> => {
    while (next < plan.length && (plan[next] as Planned).at <= to) {
      moveTo((plan[next] as Planned).at)
      await sleep(PACE_MS)
    }
    moveTo(to)
  }
  /** Stream mode: every event at its time, with real time for the fake's pump to send it. */
  const drive = async (): Promise<void> => {
    while (fake.control.openStreams() < LIVE_RUNS) await sleep(5)
    while (next < plan.length) {
      moveTo((plan[next] as Planned).at)
      await sleep(PACE_MS)
    }
  }
  try {
    const worker = await new Promise<StreamWorkerOutput>((resolve, reject) => {
      child.on('message', (m: FromWorker) => {
        if (m.type === 'advance') {
          // The board's streams need real time for the pump to send each event; polling alone does not.
          const moved = mode === 'board' ? paceTo(m.to) : Promise.resolve(moveTo(m.to))
          moved.then(() => tell({ type: 'advanced' }), reject)
        } else if (m.type === 'streaming') drive().catch(reject)
        else if (m.type === 'result') resolve(m.result)
        else reject(new Error(m.error))
      })
      child.once('error', reject)
      child.once('exit', (code, signal) => reject(new Error(`The ${mode} worker exited (${signal ?? code}).`)))
      tell({
        type: 'start',
        input: { mode, baseUrl: fake.baseUrl, key: KEY, startMs, endMs, polling: DEFAULT_POLLING_PREFS, stepsAtHalf }
      })
    })
    await new Promise<void>((resolve) => (child.exitCode === null ? child.once('exit', () => resolve()) : resolve()))
    return { worker, stats: fake.control.stats(), toolCalls }
  } finally {
    if (child.exitCode === null) child.kill()
    await fake.close()
  }
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.POSITIVE_INFINITY)

export async function runCursorStream(options: BenchOptions): Promise<MeasureResult> {
  options.log(
    `cursor-stream: ${LIVE_RUNS} live Cursor runs, a tool call each every ${TOOL_CALL_EVERY_MS / 1000} s for 1 simulated hour: streamed vs polled every ${DEFAULT_POLLING_PREFS.activeIntervalMs / 1000} s`
  )
  const stream = await simulateHour('stream')
  const poll = await simulateHour('poll')
  const board = await simulateHour('board')
  const s = stream.worker
  const p = poll.worker
  const b = board.worker
  // The board's streams work between its polls: its CPU is the whole window's, less the stepping's IPC as the
  // polled hour measured it per poll.
  const steppingPerPoll = (p.cpu_ms_with_stepping - p.cpu_ms) / Math.max(1, p.polls)
  const boardCpu = b.cpu_ms_with_stepping - steppingPerPoll * b.polls
  const cpuRatio = ratio(p.cpu_ms, s.cpu_ms)
  const requestsRatio = ratio(poll.stats.requests, stream.stats.requests)
  const bytesRatio = ratio(poll.stats.wireBytes, stream.stats.wireBytes)
  const missed = stream.toolCalls - s.steps
  const notes = [
    `streamed: ${round(s.cpu_ms)} ms CPU, ${stream.stats.requests} requests, ${round(stream.stats.wireBytes / 1024)} KB; polled: ${round(p.cpu_ms)} ms CPU, ${poll.stats.requests} requests, ${round(poll.stats.wireBytes / 1024)} KB in ${p.polls} polls.`,
    `The board as the app runs it since live-core (${MAX_STREAMS} of the ${LIVE_RUNS} runs streamed, every run still polled at the active interval): ${round(boardCpu)} ms CPU (${round(ratio(boardCpu, p.cpu_ms), 2)}x polling alone), ${board.stats.requests} requests, ${round(board.stats.wireBytes / 1024)} KB.`,
    `Streams: all ${LIVE_RUNS} in one pool (the app's bound is ${MAX_STREAMS} an account: five live runs are two accounts' streams, or three streamed and two polled), after the one poll that finds them; no poll while they run.`
  ]
  if (missed !== 0) notes.push(`The streams told ${s.steps} of ${stream.toolCalls} tool calls.`)
  return {
    figures: {
      stream_cpu_ms: round(s.cpu_ms),
      poll_cpu_ms: round(p.cpu_ms),
      cpu_ratio: round(cpuRatio, 2),
      stream_requests: stream.stats.requests,
      poll_requests: poll.stats.requests,
      requests_ratio: round(requestsRatio, 1),
      stream_kb: round(stream.stats.wireBytes / 1024),
      poll_kb: round(poll.stats.wireBytes / 1024),
      bytes_ratio: round(bytesRatio, 2),
      stream_peak_heap_mb: s.peak_heap_mb,
      poll_peak_heap_mb: p.peak_heap_mb,
      stream_retained_heap_kb: s.retained_heap_kb,
      poll_retained_heap_kb: p.retained_heap_kb,
      stream_max_rss_mb: s.max_rss_mb,
      poll_max_rss_mb: p.max_rss_mb,
      stream_steps_missed: missed,
      board_cpu_ms: round(boardCpu),
      board_requests: board.stats.requests,
      board_kb: round(board.stats.wireBytes / 1024),
      board_vs_poll_cpu: round(ratio(boardCpu, p.cpu_ms), 2),
      board_peak_heap_mb: b.peak_heap_mb,
      board_max_rss_mb: b.max_rss_mb
    },
    checks: [
      check('cpu_ratio', cpuRatio, '>=', 2),
      check('requests_ratio', requestsRatio, '>=', 100),
      check('bytes_ratio', bytesRatio, '>=', 2),
      check('stream_steps_missed', missed, '<=', 0)
    ],
    details: {
      fixture: {
        live_runs: LIVE_RUNS,
        tool_call_every_s: TOOL_CALL_EVERY_MS / 1000,
        tool_calls: stream.toolCalls,
        active_interval_ms: DEFAULT_POLLING_PREFS.activeIntervalMs
      },
      how_cpu_is_measured:
        "process.cpuUsage() of the client's own process (the fake and the driver run in the bench's): stream mode over the whole window, poll mode summed over each poll (moving the clock to the poll's end), leaving out the IPC that steps the fake's clock; board mode (streams working between polls) the whole window less that IPC's CPU per poll as the polled hour measured it; a full GC's CPU (the heap read at the half hour) left out of both",
      stream: { ...s, requests_by_route: stream.stats.byRoute },
      poll: { ...p, requests_by_route: poll.stats.byRoute },
      board: { ...b, stepping_cpu_ms_per_poll: round(steppingPerPoll, 3), requests_by_route: board.stats.byRoute }
    },
    notes
  }
}
