// An agent account's watch taking its stream's news, over real HTTP against the Cursor fake: a streamed task's steps
// held and told as they come; a moved status (the run's end) polled at once, not at the interval, so its status change
// is told early; many moves one poll; none while paused, none sooner than the etiquette's wait; pausing the watch stops
// its streams and resuming follows them again. While every active task is followed live the account is polled at the
// idle interval; one active task not followed (past the stream bound, new, its stream expired) brings the active one.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type CursorFake, startCursorFake } from '../../reference-service/cursor/fake'
import type { ProviderStep } from '../../shared/provider'
import { DEFAULT_POLLING_PREFS } from '../../shared/settings'
import { ServiceError } from '../client/service-error'
import { ManualClock } from '../util/clock'
import { createLimiter } from '../util/limiter'
import type { AgentAccount, LiveNews } from './account'
import { type AgentRound, AgentWatch } from './board'
import { type CursorStreamTuning, openCursor } from './cursor/account'
import { MAX_STREAMS, REOPEN_WAIT, type Timers } from './cursor/stream'
import { openAgentAccount } from './registry'

const KEY = 'key_cursor_fake_0123456789abcdef'
const START = Date.parse('2026-03-01T09:00:00Z')
const ACTIVE = DEFAULT_POLLING_PREFS.activeIntervalMs
const IDLE = DEFAULT_POLLING_PREFS.idleIntervalMs

let fake: CursorFake
let clock: ManualClock
const watches: AgentWatch[] = []

beforeEach(async () => {
  fake = await startCursorFake({ apiKey: KEY, manualClock: true })
  clock = new ManualClock(START)
})
afterEach(async () => {
  await Promise.all(watches.splice(0).map((w) => w.close()))
  await fake.close()
})

/** Resolves when a recorded list gets an entry that passes `test` (already there: at once). */
function recorder<T>() {
  const items: T[] = []
  const waiters: { test: (t: T) => boolean; resolve: () => void }[] = []
  return {
    items,
    push(item: T) {
      items.push(item)
      for (const w of [...waiters]) {
        if (!w.test(item)) continue
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve()
      }
    },
    until: (test: (t: T) => boolean) =>
      items.some(test) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ test, resolve }))
  }
}

/** `etiquette.ms`: what the account's waitMs() says from now on (Cursor's own is 0). With `tuning`, the account is
 * opened with the stream's timers and bounds given. */
function cursorWatch(etiquette = { ms: 0 }, failing = { on: false }, tuning?: CursorStreamTuning) {
  const news = recorder<LiveNews>()
  const told = recorder<{ taskId: string; steps: ProviderStep[] }>()
  const rounds = recorder<AgentRound>()
  const polls = recorder<number>()
  /** A poll's end (the watch's onChange, once the next poll is planned). */
  const ended = recorder<number>()
  let relay: (news: LiveNews) => void = () => {}
  const options = {
    key: KEY,
    account: 'Mine',
    baseUrl: fake.baseUrl,
    now: () => clock.now(),
    onLive(n: LiveNews) {
      news.push(n)
      relay(n)
    }
  }
  const opened = tuning === undefined ? openAgentAccount('cursor', options) : openCursor(options, tuning)
  const account: AgentAccount = {
    ...opened,
    async poll(signal) {
      if (failing.on) throw new ServiceError('network', 'The service is unreachable.')
      const result = await opened.poll(signal)
      polls.push(clock.now())
      return result
    },
    waitMs: () => Math.max(etiquette.ms, opened.waitMs())
  }
  const watch = new AgentWatch({
    connectionId: 'c-cursor',
    account,
    polling: DEFAULT_POLLING_PREFS,
    clock,
    random: () => 0.5,
    limiter: createLimiter(2),
    memory: null,
    save: async () => {},
    muted: () => false,
    onRound: (round) => rounds.push(round),
    onChange: () => ended.push(clock.now()),
    onSteps: (taskId, steps) => told.push({ taskId, steps }),
    onError: (context, error) => {
      throw new Error(`${context}: ${String(error)}`)
    }
  })
  relay = (n) => watch.takeLive(n)
  watches.push(watch)
  return { watch, news, told, rounds, polls, ended, firstPoll: () => ended.until(() => true) }
}

const running = (script = 'run-forever'): string => {
  const { id } = fake.control.addTask({ title: 'Live', script })
  fake.control.advance(2_000)
  return id
}

