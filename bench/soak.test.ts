// The soak's property in `npm test` (its figures are in `npm run bench -- --only soak`): a short
// simulated day against the reference service, with a graceful restart after a down time and a
// SIGKILL inside a write of state.json, tells every task's end exactly once; with forwarding, and a
// second SIGKILL while a forward is on its way, each end is delivered to the webhook once. And the
// counts themselves: a repeat, a miss, a task the service never ended and a wrong outcome are each found.
import { describe, expect, it } from 'vitest'
import type { Notification } from '../src/core/notify/policy'
import { DEFAULT_POLLING_PREFS } from '../src/shared/settings'
import { countSoak } from './soak-count'
import { runSoakDay } from './soak-day'
import { countForwards } from './soak-receiver'

const MINUTE = 60_000

describe('countSoak', () => {
  const task = (taskId: string, outcome: Notification['outcome']): Notification => ({
    kind: 'task',
    title: '',
    body: '',
    taskId,
    outcome
  })

  it('counts each task once per notification that tells of it, a summary for each task it names', () => {
    const count = countSoak(
      [
        { taskId: 'a', to: 'completed' },
        { taskId: 'b', to: 'failed' },
        { taskId: 'c', to: 'cancelled' }
      ],
      [
        task('a', 'completed'),
        { kind: 'away', title: 'While you were away', body: '', taskIds: ['a', 'b'] },
        { kind: 'summary', title: '', body: '', taskIds: ['a'] },
        task('d', 'failed'),
        task('b', 'completed'),
        { kind: 'budget', title: '', body: '', projectId: 'p' }
      ]
    )
    expect(count).toEqual({
      expected: 3,
      told: 3,
      missed: ['c'],
      repeated: ['a', 'a', 'b'],
      unexpected: ['d'],
      wrongOutcome: ['b']
    })
  })

  it('finds nothing wrong when each end is told once', () => {
    const count = countSoak([{ taskId: 'a', to: 'failed' }], [task('a', 'failed')])
    expect(count).toMatchObject({ missed: [], repeated: [], unexpected: [], wrongOutcome: [] })
  })
})

/** An hour and a half of 5 projects, a restart every hour after 10 min down, and a kill mid-write. */
const SHORT_DAY = {
  hours: 1.5,
  projects: 5,
  tasks: 24,
  runningAtStart: 1,
  restartEveryMs: 60 * MINUTE,
  downtimeEvery: 1,
  downtimeMs: 10 * MINUTE,
  killArmAtMs: 15 * MINUTE,
  killDowntimeMs: 2 * MINUTE,
  polling: DEFAULT_POLLING_PREFS,
  seed: 4
} as const

it(
  'a short day with a restart after a down time and a kill mid-write: every end told once, the files readable',
  // A safety net, not a measure: after the kill the next writer waits out the lock's stale time (lock.ts).
  { timeout: 120_000 },
  async () => {
    const day = await runSoakDay(SHORT_DAY)
    const count = countSoak(
      day.transitions,
      day.notifications.map((n) => n.notification)
    )
    expect(day.restarts.map((r) => [r.kind, r.filesReadable])).toEqual([
      ['kill', true],
      ['graceful', true]
    ])
    expect(day.finalFilesReadable).toBe(true)
    expect(day.appErrors).toEqual([])
    expect(day.stillRunning).toBe(0)
    expect(count.expected).toBeGreaterThan(15)
    expect(day.notifications.some((n) => n.notification.kind === 'away')).toBe(true)
    expect(count).toMatchObject({ missed: [], repeated: [], unexpected: [], wrongOutcome: [] })
  }
)

describe('countForwards', () => {
  const got = (key: string, taskId: string, answered = true) => ({ key, taskId, event: 'failed', answered })

  it('finds a miss, the same key delivered twice, one task under two keys, a task never ended, and the resend after a cut', () => {
    const count = countForwards(
      [{ taskId: 'a' }, { taskId: 'b' }, { taskId: 'c' }, { taskId: 'd' }],
      [
        got('k1', 'a'),
        got('k1', 'a'),
        got('k2', 'b'),
        got('k3', 'b'),
        got('k4', 'c', false),
        got('k4', 'c'),
        got('k5', 'x')
      ]
    )
    expect(count).toEqual({ missed: ['d'], repeated: ['a', 'b'], unexpected: ['x'], resentAfterKill: 1, delivered: 6 })
  })
})

it(
  'a short day forwarding every end, killed once mid-write and once mid-send: each end delivered once',
  { timeout: 300_000 },
  async () => {
    const day = await runSoakDay({
      ...SHORT_DAY,
      forward: { killArmAtMs: 35 * MINUTE }
    })
    expect(day.restarts.map((r) => r.kind)).toEqual(['kill', 'kill-mid-send', 'graceful'])
    expect(day.appErrors).toEqual([])
    const forwards = countForwards(day.transitions, day.forwards ?? [])
    expect(day.transitions.length).toBeGreaterThan(15)
    expect(forwards).toMatchObject({ missed: [], repeated: [], unexpected: [], resentAfterKill: 1 })
    expect(forwards.delivered).toBe(day.transitions.length)
  }
)
