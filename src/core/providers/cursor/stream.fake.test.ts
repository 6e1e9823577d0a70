// A Cursor run followed live over real HTTP against the fake's SSE stream: tool calls arrive as steps while the run
// runs; a dropped stream resumes from Last-Event-ID with no event lost or told twice; 410 stream_expired ends the
// stream for polling; a stalled stream is reopened; a refused or dropped stream is reopened only after a wait that
// grows until an event comes; the pool never holds more than its bound. The stream's timers are a manual clock.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type CursorFake, startCursorFake } from '../../../reference-service/cursor/fake'
import { ManualClock } from '../../util/clock'
import { createCursorClient, type CursorClient } from './client'
import {
  type Follower,
  followRun,
  openRunStream,
  REOPEN_WAIT,
  type RunKey,
  type RunUpdate,
  StreamPool,
  type Timers
} from './stream'

const KEY = 'key_cursor_fake_0123456789abcdef'
let fake: CursorFake
let client: CursorClient
/** The stream's own timers (stall watchdog, reopen waits): they move only when a test advances them. */
let clock: ManualClock
let timers: Timers

beforeEach(async () => {
  fake = await startCursorFake({ apiKey: KEY, manualClock: true })
  client = createCursorClient({ apiKey: KEY, account: 'me', baseUrl: fake.baseUrl })
  clock = new ManualClock()
  timers = { set: (run, ms) => clock.setTimeout(run, ms), clear: (h) => clock.clearTimeout(h) }
})
afterEach(async () => {
  await client.close()
  await fake.close()
})

/** Follows a run and lets a test wait for the update it names; `opens` counts the requests for its stream. */
function follow(run: RunKey, options: { stallMs?: number; maxReopens?: number } = {}) {
  const updates: RunUpdate[] = []
  const waiters: { test: (u: RunUpdate) => boolean; from: number; resolve: () => void }[] = []
  const open = openRunStream(client.transport, run.agentId, run.runId)
  let opens = 0
  const follower = followRun({
    open(lastEventId, signal) {
      opens++
      return open(lastEventId, signal)
    },
    onUpdate(u) {
      updates.push(u)
      for (const w of [...waiters]) if (w.test(u)) w.resolve()
    },
    timers,
    // The jitter at its top: each wait is its whole step.
    random: () => 1,
    ...options
  })
  const until = (test: (u: RunUpdate) => boolean, from = 0) =>
    updates.slice(from).some(test)
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ test, from, resolve }))
  const step = (title: string) => until((u) => u.kind === 'step' && u.step.title === title)
  const reopens = () => updates.flatMap((u) => (u.kind === 'reopening' ? [u.waitMs] : []))
  /** The wait told with the `nth` reopen (from 1), once it is told. */
  const reopening = async (nth: number): Promise<number> => {
    await until(() => reopens().length >= nth)
    return reopens()[nth - 1] as number
  }
  return { follower, updates, until, step, reopening, opens: () => opens }
}

const running = (script = 'run-forever'): RunKey => {
  const { id } = fake.control.addTask({ title: 'Live', script })
  fake.control.advance(2_000)
  return { agentId: id, runId: fake.control.latestRunId(id) }
}

/** What a follower told, reopening left out: the order a person sees. */
const told = (updates: RunUpdate[]) =>
  updates.flatMap((u) =>
    u.kind === 'step'
      ? [`step ${u.step.title}`]
      : u.kind === 'status'
        ? [`status ${u.word}`]
        : u.kind === 'other'
          ? [u.event]
          : []
  )

describe('following a Cursor run over its event stream', () => {
  it('tells tool calls as steps as they happen, and ends with the run', async () => {
    const run = running('complete')
    const live = follow(run)
    await live.until((u) => u.kind === 'status' && u.word === 'RUNNING')
    expect(live.updates.some((u) => u.kind === 'step')).toBe(false)
    fake.control.advance(3_000)
    await live.step('read_file')
    expect(live.updates.filter((u) => u.kind === 'step')).toHaveLength(1)
    fake.control.advance(30_000)
    await expect(live.follower.ended).resolves.toEqual({ how: 'done' })
    // The leading status says RUNNING; the terminal status comes with the result, as on the docs' stream.
    expect(told(live.updates)).toEqual([
      'status RUNNING',
      'thinking',
      'step read_file',
      'assistant',
      'step edit_file',
      'step run_terminal_cmd',
      'status FINISHED'
    ])
    expect(live.updates).toContainEqual({ kind: 'result', text: expect.stringContaining('README') })
  })

  it('resumes a dropped stream from Last-Event-ID with no event lost or repeated', async () => {
    const run = running()
    const live = follow(run)
    fake.control.advance(3_000)
    await live.step('read_file')
    const resumeFrom = live.follower.lastEventId()
    expect(resumeFrom).not.toBeNull()
    expect(fake.control.dropStreams(run.runId)).toBe(1)
    // Events that happen while the stream is down arrive once it is reopened.
    fake.control.advance(20_000)
    await clock.advance(await live.reopening(1))
    await live.step('run_terminal_cmd')
    expect(live.updates).toContainEqual({
      kind: 'reopening',
      lastEventId: resumeFrom,
      stalled: false,
      waitMs: REOPEN_WAIT.firstMs
    })
    expect(told(live.updates)).toEqual([
      'status RUNNING',
      'thinking',
      'step read_file',
      'assistant',
      'step edit_file',
      'step run_terminal_cmd'
    ])
    live.follower.stop()
    await expect(live.follower.ended).resolves.toEqual({ how: 'stopped' })
  })

  it('on 410 stream_expired ends the stream so the run is polled, and polling still reads the run', async () => {
    const run = running()
    const live = follow(run)
    await live.until((u) => u.kind === 'status' && u.word === 'RUNNING')
    fake.control.expireStream(run.runId)
    fake.control.dropStreams(run.runId)
    await clock.advance(await live.reopening(1))
    await expect(live.follower.ended).resolves.toEqual({ how: 'expired' })
    expect((await client.getRun(run.agentId, run.runId)).status).toBe('RUNNING')
  })

  it('reopens a stream that stalls past the heartbeat bound, and goes on from where it was', async () => {
    const run = running()
    const live = follow(run, { stallMs: 200 })
    await live.until((u) => u.kind === 'status' && u.word === 'RUNNING')
    fake.control.hushStreams(run.runId)
    fake.control.advance(3_000)
    await clock.advance(200)
    await live.until((u) => u.kind === 'reopening' && u.stalled)
    await clock.advance(await live.reopening(1))
    await live.step('read_file')
    expect(told(live.updates).filter((t) => t === 'step read_file')).toHaveLength(1)
    live.follower.stop()
  })
})

