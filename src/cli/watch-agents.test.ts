// The command's watch of an agent account on the monitors' schedule (core/monitor/scheduler.ts `nextDelay`), its clock
// injected: a failed poll backs off, doubling from the active interval, and a good one starts again from it.
import { describe, expect, it } from 'vitest'
import { ServiceError } from '../core/client'
import type { AgentAccount, AgentPoll } from '../core/providers/registry'
import type { ProviderStep, ProviderTask } from '../shared/provider'
import type { PollingPrefs } from '../shared/settings'
import { type LiveFeed, watchAgentAccount } from './watch-agents'

const POLLING: PollingPrefs = { activeIntervalMs: 2_000, idleIntervalMs: 60_000, maxConcurrency: 4 }

const task = (status: ProviderTask['status']): ProviderTask => ({
  id: 't1',
  title: 'Dark mode',
  status,
  serviceStatus: status,
  waiting: null,
  links: { page: null, pullRequests: [], preview: null },
  project: null,
  createdAt: null,
  updatedAt: '2026-03-01T09:00:00Z',
  costs: []
})

type Answer = AgentPoll | ServiceError

/** An account whose polls answer in turn from `answers`, asking `waitMs` of the etiquette. */
function account(answers: Answer[], waitMs = () => 0): AgentAccount {
  return {
    descriptor: {
      kind: 'fake',
      displayName: 'Fake',
      defaultBaseUrl: 'https://fake.example',
      keyPage: 'https://fake.example/keys',
      capabilities: {
        steps: false,
        cost: false,
        publish: false,
        projects: false,
        approve: false,
        reply: false,
        startTask: false
      }
    },
    poll: async () => {
      const next = answers.shift()
      if (next === undefined) throw new Error('no more answers')
      if (next instanceof ServiceError) throw next
      return next
    },
    task: () => Promise.reject(new Error('not asked')),
    waitMs,
    checkKey: () => Promise.resolve(),
    close: () => Promise.resolve()
  }
}

/** Runs the watch until its answers run out; the waits it asked of its clock, and the retries it said. */
async function waitsOf(answers: Answer[], waitMs?: () => number): Promise<{ waits: number[]; retries: string[] }> {
  const stop = new AbortController()
  const waits: number[] = []
  const retries: string[] = []
  let now = Date.parse('2026-03-01T09:00:00Z')
  const polls = answers.length
  await watchAgentAccount({
    connection: { id: 'c1', name: 'Fake', baseUrl: 'https://fake.example', publishingDomain: '', service: 'fake' },
    account: account(answers, waitMs),
    polling: POLLING,
    random: () => 0.5, // No jitter: the delays themselves are compared.
    now: () => new Date(now),
    sleep: async (ms) => {
      waits.push(ms)
      now += ms
      if (waits.length === polls) stop.abort()
    },
    tell: () => undefined,
    retrying: (message) => retries.push(message),
    signal: stop.signal
  })
  return { waits, retries }
}

const down = () => new ServiceError('server', 'The service failed (HTTP 503).', { status: 503 })
const running: AgentPoll = { changed: true, tasks: [task('running')] }
const ended: AgentPoll = { changed: true, tasks: [task('completed')] }

