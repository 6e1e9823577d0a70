// GitHub requests per hour: one simulated hour of a GitHub account with 50 agent tasks, 5 of them running, polled as the
// app polls it: the board (`AgentWatch`, core/providers/board.ts) over the adapter the app opens
// (`openAgentAccount('github', …)`), at the app's active interval with its jitter, never sooner than the account's
// etiquette (`waitMs()`), over real HTTP against the reference service's GitHub fake (ETags with free 304s,
// `X-Poll-Interval: 5`, `X-RateLimit-*` for the one user). Time is simulated on both sides (the board's ManualClock,
// the fake's manual clock), moved together: the hour takes seconds, with no real waiting.
import { AgentWatch } from '../src/core/providers/board'
import { GITHUB_API_VERSION } from '../src/core/providers/github/client'
import { openAgentAccount } from '../src/core/providers/registry'
import { ManualClock } from '../src/core/util/clock'
import { createLimiter } from '../src/core/util/limiter'
import { POLL_INTERVAL_SECONDS, RATE_LIMIT, startGithubFake } from '../src/reference-service/github/fake'
import { DEFAULT_POLLING_PREFS } from '../src/shared/settings'
import { seededRandom } from './random'
import { type BenchOptions, check, type MeasureResult } from './result'
import { round } from './stats'

/** GitHub's primary limit for a user's token (personal access token): 5,000 requests an hour, as the fake keeps it. */
export const USER_TOKEN_LIMIT_PER_HOUR = RATE_LIMIT
const KEY = 'github_pat_11BENCH0requests0per0hour'
const HOUR_MS = 3_600_000
const START = '2026-03-10T09:00:00.000Z'
const TASKS = 50
const RUNNING = 5
/** A running task ends and an ended one runs again this often (simulated): a busy hour, each change a full 200. */
const CHANGE_EVERY_MS = 60_000

interface HourResult {
  requests: number
  notModified: number
  counted: number
  errors: number
  polls: number
  changesTold: number
  minGapMs: number
}

/** One simulated hour of the board against the fake. */
async function simulateHour(): Promise<HourResult> {
  const startMs = Date.parse(START)
  const clock = new ManualClock(startMs)
  const fake = await startGithubFake({ apiKey: KEY, manualClock: true, startTime: START })
  const running: string[] = []
  const ended: string[] = []
  for (let i = 0; i < TASKS; i++) {
    const agoMs = (i + 1) * 60_000
    if (i < RUNNING) running.push(fake.control.addTask({ title: `Task ${i}`, state: 'in_progress', agoMs }).id)
    else ended.push(fake.control.addTask({ title: `Task ${i}`, state: i % 7 === 0 ? 'failed' : 'completed', agoMs }).id)
  }
  /** The oldest running task ends (now and then waiting for the user, or failing); the oldest ended one runs again. */
  const change = (step: number): void => {
    const ending = running.shift() as string
    fake.control.setTaskState(ending, step % 6 === 0 ? 'waiting_for_user' : step % 5 === 0 ? 'failed' : 'completed')
    const again = ended.shift() as string
    fake.control.setTaskState(again, 'in_progress')
    running.push(again)
    ended.push(ending)
  }
  let polls = 0
  let errors = 0
  let changesTold = 0
  const pollTimes: number[] = []
  const watch = new AgentWatch({
    connectionId: 'bench',
    account: openAgentAccount('github', { key: KEY, account: 'bench', baseUrl: fake.baseUrl, now: () => clock.now() }),
    polling: DEFAULT_POLLING_PREFS,
    clock,
    random: seededRandom(36),
    limiter: createLimiter(DEFAULT_POLLING_PREFS.maxConcurrency),
    memory: null,
    save: async () => undefined,
    muted: () => false,
    onRound: (round) => {
      changesTold += round.events.length
    },
    onChange: () => {
      polls += 1
      pollTimes.push(clock.now())
      if (watch.health.state === 'error') errors += 1
    },
    onError: (context, error) => {
      throw new Error(`${context}: ${String(error)}`)
    }
  })
  /** A poll has ended once the board has set its next timer (neither clock moves while it runs). */
  const settled = async (): Promise<void> => {
    while (clock.pending === 0) await new Promise<void>((resolve) => setImmediate(resolve))
  }
  let nextChange = startMs + CHANGE_EVERY_MS
  let step = 0
  /** The fake's clock, moved to `at` (it holds no timers: its tasks' states are read at each request). */
  let fakeAt = startMs
  const moveFake = (at: number): void => {
    fake.control.advance(at - fakeAt)
    fakeAt = at
  }
  try {
    watch.start()
    await settled()
    for (let at = clock.nextAt(); at !== null && at < startMs + HOUR_MS; at = clock.nextAt()) {
      for (; nextChange <= at; nextChange += CHANGE_EVERY_MS) {
        moveFake(nextChange)
        change(++step)
      }
      moveFake(at)
      await clock.advance(at - clock.now())
      await settled()
    }
    const requests = fake.control.stats().requests
    // What the hour counted against the limit, as the fake reports it to a last, unconditional request (itself 1).
    const res = await fetch(`${fake.baseUrl}/agents/tasks?per_page=100`, {
      headers: { authorization: `Bearer ${KEY}`, 'x-github-api-version': GITHUB_API_VERSION }
    })
    await res.arrayBuffer()
    const counted = Number(res.headers.get('x-ratelimit-used')) - 1
    const gaps = pollTimes.slice(1).map((t, i) => t - (pollTimes[i] as number))
    return {
      requests,
      notModified: requests - counted,
      counted,
      errors,
      polls,
      changesTold,
      minGapMs: gaps.length > 0 ? Math.min(...gaps) : Number.POSITIVE_INFINITY
    }
  } finally {
    await watch.close()
    await fake.close()
  }
}