describe("the watch and a task's stream", () => {
  it("holds and tells a streamed task's steps as they come, and lists the task as live", async () => {
    const id = running()
    const rig = cursorWatch()
    rig.watch.start()
    await rig.firstPoll()
    await rig.watch.told
    expect(rig.watch.views().find((t) => t.id === id)).toMatchObject({ status: 'running', live: true })
    fake.control.advance(3_000)
    await rig.told.until((t) => t.taskId === id && t.steps.length === 1)
    expect(rig.told.items.at(-1)?.steps.map((s) => [s.kind, s.title])).toEqual([['tool_call', 'read_file']])
    expect(
      rig.watch
        .views()
        .find((t) => t.id === id)
        ?.steps?.map((s) => s.title)
    ).toEqual(['read_file'])
    // Steps are not a poll: the clock has not moved and nothing more was asked.
    expect(rig.polls.items).toEqual([START])
  })

  it('polls at once when the stream says the run ended, and tells the status change before the interval', async () => {
    const id = running('complete')
    const rig = cursorWatch()
    rig.watch.start()
    await rig.firstPoll()
    await rig.watch.told
    expect(rig.rounds.items).toEqual([])
    fake.control.advance(30_000)
    await rig.news.until((n) => n.kind === 'moved' && n.taskId === id)
    // The early poll is due now: no time passes on the watch's clock.
    expect(clock.nextAt()).toBe(START)
    await clock.advance(0)
    await rig.rounds.until((r) => r.events.some((e) => e.kind === 'agent-status'))
    expect(rig.rounds.items.flatMap((r) => r.events)).toEqual([
      expect.objectContaining({ kind: 'agent-status', taskId: id, from: 'running', to: 'completed' })
    ])
    expect(rig.polls.items.every((at) => at - START < ACTIVE)).toBe(true)
    expect(rig.watch.views().find((t) => t.id === id)).toMatchObject({ status: 'completed', live: false })
  })

  it("pausing the watch stops the account's streams; resuming polls and follows the run again", async () => {
    const id = running()
    const rig = cursorWatch()
    rig.watch.start()
    await rig.firstPoll()
    await rig.watch.told
    expect(rig.watch.views().find((t) => t.id === id)?.live).toBe(true)
    rig.watch.pause()
    expect(rig.watch.views().find((t) => t.id === id)?.live).toBe(false)
    expect(rig.watch.account.isLive?.(id)).toBe(false)

    rig.watch.resume()
    await rig.ended.until(() => rig.ended.items.length >= 2)
    expect(rig.polls.items).toEqual([START, START])
    expect(rig.watch.views().find((t) => t.id === id)?.live).toBe(true)
    fake.control.advance(3_000)
    await rig.told.until((t) => t.taskId === id && t.steps.some((s) => s.title === 'read_file'))
  })

  it('many moves between polls make one poll', async () => {
    running()
    const rig = cursorWatch()
    rig.watch.start()
    await rig.firstPoll()
    await rig.watch.told
    const interval = clock.nextAt()
    for (let i = 0; i < 5; i++) rig.watch.takeLive({ kind: 'moved', taskId: 'any' })
    expect(clock.pending).toBe(1)
    await clock.advance(0)
    await rig.ended.until(() => rig.ended.items.length >= 2)
    await rig.watch.told
    expect(rig.polls.items).toEqual([START, START])
    // Then back to the interval.
    expect(clock.nextAt()).toBe(interval)
  })

  it('a move during a poll brings the next poll forward to when that poll ends', async () => {
    running()
    const rig = cursorWatch()
    rig.watch.start()
    rig.watch.takeLive({ kind: 'moved', taskId: 'any' })
    expect(rig.polls.items).toEqual([])
    await rig.firstPoll()
    expect(clock.nextAt()).toBe(START)
  })

  it("never sooner than the etiquette's wait, and not while paused", async () => {
    running()
    const etiquette = { ms: 0 }
    const rig = cursorWatch(etiquette)
    rig.watch.start()
    await rig.firstPoll()
    await rig.watch.told
    expect(clock.nextAt()).toBeGreaterThan(START + 2_000)
    etiquette.ms = 2_000
    rig.watch.takeLive({ kind: 'moved', taskId: 'any' })
    expect(clock.nextAt()).toBe(START + 2_000)
    // A poll already due sooner than the etiquette's wait from now is not put off by another move.
    await clock.advance(1_500)
    rig.watch.takeLive({ kind: 'moved', taskId: 'any' })
    expect(clock.nextAt()).toBe(START + 2_000)

    rig.watch.pause()
    rig.watch.takeLive({ kind: 'moved', taskId: 'any' })
    expect(clock.pending).toBe(0)
  })

  it('backing off after a failed poll, a move does not bring the next poll forward; closed, it plans nothing', async () => {
    running()
    const failing = { on: false }
    const rig = cursorWatch({ ms: 0 }, failing)
    rig.watch.start()
    await rig.firstPoll()
    failing.on = true
    await clock.advance(clock.nextAt()! - clock.now())
    await rig.ended.until(() => rig.ended.items.length >= 2)
    expect(rig.watch.health.state).toBe('error')
    const backoff = clock.nextAt()
    rig.watch.takeLive({ kind: 'moved', taskId: 'any' })
    expect(clock.nextAt()).toBe(backoff)

    await rig.watch.close()
    rig.watch.takeLive({ kind: 'moved', taskId: 'any' })
    rig.watch.takeLive({ kind: 'steps', taskId: 'any', steps: [] })
    expect(clock.pending).toBe(0)
    expect(rig.told.items).toEqual([])
  })
})