describe('watch of an agent account: its schedule', () => {
  it('a failed poll backs off, doubling from the active interval; a good one starts again from it', async () => {
    const { waits, retries } = await waitsOf([down(), down(), down(), down(), running, down(), running, ended])
    expect(waits).toEqual([2_000, 4_000, 8_000, 16_000, 2_000, 2_000, 2_000, 60_000])
    expect(retries).toHaveLength(5)
  })

  it('the backoff stops at its cap', async () => {
    const { waits } = await waitsOf(Array.from({ length: 12 }, down))
    expect(waits.at(-1)).toBe(5 * 60_000)
    expect(Math.max(...waits)).toBe(5 * 60_000)
  })

  it("a limit's Retry-After is a floor, and so is the service's etiquette", async () => {
    const limited = new ServiceError('rate_limited', 'Slow down.', { status: 429, retryAfterMs: 30_000 })
    expect((await waitsOf([limited, running])).waits).toEqual([Math.round(30_000 * 1.05), 2_000])
    expect((await waitsOf([running, ended], () => 10_000)).waits).toEqual([10_000, 60_000])
  })

  it('a rejected key ends the watch with its words, polling no more', async () => {
    const answers: Answer[] = [new ServiceError('auth', 'The key was rejected.', { status: 401 }), running]
    const waits: number[] = []
    const rejection = await watchAgentAccount({
      connection: { id: 'c1', name: 'Fake', baseUrl: 'https://fake.example', publishingDomain: '', service: 'fake' },
      account: account(answers),
      polling: POLLING,
      random: () => 0.5,
      now: () => new Date(),
      sleep: async (ms) => void waits.push(ms),
      tell: () => undefined,
      retrying: () => undefined,
      signal: new AbortController().signal
    })
    expect(rejection).toBe('The key was rejected.')
    expect(waits).toEqual([])
    expect(answers).toEqual([running])
  })
})

describe('watch of an agent account: what its stream tells', () => {
  const step = (id: string, status: string): ProviderStep => ({
    id,
    kind: 'tool_call',
    title: id,
    detail: null,
    at: null,
    status: null,
    serviceStatus: status
  })

  /** Runs the watch over `answers`; `onSleep(n, feed)` plays the stream during the n-th wait (from 1). */
  async function watchLive(answers: Answer[], onSleep: (n: number, feed: LiveFeed) => void) {
    const stop = new AbortController()
    const feed: LiveFeed = { on: null }
    const waits: { ms: number; woken: boolean }[] = []
    const told: string[] = []
    await watchAgentAccount({
      connection: { id: 'c1', name: 'Fake', baseUrl: 'https://fake.example', publishingDomain: '', service: 'fake' },
      account: account(answers),
      polling: POLLING,
      random: () => 0.5,
      now: () => new Date('2026-03-01T09:00:00Z'),
      // Each wait passes at once; whether the stream's news woke it is read as it plays.
      sleep: async (ms, signal) => {
        onSleep(waits.length + 1, feed)
        waits.push({ ms, woken: signal?.aborted === true })
        if (answers.length === 0) stop.abort()
      },
      tell: () => undefined,
      retrying: () => undefined,
      live: feed,
      step: (taskId, s, task) => told.push(`${taskId} ${s.id} ${s.serviceStatus} ${task?.title ?? '?'}`),
      signal: stop.signal
    })
    return { waits, told, feed }
  }

  it('each step once, again when its status changes; a shorter list is another run, told afresh', async () => {
    const { told } = await watchLive([running, running], (n, feed) => {
      if (n !== 1) return
      feed.on?.({ kind: 'steps', taskId: 't1', steps: [step('a', 'running')] })
      feed.on?.({ kind: 'steps', taskId: 't1', steps: [step('a', 'completed'), step('b', 'running')] })
      feed.on?.({ kind: 'steps', taskId: 't1', steps: [step('a', 'completed'), step('b', 'running')] })
      feed.on?.({ kind: 'steps', taskId: 't1', steps: [step('a', 'running')] })
      feed.on?.({ kind: 'moved', taskId: 't1' })
    })
    expect(told).toEqual([
      't1 a running Dark mode',
      't1 a completed Dark mode',
      't1 b running Dark mode',
      't1 a running Dark mode'
    ])
  })

  it('a move wakes the wait under way, but never one backing off; the feed is let go at the end', async () => {
    const { waits, feed } = await watchLive([running, down(), running], (n, f) => {
      if (n <= 2) f.on?.({ kind: 'moved', taskId: 't1' })
    })
    expect(waits).toEqual([
      { ms: 2_000, woken: true },
      { ms: 2_000, woken: false },
      { ms: 2_000, woken: false }
    ])
    expect(feed.on).toBeNull()
  })
})
