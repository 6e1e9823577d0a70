// GitHub requests per hour: one simulated hour of a GitHub account with 50 agent tasks, 5 of them running, polled as the
// app polls it: the board (`AgentWatch`, core/providers/board.ts) over the adapter the app opens
// (`openAgentAccount('github', …)`), at the app's active interval with its jitter, never sooner than the account's
// etiquette (`waitMs()`), over real HTTP against a loopback stand-in that answers as GitHub documents: ETags (a 304 is
// not counted against the primary limit), `X-Poll-Interval`, `X-RateLimit-*`. Time is a ManualClock shared by both
// sides: the hour takes a second or two, with no real waiting.
import type { ServerResponse } from 'node:http'
import { AgentWatch } from '../src/core/providers/board'
import { openAgentAccount } from '../src/core/providers/registry'
import { json, type Received, startTestServer } from '../src/core/providers/test-server'
import { ManualClock } from '../src/core/util/clock'
import { createLimiter } from '../src/core/util/limiter'
import { LIST_TASKS } from '../src/reference-service/github/docs-examples'
import { DEFAULT_POLLING_PREFS } from '../src/shared/settings'
import { seededRandom } from './random'
import { type BenchOptions, check, type MeasureResult } from './result'
import { round } from './stats'

/** GitHub's primary limit for a user's token (personal access token): 5,000 requests an hour. */
export const USER_TOKEN_LIMIT_PER_HOUR = 5_000
/** The poll interval the stand-in sends. The Agent tasks pages give no figure; the app's active interval is 5 s too. */
const POLL_INTERVAL_S = 5
const HOUR_MS = 3_600_000
const START = Date.parse('2026-03-10T09:00:00Z')
const TASKS = 50
const RUNNING = 5
/** A running task ends and another starts this often (simulated): a busy hour, each change a full 200. */
const CHANGE_EVERY_MS = 60_000

interface Task {
  id: string
  state: string
  updated_at: string
}

/** The account's tasks: `RUNNING` in progress, the rest ended; every change ends the oldest running one and starts a
 * new task in place of the oldest ended one, so the list stays 50 long and 5 run. */
function makeAccount() {
  let serial = 0
  const iso = (at: number) => new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z')
  const task = (state: string, at: number): Task => ({
    id: `bench-task-${String(++serial).padStart(4, '0')}`,
    state,
    updated_at: iso(at)
  })
  const tasks: Task[] = []
  for (let i = 0; i < TASKS; i++)
    tasks.push(task(i < RUNNING ? 'in_progress' : i % 7 === 0 ? 'failed' : 'completed', START - i * 60_000))
  let version = 0
  return {
    tasks,
    get etag() {
      return `W/"bench-${version}"`
    },
    change(at: number, step: number) {
      const running = tasks.filter((t) => t.state === 'in_progress')
      const ending = running[0] as Task
      ending.state = step % 6 === 0 ? 'waiting_for_user' : step % 5 === 0 ? 'failed' : 'completed'
      ending.updated_at = iso(at)
      // A task that waited is answered on GitHub's page and runs again at the next change: its word moves twice.
      const waited = tasks.find((t) => t.state === 'waiting_for_user' && t !== ending)
      if (waited) {
        waited.state = 'completed'
        waited.updated_at = iso(at)
      }
      const ended = tasks.filter((t) => t.state !== 'in_progress' && t.state !== 'waiting_for_user')
      const oldest = ended.reduce((a, b) => (b.updated_at < a.updated_at ? b : a))
      tasks.splice(tasks.indexOf(oldest), 1)
      tasks.unshift(task('in_progress', at))
      version += 1
    },
    body() {
      const example = LIST_TASKS.tasks[0] as Record<string, unknown>
      return {
        tasks: tasks.map((t) => ({
          ...example,
          ...t,
          name: `Task ${t.id}`,
          html_url: `https://github.com/octocat/hello-world/copilot/tasks/${t.id}`
        }))
      }
    }
  }
}

interface HourResult {
  requests: number
  notModified: number
  counted: number
  /** Polls that ended in an error (a refusal by the pacer included): none expected. */
  errors: number
  polls: number
  changesTold: number
  minGapMs: number
  lastRemaining: number | null
}

