// A Cursor run followed live over real HTTP against the fake's SSE stream: tool calls arrive as steps while the run
// runs; a dropped stream resumes from Last-Event-ID with no event lost or told twice; 410 stream_expired ends the
// stream for polling; a stalled stream is reopened; the pool never holds more than its bound.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type CursorFake, startCursorFake } from '../../../reference-service/cursor/fake'
import { createCursorClient, type CursorClient } from './client'
import { type Follower, followRun, openRunStream, type RunKey, type RunUpdate, StreamPool } from './stream'

const KEY = 'key_cursor_fake_0123456789abcdef'
let fake: CursorFake
let client: CursorClient

beforeEach(async () => {
  fake = await startCursorFake({ apiKey: KEY, manualClock: true })
  client = createCursorClient({ apiKey: KEY, account: 'me', baseUrl: fake.baseUrl })
})
afterEach(async () => {
  await client.close()
  await fake.close()
})

/** Follows a run and lets a test wait for the update it names. */
function follow(run: RunKey, options: { stallMs?: number } = {}) {
  const updates: RunUpdate[] = []
  const waiters: { test: (u: RunUpdate) => boolean; resolve: () => void }[] = []
  const follower = followRun({
    open: openRunStream(client.transport, run.agentId, run.runId),
    onUpdate(u) {
      updates.push(u)
      for (const w of [...waiters]) if (w.test(u)) w.resolve()
    },
    ...options
  })
  const until = (test: (u: RunUpdate) => boolean) =>
    updates.some(test) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ test, resolve }))
  const step = (title: string) => until((u) => u.kind === 'step' && u.step.title === title)
  return { follower, updates, until, step }
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
    await live.step('run_terminal_cmd')
    expect(live.updates).toContainEqual({ kind: 'reopening', lastEventId: resumeFrom, stalled: false })
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
    await expect(live.follower.ended).resolves.toEqual({ how: 'expired' })
    expect((await client.getRun(run.agentId, run.runId)).status).toBe('RUNNING')
  })

  it('reopens a stream that stalls past the heartbeat bound, and goes on from where it was', async () => {
    const run = running()
    const live = follow(run, { stallMs: 200 })
    await live.until((u) => u.kind === 'status' && u.word === 'RUNNING')
    fake.control.hushStreams(run.runId)
    fake.control.advance(3_000)
    await live.until((u) => u.kind === 'reopening' && u.stalled)
    await live.step('read_file')
    expect(told(live.updates).filter((t) => t === 'step read_file')).toHaveLength(1)
    live.follower.stop()
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
