// The stream's rules with no network: an injected clock for the heartbeat bound, and streams made in the test.
import { describe, expect, it } from 'vitest'
import { STREAM_TEXT } from '../../../reference-service/cursor/docs-examples'
import type { ProviderStep } from '../../../shared/provider'
import type { StreamResponse } from '../transport'
import {
  followRun,
  LiveSteps,
  MAX_LIVE_STEPS,
  REOPEN_WAIT,
  reopenWaitMs,
  type RunKey,
  type RunUpdate,
  StreamPool,
  type Timers
} from './stream'

/** Timers that fire only when the test says. */
function manualTimers() {
  const pending = new Map<number, () => void>()
  let next = 0
  const timers: Timers = {
    set(run) {
      pending.set(++next, run)
      return next
    },
    clear: (h) => pending.delete(h as number)
  }
  return { timers, fireAll: () => [...pending.values()].forEach((run) => run()), pending }
}

/** A stream that sends `text` then stays open until aborted. */
function hanging(text: string, signal: AbortSignal): StreamResponse {
  return {
    status: 200,
    headers: {},
    text: async () => '',
    body: (async function* () {
      yield new TextEncoder().encode(text)
      await new Promise((_, reject) =>
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true })
      )
    })()
  }
}

describe('followRun', () => {
  it('reopens after the heartbeat bound with the last event ID, and skips an event sent again', async () => {
    const { timers, fireAll, pending } = manualTimers()
    const asked: (string | null)[] = []
    const updates: RunUpdate[] = []
    let opened!: () => void
    const twice = new Promise<void>((resolve) => (opened = resolve))
    const follower = followRun({
      timers,
      async open(lastEventId, signal) {
        asked.push(lastEventId)
        if (asked.length === 2) opened()
        return asked.length === 1
          ? hanging('id: 1\nevent: tool_call\ndata: {"callId":"a","name":"grep"}\n\n', signal)
          : hanging(
              'id: 1\nevent: tool_call\ndata: {"callId":"a","name":"grep"}\n\nid: 2\nevent: done\ndata: {}\n\n',
              signal
            )
      },
      onUpdate: (u) => updates.push(u)
    })
    const turnsUntil = (test: () => boolean) =>
      new Promise<void>((resolve) => {
        const check = () => (test() ? resolve() : setImmediate(check))
        check()
      })
    await turnsUntil(() => updates.length > 0 && pending.size > 0)
    // The stall bound, then the wait before reopening.
    fireAll()
    await turnsUntil(() => updates.some((u) => u.kind === 'reopening'))
    expect(asked).toEqual([null])
    fireAll()
    await twice
    await expect(follower.ended).resolves.toEqual({ how: 'done' })
    expect(asked).toEqual([null, '1'])
    expect(updates.filter((u) => u.kind === 'step')).toHaveLength(1)
    expect(updates).toContainEqual({ kind: 'reopening', lastEventId: '1', stalled: true, waitMs: expect.any(Number) })
  })

  it('gives up and leaves the run to polling after reopens in a row that bring nothing', async () => {
    const { timers, fireAll } = manualTimers()
    let opens = 0
    const follower = followRun({
      maxReopens: 2,
      timers,
      async open() {
        opens++
        return { status: 200, headers: {}, text: async () => '', body: (async function* () {})() }
      },
      // Each wait is over as soon as it starts (its timer set right after it is told).
      onUpdate: (u) => void (u.kind === 'reopening' && setImmediate(fireAll))
    })
    await expect(follower.ended).resolves.toMatchObject({ how: 'failed' })
    expect(opens).toBe(3)
  })

  it('ends on a fatal error event, and goes on after a recoverable one', async () => {
    const run = (text: string) =>
      followRun({
        async open() {
          return {
            status: 200,
            headers: {},
            text: async () => '',
            body: (async function* () {
              yield new TextEncoder().encode(text)
            })()
          }
        },
        onUpdate: () => {},
        maxReopens: 0
      }).ended
    await expect(run('event: error\ndata: {"code":"unauthorized"}\n\n')).resolves.toMatchObject({ how: 'failed' })
    await expect(
      run('event: error\ndata: {"code":"stream_unavailable"}\n\nevent: done\ndata: {}\n\n')
    ).resolves.toEqual({
      how: 'done'
    })
  })
})

describe('reopenWaitMs', () => {
  it('doubles from the first step to the bound, half of each wait jitter', () => {
    const top = [0, 1, 2, 3, 4, 5, 6, 40].map((n) => reopenWaitMs(n, () => 1))
    expect(top).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000])
    expect(REOPEN_WAIT).toEqual({ firstMs: 1_000, maxMs: 30_000 })
    expect(reopenWaitMs(0, () => 0)).toBe(REOPEN_WAIT.firstMs / 2)
    expect(reopenWaitMs(10, () => 0)).toBe(REOPEN_WAIT.maxMs / 2)
    expect(reopenWaitMs(1, () => 0.5)).toBe(1_500)
    // A broken random source never makes the wait zero or endless.
    expect(reopenWaitMs(0, () => Number.NaN)).toBe(500)
    expect(reopenWaitMs(0, () => 7)).toBe(1_000)
  })
})