/** One simulated hour; `etags` off makes the stand-in send none (what the same hour would cost without them). */
async function simulateHour(etags: boolean): Promise<HourResult> {
  const clock = new ManualClock(START)
  const account = makeAccount()
  let counted = 0
  let notModified = 0
  const times: number[] = []
  const resetAt = Math.floor((START + HOUR_MS) / 1000)
  const server = await startTestServer()
  server.handle((req: Received, res: ServerResponse) => {
    times.push(clock.now())
    const limits = (spent: number) => ({
      'x-poll-interval': String(POLL_INTERVAL_S),
      'x-ratelimit-limit': String(USER_TOKEN_LIMIT_PER_HOUR),
      'x-ratelimit-remaining': String(USER_TOKEN_LIMIT_PER_HOUR - spent),
      'x-ratelimit-used': String(spent),
      'x-ratelimit-reset': String(resetAt),
      'x-ratelimit-resource': 'core'
    })
    if (!req.url.startsWith('/agents/tasks?')) return json(res, 404, { message: 'Not Found' }, limits(++counted))
    if (etags && req.headers['if-none-match'] === account.etag) {
      notModified += 1
      res.writeHead(304, { etag: account.etag, ...limits(counted) })
      return res.end()
    }
    counted += 1
    json(res, 200, account.body(), { ...(etags ? { etag: account.etag } : {}), ...limits(counted) })
  })
  let polls = 0
  let errors = 0
  let changesTold = 0
  const watch = new AgentWatch({
    connectionId: 'bench',
    account: openAgentAccount('github', {
      key: 'github_pat_11BENCH0requests0per0hour',
      account: 'bench',
      baseUrl: server.url,
      now: () => clock.now()
    }),
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
      if (watch.health.state === 'error') errors += 1
    },
    onError: (context, error) => {
      throw new Error(`${context}: ${String(error)}`)
    }
  })
  /** A poll has ended once the board has set its next timer (the clock does not move while it runs). */
  const settled = async (): Promise<void> => {
    while (clock.pending === 0) await new Promise<void>((resolve) => setImmediate(resolve))
  }
  let nextChange = START + CHANGE_EVERY_MS
  let step = 0
  try {
    watch.start()
    await settled()
    for (let at = clock.nextAt(); at !== null && at < START + HOUR_MS; at = clock.nextAt()) {
      for (; nextChange <= at; nextChange += CHANGE_EVERY_MS) account.change(nextChange, ++step)
      await clock.advance(at - clock.now())
      await settled()
    }
  } finally {
    await watch.close()
    await server.close()
  }
  const gaps = times.slice(1).map((t, i) => t - (times[i] as number))
  return {
    requests: times.length,
    notModified,
    counted,
    errors,
    polls,
    changesTold,
    minGapMs: gaps.length > 0 ? Math.min(...gaps) : Number.POSITIVE_INFINITY,
    lastRemaining: USER_TOKEN_LIMIT_PER_HOUR - counted
  }
}

export async function runGithubRequests(options: BenchOptions): Promise<MeasureResult> {
  options.log(
    `github-requests: the board over ${TASKS} tasks (${RUNNING} running), X-Poll-Interval ${POLL_INTERVAL_S} s, active interval ${DEFAULT_POLLING_PREFS.activeIntervalMs / 1000} s, 1 simulated hour`
  )
  const hour = await simulateHour(true)
  const without = await simulateHour(false)
  const allowedByInterval = HOUR_MS / (POLL_INTERVAL_S * 1000)
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
      check('min_gap_s', hour.minGapMs / 1000, '>=', POLL_INTERVAL_S)
    ],
    details: {
      fixture: { tasks: TASKS, running: RUNNING, change_every_s: CHANGE_EVERY_MS / 1000 },
      poll_interval_s: POLL_INTERVAL_S,
      active_interval_ms: DEFAULT_POLLING_PREFS.activeIntervalMs,
      polls_allowed_by_interval: allowedByInterval,
      polls_made: hour.polls,
      polls_in_error: hour.errors,
      changes_told: hour.changesTold,
      remaining_at_end: hour.lastRemaining,
      without_etags: {
        requests_per_hour: without.requests,
        counted_per_hour: without.counted,
        share_of_limit_percent: round((without.counted / USER_TOKEN_LIMIT_PER_HOUR) * 100, 2),
        changes_told: without.changesTold
      }
    },
    notes
  }
}
