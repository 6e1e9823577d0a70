// A Cursor run's end to its notification, in real time: the board (AgentWatch over the Cursor account, the system
// clock, DEFAULT_POLLING_PREFS) against the Cursor fake over real HTTP. A run is ended at a random moment (its
// `status` FINISHED and `done` on the stream) and the time to the board's onRound with its agent-status event is
// taken. Streamed, the time starts when the fake writes the status event on the run's stream (read off the fake's
// socket writes); polled there is no stream, and it starts when the fake's run moves (setTaskState). Each agent's
// next run is a follow-up run, so the account keeps its size.
import http from 'node:http'
import type { LiveNews } from '../src/core/providers/account'
import { AgentWatch } from '../src/core/providers/board'
import { MAX_STREAMS } from '../src/core/providers/cursor/stream'
import { openAgentAccount } from '../src/core/providers/registry'
import { systemClock } from '../src/core/util/clock'
import { createLimiter } from '../src/core/util/limiter'
import { startCursorFake } from '../src/reference-service/cursor/fake'
import { DEFAULT_POLLING_PREFS } from '../src/shared/settings'
import { seededRandom } from './random'
import { type BenchOptions, check, type MeasureResult } from './result'
import { percentile, round } from './stats'

const KEY = 'key_cursor_latency_0123456789abcdef'
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

export interface LatencyTrials {
  /** ms from the event to onRound, one a run. */
  ms: number[]
  /** Streamed runs: ms from the fake's run moving to its writing the status event (the fake's pump). */
  writeDelayMs: number[]
  /** Trials whose run was followed live when it ended (the account's isLive). */
  live: number
  p50: number
  p95: number
  max: number
}

/** When each run's stream had its ending status written, by agent id (performance.now()). */
function watchStatusWrites(): { written: Map<string, number>; restore: () => void } {
  const written = new Map<string, number>()
  const proto = http.ServerResponse.prototype
  const write = proto.write
  proto.write = function (this: http.ServerResponse, chunk: unknown, ...rest: unknown[]) {
    if (typeof chunk === 'string' && chunk.includes('event: status') && /"status":"(FINISHED|ERROR)"/.test(chunk)) {
      const agent = /\/v1\/agents\/([^/]+)\/runs\//.exec(this.req?.url ?? '')?.[1]
      if (agent !== undefined) written.set(decodeURIComponent(agent), performance.now())
    }
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest)
  } as typeof proto.write
  return { written, restore: () => void (proto.write = write) }
}