describe('reopening a stream that fails at once', () => {
  /** Lets I/O on the fake's socket turn until `check` holds; fails after many turns. */
  async function turnsUntil(check: () => boolean, turns = 10_000): Promise<void> {
    for (let i = 0; i < turns; i++) {
      if (check()) return
      await new Promise<void>((resolve) => setImmediate(resolve))
    }
    throw new Error('the condition never held')
  }

  it('waits before each reopen, longer each time, and starts over once an event comes', async () => {
    const run = running()
    const stream = `/v1/agents/${run.agentId}/runs/${run.runId}/stream`
    // The server refuses the stream three times (503), then serves it.
    fake.control.setFaults({ rules: [{ kind: 'error', status: 503, method: 'GET', pathPrefix: stream, times: 3 }] })
    const live = follow(run)
    const waits: number[] = []
    for (let refused = 1; refused <= 3; refused++) {
      const wait = await live.reopening(refused)
      waits.push(wait)
      expect(live.opens()).toBe(refused)
      // Not a moment before the wait is over.
      await clock.advance(wait - 1)
      expect(live.opens()).toBe(refused)
      await clock.advance(1)
      await turnsUntil(() => live.opens() === refused + 1)
    }
    expect(waits).toEqual([1, 2, 4].map((n) => n * REOPEN_WAIT.firstMs))
    await live.until((u) => u.kind === 'status' && u.word === 'RUNNING')
    // The leading status has no id, so it is not an event that starts the wait over: one with an id is.
    await turnsUntil(() => live.follower.lastEventId() !== null)

    // The stream brought events: a drop now waits the first step again.
    fake.control.dropStreams(run.runId)
    expect(await live.reopening(4)).toBe(REOPEN_WAIT.firstMs)
    live.follower.stop()
    await expect(live.follower.ended).resolves.toEqual({ how: 'stopped' })
  })

  it('never waits longer than the bound', async () => {
    const run = running()
    const stream = `/v1/agents/${run.agentId}/runs/${run.runId}/stream`
    // The socket goes before any answer, every time: as offline.
    fake.control.setFaults({ rules: [{ kind: 'drop', method: 'GET', pathPrefix: stream }] })
    const live = follow(run, { maxReopens: 7 })
    const waits: number[] = []
    for (let nth = 1; ; nth++) {
      const wait = await Promise.race([live.reopening(nth), live.follower.ended.then(() => null)])
      if (wait === null) break
      waits.push(wait)
      await clock.advance(wait)
    }
    await expect(live.follower.ended).resolves.toMatchObject({ how: 'failed' })
    expect(waits).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, REOPEN_WAIT.maxMs, REOPEN_WAIT.maxMs])
    expect(live.opens()).toBe(8)
  })

  it('stopped during a wait, it opens nothing more and leaves no timer behind', async () => {
    const run = running()
    const stream = `/v1/agents/${run.agentId}/runs/${run.runId}/stream`
    fake.control.setFaults({ rules: [{ kind: 'error', status: 503, method: 'GET', pathPrefix: stream }] })
    const live = follow(run)
    await live.reopening(1)
    expect(clock.pending).toBe(1)
    live.follower.stop()
    await expect(live.follower.ended).resolves.toEqual({ how: 'stopped' })
    expect(clock.pending).toBe(0)
    await clock.advance(10 * REOPEN_WAIT.maxMs)
    expect(live.opens()).toBe(1)
    expect(fake.control.openStreams()).toBe(0)
  })
})

describe('the stream pool', () => {
  it('never holds more than its bound; the rest are polled, and a freed slot goes to a run still polled', async () => {
    const runs = [1, 2, 3, 4, 5].map(() => running())
    const followers = new Map<string, ReturnType<typeof follow>>()
    let ended!: () => void
    const oneEnded = new Promise<void>((resolve) => (ended = resolve))
    const pool = new StreamPool({
      start(run): Follower {
        const live = follow(run)
        followers.set(run.runId, live)
        return live.follower
      },
      onEnd: () => ended()
    })
    const first = pool.want(runs)
    expect(first.streamed).toHaveLength(3)
    expect(first.polled).toHaveLength(2)
    await Promise.all([...followers.values()].map((f) => f.until((u) => u.kind === 'status' && u.word === 'RUNNING')))
    expect(fake.control.openStreams()).toBe(3)

    const finished = runs[0] as RunKey
    fake.control.setTaskState(finished.agentId, 'FINISHED')
    await oneEnded
    const next = pool.want(runs.slice(1))
    expect(next.streamed).toHaveLength(3)
    expect(next.polled).toHaveLength(1)
    expect(followers.size).toBe(4)
    pool.close()
  })
})
