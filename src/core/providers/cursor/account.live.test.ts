// A Cursor account's live side over real HTTP against the Cursor fake: after a poll the running agents' streams are
// followed and their tool calls told as steps (all so far, each once, across a dropped stream); an expired stream
// leaves its run to polling; no more than MAX_STREAMS at once; a finished run's steps stay until the agent's next
// run; a run's live steps bounded to the latest, the earlier ones counted; live off (the watch paused) holds no stream and on again resumes them, a stream given up offline included;
// closing lets every stream go.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type CursorFake, startCursorFake } from '../../../reference-service/cursor/fake'
import { openPoolCount } from '../../client/pool'
import type { AgentAccount, AgentPoll, LiveNews } from '../account'
import { type CursorStreamTuning, openCursor } from './account'
import { MAX_STREAMS, STALL_MS, type Timers } from './stream'

const KEY = 'key_cursor_fake_0123456789abcdef'
let fake: CursorFake
const opened: AgentAccount[] = []

beforeEach(async () => {
  fake = await startCursorFake({ apiKey: KEY, manualClock: true })
})
afterEach(async () => {
  await Promise.all(opened.splice(0).map((a) => a.close()))
  await fake.close()
})

interface Live {
  account: AgentAccount
  news: LiveNews[]
  /** Resolves at the first news from `from` on that passes `test`. */
  until(test: (n: LiveNews) => boolean, from?: number): Promise<void>
  /** Resolves once the task's steps include a step of this title. */
  step(taskId: string, title: string): Promise<void>
  /** The task's steps as last told. */
  steps(taskId: string): string[]
  moved(taskId: string, from?: number): Promise<void>
}

/** The stream's timers with each wait before a reopen over at once (the waits' own rules are stream.fake.test's). */
const reopenAtOnce: Timers = {
  set: (run, ms) => (ms < STALL_MS ? { soon: setImmediate(run) } : { late: setTimeout(run, ms) }),
  clear(handle) {
    const h = handle as { soon?: NodeJS.Immediate; late?: NodeJS.Timeout }
    if (h.soon) clearImmediate(h.soon)
    if (h.late) clearTimeout(h.late)
  }
}

function liveAccount(tuning: CursorStreamTuning = {}): Live {
  const news: LiveNews[] = []
  const waiters: { test: (n: LiveNews) => boolean; from: number; resolve: () => void }[] = []
  const account = openCursor(
    {
      key: KEY,
      account: 'me',
      baseUrl: fake.baseUrl,
      onLive(n) {
        news.push(n)
        for (const w of [...waiters]) {
          if (!w.test(n)) continue
          waiters.splice(waiters.indexOf(w), 1)
          w.resolve()
        }
      }
    },
    { timers: reopenAtOnce, ...tuning }
  )
  opened.push(account)
  const until = (test: (n: LiveNews) => boolean, from = 0) =>
    news.slice(from).some(test)
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ test, from, resolve }))
  const stepsNews = (taskId: string) =>
    news.flatMap((n) => (n.kind === 'steps' && n.taskId === taskId ? [n.steps] : []))
  return {
    account,
    news,
    until,
    step: (taskId, title) =>
      until((n) => n.kind === 'steps' && n.taskId === taskId && n.steps.some((s) => s.title === title)),
    steps: (taskId) => (stepsNews(taskId).at(-1) ?? []).map((s) => s.title ?? ''),
    moved: (taskId, from) => until((n) => n.kind === 'moved' && n.taskId === taskId, from)
  }
}