describe('StreamPool', () => {
  it('keeps an expired run polled rather than opening its stream again, and stops streams of runs no longer wanted', async () => {
    const starts: string[] = []
    const stopped: string[] = []
    let expire!: (v: { how: 'expired' }) => void
    const pool = new StreamPool({
      max: 2,
      start(run: RunKey) {
        starts.push(run.runId)
        const ended =
          run.runId === 'r1'
            ? new Promise<{ how: 'expired' }>((resolve) => (expire = resolve))
            : new Promise<never>(() => {})
        return { ended, lastEventId: () => null, stop: () => stopped.push(run.runId) }
      }
    })
    const runs = ['r1', 'r2', 'r3'].map((runId) => ({ agentId: `a-${runId}`, runId }))
    expect(pool.want(runs)).toEqual({ streamed: ['a-r1/r1', 'a-r2/r2'], polled: ['a-r3/r3'] })
    expire({ how: 'expired' })
    await Promise.resolve()
    await Promise.resolve()
    expect(pool.want(runs)).toEqual({ streamed: ['a-r2/r2', 'a-r3/r3'], polled: ['a-r1/r1'] })
    expect(starts).toEqual(['r1', 'r2', 'r3'])
    pool.want(runs.slice(2))
    expect(stopped).toEqual(['r2'])
    expect(pool.streaming()).toEqual(['a-r3/r3'])
  })
})

describe('LiveSteps', () => {
  const step = (id: string, title = id): ProviderStep => ({
    id,
    kind: 'tool_call',
    title,
    detail: null,
    at: null,
    status: null,
    serviceStatus: null
  })

  it(`holds a run's latest ${MAX_LIVE_STEPS} steps and one step ahead of them saying how many earlier are not shown`, () => {
    const live = new LiveSteps()
    for (let i = 1; i <= MAX_LIVE_STEPS; i++) live.add('a', step(`c${i}`))
    expect(live.steps('a')).toHaveLength(MAX_LIVE_STEPS)
    expect(live.steps('a')?.[0]?.id).toBe('c1')
    // A step told again keeps its place and pushes nothing out.
    live.add('a', step('c1', 'c1 done'))
    expect(
      live
        .steps('a')
        ?.map((s) => s.title)
        .slice(0, 2)
    ).toEqual(['c1 done', 'c2'])
    for (let i = MAX_LIVE_STEPS + 1; i <= MAX_LIVE_STEPS + 5; i++) live.add('a', step(`c${i}`))
    const steps = live.steps('a') ?? []
    expect(steps).toHaveLength(MAX_LIVE_STEPS + 1)
    expect(steps[0]).toMatchObject({ kind: 'earlier', title: '5 earlier steps not shown' })
    expect(steps[1]?.id).toBe('c6')
    expect(steps.at(-1)?.id).toBe(`c${MAX_LIVE_STEPS + 5}`)
    // Each agent's bound is its own.
    live.add('b', step('x'))
    expect(live.steps('b')?.map((s) => s.id)).toEqual(['x'])
  })
})

/** A stream that sends `text` and then ends, as a dropped connection does. */
function ending(text: string): StreamResponse {
  return {
    status: 200,
    headers: {},
    text: async () => '',
    body: (async function* () {
      yield new TextEncoder().encode(text)
    })()
  }
}

describe("the docs' example stream", () => {
  it('is told in order: the status, the tool call running then completed, the terminal status of the result', async () => {
    const updates: RunUpdate[] = []
    const follower = followRun({ open: async () => ending(STREAM_TEXT), onUpdate: (u) => updates.push(u) })
    await expect(follower.ended).resolves.toEqual({ how: 'done' })
    expect(updates.map((u) => (u.kind === 'step' ? `step ${u.step.id} ${u.step.serviceStatus}` : u))).toEqual([
      { kind: 'status', word: 'RUNNING' },
      { kind: 'other', event: 'assistant' },
      'step call-1 running',
      'step call-1 completed',
      { kind: 'status', word: 'FINISHED' },
      { kind: 'result', text: 'Added README.md with installation instructions.' }
    ])
    expect(follower.lastEventId()).toBe('1713033010000-0')
  })

  it('ends with `done` after a resume, though `done` has the id of the result already told', async () => {
    const cut = STREAM_TEXT.slice(0, STREAM_TEXT.indexOf('id: 1713033010000-0\nevent: done'))
    const asked: (string | null)[] = []
    const updates: RunUpdate[] = []
    const { timers, fireAll } = manualTimers()
    const follower = followRun({
      timers,
      async open(lastEventId) {
        asked.push(lastEventId)
        return asked.length === 1
          ? ending(cut)
          : ending('event: status\ndata: {"status":"FINISHED"}\n\nid: 1713033010000-0\nevent: done\ndata: {}\n\n')
      },
      onUpdate(u) {
        updates.push(u)
        if (u.kind === 'reopening') setImmediate(fireAll)
      }
    })
    await expect(follower.ended).resolves.toEqual({ how: 'done' })
    expect(asked).toEqual([null, '1713033010000-0'])
    // The reconnect's leading status repeats the word told: it is not told twice.
    expect(updates.filter((u) => u.kind === 'status')).toEqual([
      { kind: 'status', word: 'RUNNING' },
      { kind: 'status', word: 'FINISHED' }
    ])
    expect(updates.filter((u) => u.kind === 'result')).toHaveLength(1)
  })

  it('counts a reconnect that brings only the leading status as bringing nothing, and tells its word once', async () => {
    let opens = 0
    const updates: RunUpdate[] = []
    const { timers, fireAll } = manualTimers()
    const follower = followRun({
      maxReopens: 2,
      timers,
      async open() {
        opens++
        return ending('event: status\ndata: {"status":"RUNNING"}\n\n')
      },
      onUpdate(u) {
        updates.push(u)
        if (u.kind === 'reopening') setImmediate(fireAll)
      }
    })
    await expect(follower.ended).resolves.toMatchObject({ how: 'failed' })
    expect(opens).toBe(3)
    expect(updates.filter((u) => u.kind === 'status')).toEqual([{ kind: 'status', word: 'RUNNING' }])
  })
})