/** Lets I/O on the fake's sockets turn until `check` holds; fails after many turns. */
async function turnsUntil(check: () => boolean, turns = 10_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (check()) return
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
  throw new Error('the condition never held')
}

describe("the watch's pace while its tasks are followed live", () => {
  /** The streams' own timers (stall watchdog, reopen waits), apart from the watch's clock. */
  function streamTimers() {
    const streamClock = new ManualClock(START)
    const timers: Timers = {
      set: (run, ms) => streamClock.setTimeout(run, ms),
      clear: (h) => streamClock.clearTimeout(h)
    }
    return { streamClock, timers }
  }
  /** When the poll planned after the latest one is due, from that poll's time. */
  const paceAfter = (rig: ReturnType<typeof cursorWatch>): number => clock.nextAt()! - rig.polls.items.at(-1)!

  it('polls at the idle interval while every running task is followed live, and at the active one for a task with no stream', async () => {
    const ids = Array.from({ length: MAX_STREAMS }, () => running())
    const rig = cursorWatch()
    rig.watch.start()
    await rig.firstPoll()
    expect(ids.map((id) => rig.watch.views().find((t) => t.id === id)?.live)).toEqual(ids.map(() => true))
    // A stream's moved brings a poll at once, so a followed run needs no quick pace.
    expect(paceAfter(rig)).toBe(IDLE)

    // A new agent while every slot is taken: it is polled, and the active pace is back.
    const extra = running()
    await clock.advance(IDLE)
    await rig.ended.until(() => rig.ended.items.length >= 2)
    expect(rig.watch.views().find((t) => t.id === extra)).toMatchObject({ status: 'running', live: false })
    expect(paceAfter(rig)).toBe(ACTIVE)

    // One followed run ends: its slot goes to the new agent, every running task is followed again, the idle pace too.
    const done = ids[0] as string
    fake.control.setTaskState(done, 'FINISHED')
    await rig.news.until((n) => n.kind === 'moved' && n.taskId === done)
    await clock.advance(0)
    await rig.ended.until(() => rig.ended.items.length >= 3)
    expect(rig.watch.views().find((t) => t.id === extra)?.live).toBe(true)
    expect(paceAfter(rig)).toBe(IDLE)
  })

  it('a run whose stream expired brings the active interval back, from the poll its end asks for', async () => {
    const id = running()
    const { streamClock, timers } = streamTimers()
    const rig = cursorWatch({ ms: 0 }, { on: false }, { timers, random: () => 1 })
    rig.watch.start()
    await rig.firstPoll()
    expect(paceAfter(rig)).toBe(IDLE)

    const runId = fake.control.latestRunId(id)
    await turnsUntil(() => fake.control.openStreams() === 1)
    fake.control.expireStream(runId)
    expect(fake.control.dropStreams(runId)).toBe(1)
    // The stream is reopened after its wait (the only stream timer once the drop is seen), answers 410, and its end
    // asks for a poll now.
    await turnsUntil(() => streamClock.nextAt() === START + REOPEN_WAIT.firstMs)
    await streamClock.advance(REOPEN_WAIT.firstMs)
    await rig.news.until((n) => n.kind === 'moved' && n.taskId === id)
    await clock.advance(0)
    await rig.ended.until(() => rig.ended.items.length >= 2)
    expect(rig.polls.items).toEqual([START, START])
    expect(rig.watch.views().find((t) => t.id === id)).toMatchObject({ status: 'running', live: false })
    expect(paceAfter(rig)).toBe(ACTIVE)
  })

  it("setPolling's rule reads the pace chosen: while every running task is followed, the idle interval's", async () => {
    running()
    const rig = cursorWatch()
    rig.watch.start()
    await rig.firstPoll()
    expect(paceAfter(rig)).toBe(IDLE)
    rig.watch.setPolling({ ...DEFAULT_POLLING_PREFS, activeIntervalMs: 2_000 })
    expect(clock.nextAt()).toBe(START + IDLE)
    rig.watch.setPolling({ ...DEFAULT_POLLING_PREFS, activeIntervalMs: 2_000, idleIntervalMs: 30_000 })
    expect(clock.nextAt()).toBe(START + 30_000)
  })
})