/** Lets the event loop turn until `check` holds (I/O the test cannot await otherwise); fails after many turns. */
async function turnsUntil(check: () => boolean, turns = 10_000): Promise<void> {
  for (let i = 0; i < turns; i++) {
    if (check()) return
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
  throw new Error('the condition never held')
}

const tasksOf = (p: AgentPoll) => {
  if (!p.changed) throw new Error('expected a changed list')
  return p.tasks
}

/** An agent whose run is RUNNING on the fake's clock. */
function runningAgent(script = 'run-forever', title = 'Live'): string {
  const { id } = fake.control.addTask({ title, script })
  return id
}

describe("a Cursor account's live steps", () => {
  it('follows a running run after a poll and tells its tool calls as steps, all so far each time', async () => {
    const id = runningAgent()
    fake.control.advance(2_000)
    const live = liveAccount()
    expect(live.account.isLive?.(id)).toBe(false)
    await live.account.poll()
    expect(live.account.isLive?.(id)).toBe(true)
    fake.control.advance(3_000)
    await live.step(id, 'read_file')
    expect(live.steps(id)).toEqual(['read_file'])
    fake.control.advance(7_000)
    await live.step(id, 'edit_file')
    expect(live.steps(id)).toEqual(['read_file', 'edit_file'])
    // The repeated CREATING and RUNNING a stream opens with are not news: the poll read them.
    expect(live.news.filter((n) => n.kind === 'moved')).toEqual([])

    const task = await live.account.task(id)
    expect(task.steps?.map((s) => [s.kind, s.title])).toEqual([
      ['tool_call', 'read_file'],
      ['tool_call', 'edit_file']
    ])
    expect(
      tasksOf(await live.account.poll())
        .find((t) => t.id === id)
        ?.steps?.map((s) => s.id)
    ).toEqual(['call-1', 'call-2'])
  })

  it('resumes a dropped stream from the last event, and tells no step twice', async () => {
    const id = runningAgent()
    fake.control.advance(2_000)
    const live = liveAccount()
    await live.account.poll()
    fake.control.advance(3_000)
    await live.step(id, 'read_file')
    expect(fake.control.dropStreams(fake.control.latestRunId(id))).toBe(1)
    // What happens while the stream is down arrives once it is reopened.
    fake.control.advance(20_000)
    await live.step(id, 'run_terminal_cmd')
    const told = live.news.filter((n) => n.kind === 'steps' && n.taskId === id)
    expect(told.map((n) => (n.kind === 'steps' ? n.steps.map((s) => s.id) : []))).toEqual([
      ['call-1'],
      ['call-1', 'call-2'],
      ['call-1', 'call-2', 'call-3']
    ])
    expect(live.account.isLive?.(id)).toBe(true)
  })

  it('leaves a run whose stream expired to polling, which still reads how it ends', async () => {
    const id = runningAgent()
    fake.control.advance(2_000)
    const live = liveAccount()
    await live.account.poll()
    const runId = fake.control.latestRunId(id)
    fake.control.expireStream(runId)
    fake.control.dropStreams(runId)
    // The stream's end asks for a poll, which reads the run from now on.
    await live.moved(id)
    expect(live.account.isLive?.(id)).toBe(false)
    await live.account.poll()
    expect(live.account.isLive?.(id)).toBe(false)
    expect(fake.control.openStreams()).toBe(0)
    fake.control.setTaskState(id, 'FINISHED')
    expect(tasksOf(await live.account.poll()).find((t) => t.id === id)?.status).toBe('completed')
  })

  it(`follows at most ${MAX_STREAMS} runs at once; a slot freed by a finished run goes to one polled`, async () => {
    const ids = [1, 2, 3, 4, 5].map((n) => runningAgent('run-forever', `Agent ${n}`))
    fake.control.advance(2_000)
    const live = liveAccount()
    await live.account.poll()
    const streamed = ids.filter((id) => live.account.isLive?.(id))
    const polled = ids.filter((id) => !live.account.isLive?.(id))
    expect(streamed).toHaveLength(MAX_STREAMS)
    fake.control.advance(3_000)
    await Promise.all(streamed.map((id) => live.step(id, 'read_file')))
    expect(fake.control.openStreams()).toBe(MAX_STREAMS)
    expect(polled.map((id) => live.steps(id))).toEqual([[], []])

    const done = streamed[0] as string
    const from = live.news.length
    fake.control.setTaskState(done, 'FINISHED')
    await live.moved(done, from)
    await live.account.poll()
    expect(live.account.isLive?.(done)).toBe(false)
    const next = polled.find((id) => live.account.isLive?.(id)) as string
    expect(next).toBeDefined()
    // Its stream starts from the run's beginning: the tool call it missed while polled arrives as a step.
    await live.step(next, 'read_file')
    expect(ids.filter((id) => live.account.isLive?.(id))).toHaveLength(MAX_STREAMS)
  })

  it("keeps a finished run's steps for its task until the agent's next run", async () => {
    const id = runningAgent('complete', 'Docs')
    fake.control.advance(2_000)
    const live = liveAccount()
    await live.account.poll()
    fake.control.advance(30_000)
    await live.moved(id)
    const finished = tasksOf(await live.account.poll()).find((t) => t.id === id)
    expect(finished?.status).toBe('completed')
    expect(live.account.isLive?.(id)).toBe(false)
    const kept = await live.account.task(id)
    expect(kept.steps?.map((s) => [s.kind, s.title])).toEqual([
      ['tool_call', 'read_file'],
      ['tool_call', 'edit_file'],
      ['tool_call', 'run_terminal_cmd'],
      ['result', 'Result after 30 s']
    ])

    await live.account.reply?.(id, 'Also add a changelog')
    await live.account.poll()
    expect((await live.account.task(id)).steps).toEqual([])
  })

  it('holds only the latest steps of a run, and says on the task how many earlier ones are not shown', async () => {
    const id = runningAgent()
    fake.control.advance(2_000)
    const live = liveAccount({ maxLiveSteps: 2 })
    await live.account.poll()
    fake.control.advance(20_000)
    await live.step(id, 'run_terminal_cmd')
    expect(live.news.map((n) => (n.kind === 'steps' ? n.steps.map((s) => s.id) : n.kind))).toEqual([
      ['call-1'],
      ['call-1', 'call-2'],
      ['live:earlier', 'call-2', 'call-3']
    ])
    const steps = (await live.account.task(id)).steps ?? []
    expect(steps.map((s) => [s.kind, s.title])).toEqual([
      ['earlier', '1 earlier step not shown'],
      ['tool_call', 'edit_file'],
      ['tool_call', 'run_terminal_cmd']
    ])
  })

  it('live off stops every stream and opens none; on again, the next poll resumes each after its last event', async () => {
    const id = runningAgent()
    fake.control.advance(2_000)
    const live = liveAccount()
    await live.account.poll()
    fake.control.advance(3_000)
    await live.step(id, 'read_file')
    live.account.setLive?.(false)
    expect(live.account.isLive?.(id)).toBe(false)
    await turnsUntil(() => fake.control.openStreams() === 0)
    const before = live.news.length
    // What happens while paused: a poll reads the run, and no stream is opened for it.
    fake.control.advance(7_000)
    expect(tasksOf(await live.account.poll()).find((t) => t.id === id)?.status).toBe('running')
    expect(live.account.isLive?.(id)).toBe(false)
    expect(fake.control.openStreams()).toBe(0)
    expect(live.news.slice(before)).toEqual([])

    live.account.setLive?.(true)
    await live.account.poll()
    expect(live.account.isLive?.(id)).toBe(true)
    await live.step(id, 'edit_file')
    // Resumed after call-1: it is not told again, and the stream's repeated statuses are no news either.
    expect(live.news.map((n) => (n.kind === 'steps' ? n.steps.map((s) => s.id) : n.kind))).toEqual([
      ['call-1'],
      ['call-1', 'call-2']
    ])
  })

  it('a stream given up while offline is followed again once live is back on; an expired one stays polled', async () => {
    const offline = runningAgent('run-forever', 'Offline')
    const expired = runningAgent('run-forever', 'Expired')
    fake.control.advance(2_000)
    const offlineRun = fake.control.latestRunId(offline)
    fake.control.expireStream(fake.control.latestRunId(expired))
    // Every attempt at the stream fails as it would offline: the socket goes before an answer.
    const stream = `/v1/agents/${offline}/runs/${offlineRun}/stream`
    fake.control.setFaults({ rules: [{ kind: 'drop', method: 'GET', pathPrefix: stream }] })
    const live = liveAccount()
    await live.account.poll()
    await Promise.all([live.moved(offline), live.moved(expired)])
    await live.account.poll()
    expect([live.account.isLive?.(offline), live.account.isLive?.(expired)]).toEqual([false, false])

    // The watch pauses (offline), the network comes back, the watch resumes.
    live.account.setLive?.(false)
    fake.control.clearFaults()
    live.account.setLive?.(true)
    await live.account.poll()
    expect([live.account.isLive?.(offline), live.account.isLive?.(expired)]).toEqual([true, false])
    fake.control.advance(3_000)
    await live.step(offline, 'read_file')
    expect(fake.control.openStreams()).toBe(1)
  })

  it('opens no stream where nobody listens (opened without onLive, as the command reads once)', async () => {
    const id = runningAgent()
    fake.control.advance(2_000)
    const account = openCursor({ key: KEY, account: 'me', baseUrl: fake.baseUrl })
    opened.push(account)
    expect(tasksOf(await account.poll()).find((t) => t.id === id)?.status).toBe('running')
    expect(account.isLive?.(id)).toBe(false)
    expect(fake.control.openStreams()).toBe(0)
  })

  it('closing lets every stream go: the pool of sockets is closed and the fake holds no stream', async () => {
    const ids = [1, 2].map((n) => runningAgent('run-forever', `Agent ${n}`))
    fake.control.advance(2_000)
    const live = liveAccount()
    await live.account.poll()
    fake.control.advance(3_000)
    await Promise.all(ids.map((id) => live.step(id, 'read_file')))
    expect(fake.control.openStreams()).toBe(2)
    await live.account.close()
    expect(ids.map((id) => live.account.isLive?.(id))).toEqual([false, false])
    // The undici pool closes only once no request is left on it: no stream's socket is held.
    expect(openPoolCount()).toBe(0)
    // The fake sees each socket's end as its own I/O event comes.
    await turnsUntil(() => fake.control.openStreams() === 0)
    const before = live.news.length
    fake.control.advance(20_000)
    await live.account.poll().catch(() => undefined)
    expect(live.news.slice(before)).toEqual([])
  })
})