export async function runGithubRequests(options: BenchOptions): Promise<MeasureResult> {
  options.log(
    `github-requests: the board over ${TASKS} tasks (${RUNNING} running), X-Poll-Interval ${POLL_INTERVAL_SECONDS} s, active interval ${DEFAULT_POLLING_PREFS.activeIntervalMs / 1000} s, 1 simulated hour`
  )
  const hour = await simulateHour()
  const allowedByInterval = HOUR_MS / (POLL_INTERVAL_SECONDS * 1000)
  const share = hour.counted / USER_TOKEN_LIMIT_PER_HOUR
  const notes = [
    `${hour.requests} requests in the hour, ${hour.notModified} answered 304 (free), ${hour.counted} counted against the limit of ${USER_TOKEN_LIMIT_PER_HOUR}/h: ${round(share * 100, 2)} % of it; X-Poll-Interval allows at most ${allowedByInterval} polls of the list an hour.`
  ]
  if (hour.errors > 0) notes.push(`${hour.errors} polls ended in an error (a refusal by the pacer included).`)
  return {
    figures: {
      requests_per_hour: hour.requests,
      not_modified_per_hour: hour.notModified,
      counted_per_hour: hour.counted,
      rate_limit_per_hour: USER_TOKEN_LIMIT_PER_HOUR,
      share_of_limit_percent: round(share * 100, 2),
      min_gap_s: round(hour.minGapMs / 1000, 2)
    },
    checks: [
      check('requests_per_hour', hour.requests, '<=', allowedByInterval),
      check('counted_per_hour', hour.counted, '<=', USER_TOKEN_LIMIT_PER_HOUR),
      check('min_gap_s', hour.minGapMs / 1000, '>=', POLL_INTERVAL_SECONDS)
    ],
    details: {
      fixture: { tasks: TASKS, running: RUNNING, change_every_s: CHANGE_EVERY_MS / 1000 },
      poll_interval_s: POLL_INTERVAL_SECONDS,
      active_interval_ms: DEFAULT_POLLING_PREFS.activeIntervalMs,
      polls_allowed_by_interval: allowedByInterval,
      polls_made: hour.polls,
      polls_in_error: hour.errors,
      changes_told: hour.changesTold,
      remaining_at_end: USER_TOKEN_LIMIT_PER_HOUR - hour.counted,
      // Without ETags every request would count.
      counted_without_etags: hour.requests,
      share_of_limit_without_etags_percent: round((hour.requests / USER_TOKEN_LIMIT_PER_HOUR) * 100, 2)
    },
    notes
  }
}