/** `count` runs ended and told, `lanes` live at once. */
export async function latencyTrials(mode: 'stream' | 'poll', count: number, lanes: number): Promise<LatencyTrials> {
  const fake = await startCursorFake({ apiKey: KEY, manualClock: true })
  const hook = watchStatusWrites()
  const random = seededRandom(mode === 'stream' ? 371 : 372)
  // As open-agent.ts opens it: streamed, the account's news goes to the watch (takeLive); polled, no onLive, no stream.
  let relay: (news: LiveNews) => void = () => undefined
  const account = openAgentAccount('cursor', {
    key: KEY,
    account: 'bench',
    baseUrl: fake.baseUrl,
    ...(mode === 'stream' ? { onLive: (news: LiveNews) => relay(news) } : {})
  })
  const toldAt = new Map<string, (at: number) => void>()
  const changed = new Set<() => void>()
  const watch = new AgentWatch({
    connectionId: 'bench',
    account,
    polling: DEFAULT_POLLING_PREFS,
    clock: systemClock,
    random: seededRandom(mode === 'stream' ? 373 : 374),
    limiter: createLimiter(DEFAULT_POLLING_PREFS.maxConcurrency),
    memory: null,
    save: async () => undefined,
    muted: () => false,
    onRound: (round) => {
      const at = performance.now()
      for (const e of round.events) if (e.kind === 'agent-status') toldAt.get(e.taskId)?.(at)
    },
    onChange: () => {
      for (const f of [...changed]) f()
    },
    onError: (context, error) => {
      throw new Error(`${context}: ${String(error)}`)
    }
  })
  relay = (news) => watch.takeLive(news)
  /** Resolves once the board sees `test` true, checked at each of its changes. */
  const until = (test: () => boolean): Promise<void> =>
    new Promise((resolve) => {
      const check = () => {
        if (!test()) return
        changed.delete(check)
        resolve()
      }
      changed.add(check)
      check()
    })
  const isActive = (id: string) =>
    watch.views().some((v) => v.id === id && (v.status === 'running' || v.status === 'queued'))
  const ms: number[] = []
  const writeDelayMs: number[] = []
  let live = 0
  let started = 0
  const lane = async (i: number): Promise<void> => {
    const { id } = fake.control.addTask({ title: `Lane ${i}`, repository: 'myorg/webapp', state: 'RUNNING' })
    while (started < count) {
      started++
      await until(() => isActive(id) && (mode === 'poll' || account.isLive?.(id) === true))
      // A random moment of the poll's cycle.
      await sleep(random() * DEFAULT_POLLING_PREFS.activeIntervalMs)
      if (account.isLive?.(id) === true) live++
      const told = new Promise<number>((resolve) => toldAt.set(id, resolve))
      hook.written.delete(id)
      const moved = performance.now()
      fake.control.setTaskState(id, 'FINISHED')
      const at = await told
      const written = hook.written.get(id)
      if (written !== undefined) writeDelayMs.push(written - moved)
      ms.push(at - (mode === 'stream' ? (written ?? moved) : moved))
      toldAt.delete(id)
      // The agent's next run: a follow-up, as the app's reply makes it, then polled at once (a second later: the
      // fake orders runs by creation).
      fake.control.advance(1_000)
      await watch.reply(id, 'Go on')
    }
  }
  try {
    watch.start()
    await Promise.all(Array.from({ length: lanes }, (_, i) => lane(i)))
  } finally {
    hook.restore()
    await watch.close()
    await fake.close()
  }
  return { ms, writeDelayMs, live, p50: percentile(ms, 50), p95: percentile(ms, 95), max: Math.max(...ms) }
}

export async function runCursorLatency(options: BenchOptions): Promise<MeasureResult> {
  const count = options.quick ? 12 : 40
  const lanes = MAX_STREAMS
  const interval = DEFAULT_POLLING_PREFS.activeIntervalMs
  options.log(
    `cursor-latency: ${count} Cursor runs ended (${lanes} live at once) and told by the board, streamed vs polled every ${interval / 1000} s`
  )
  const stream = await latencyTrials('stream', count, lanes)
  const poll = await latencyTrials('poll', count, lanes)
  const ratio = stream.p95 > 0 ? poll.p95 / stream.p95 : Number.POSITIVE_INFINITY
  const notes = [
    `p95 from the event to onRound: streamed ${round(stream.p95)} ms, polled ${round(poll.p95)} ms (${round(ratio, 1)}x); polling is bound by the active interval (${interval / 1000} s with its jitter).`
  ]
  if (stream.live < count) notes.push(`${count - stream.live} of ${count} streamed runs were not live when they ended.`)
  return {
    figures: {
      stream_p50_ms: round(stream.p50),
      stream_p95_ms: round(stream.p95),
      poll_p50_ms: round(poll.p50),
      poll_p95_ms: round(poll.p95),
      p95_ratio: round(ratio, 1),
      stream_not_live: count - stream.live
    },
    checks: [
      // The stream's p95 far under the interval, and polling's within it (plus its jitter and a poll's time).
      check('p95_ratio', ratio, '>=', 10),
      check('stream_p95_ms', stream.p95, '<=', interval / 10),
      check('poll_p95_ms', poll.p95, '<=', interval * 1.5),
      check('stream_not_live', count - stream.live, '<=', 0)
    ],
    details: {
      trials: count,
      live_at_once: lanes,
      active_interval_ms: interval,
      how: "wall-clock ms in one process: streamed, from the fake's socket write of the run's ending status event to the board's onRound with its agent-status event (the status event makes the account tell 'moved', the board polls at once and tells the change); polled, from the fake's run moving (no stream is open) to the same onRound",
      stream: {
        ...stream,
        ms: stream.ms.map((v) => round(v)),
        writeDelayMs: stream.writeDelayMs.map((v) => round(v)),
        max: round(stream.max)
      },
      poll: { ...poll, ms: poll.ms.map((v) => round(v)), writeDelayMs: undefined, max: round(poll.max) }
    },
    notes
  }
}
