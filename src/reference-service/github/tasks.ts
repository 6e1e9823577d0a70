// The GitHub fake's tasks: each a record built on the documentation's example (docs-examples.ts), its state moving on
// the clock through a script, with one session that follows it ("a task's state is derived from its most recent
// session").
import { type Beat, catchUp, moveTo, type Scripted, scripted } from '../agent-fake'
import { GET_TASK } from './docs-examples'

export const GITHUB_STATES = [
  'queued',
  'in_progress',
  'completed',
  'failed',
  'idle',
  'waiting_for_user',
  'timed_out',
  'cancelled'
] as const
export type GithubState = (typeof GITHUB_STATES)[number]

const S = 1_000
const start = (work: number, end: GithubState): Beat<GithubState>[] => [
  { state: 'queued', afterMs: 0 },
  { state: 'in_progress', afterMs: 4 * S },
  { state: end, afterMs: work }
]

/** Every state is the end of one script; `wait` stops at waiting_for_user, `run` and `queue` never end. */
export const GITHUB_SCRIPTS: Record<string, readonly Beat<GithubState>[]> = {
  complete: start(40 * S, 'completed'),
  wait: start(15 * S, 'waiting_for_user'),
  fail: start(30 * S, 'failed'),
  time_out: start(60 * S, 'timed_out'),
  cancel: start(20 * S, 'cancelled'),
  idle: start(25 * S, 'idle'),
  run: [
    { state: 'queued', afterMs: 0 },
    { state: 'in_progress', afterMs: 4 * S }
  ],
  queue: [{ state: 'queued', afterMs: 0 }]
}

const ENDED: ReadonlySet<GithubState> = new Set(['completed', 'failed', 'idle', 'timed_out', 'cancelled'])

export interface GithubTaskRecord extends Scripted<GithubState> {
  id: string
  sessionId: string
  title: string
  owner: string
  repo: string
  repositoryId: number
  createdAt: number
  startedAt: number | null
  pull: number | null
}

const { sessions, ...TASK_EXAMPLE } = GET_TASK
const SESSION_EXAMPLE = sessions[0] as (typeof sessions)[number]
const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z')

/** The example's ids with a counter at the end: stable from run to run. */
const numbered = (example: string, n: number): string => `${example.slice(0, 24)}${n.toString(16).padStart(12, '0')}`

export class GithubTasks {
  private readonly records = new Map<string, GithubTaskRecord>()
  private readonly repositories = new Map<string, number>()
  private count = 0

  constructor(private readonly now: () => number) {}

  private enter = (record: GithubTaskRecord, state: GithubState, at: number): void => {
    if (state === 'in_progress' && record.startedAt === null) record.startedAt = at
    if (state === 'completed' && record.pull === null) record.pull = 41 + this.records.size
  }

  add(input: {
    title: string
    repository: string
    beats: readonly Beat<GithubState>[]
    agoMs: number
  }): GithubTaskRecord {
    const [owner, repo] = input.repository.split('/')
    if (!owner || !repo) throw new Error('"repository" must be "owner/repo".')
    const key = `${owner}/${repo}`
    const repositoryId = this.repositories.get(key) ?? 1296269 + this.repositories.size
    this.repositories.set(key, repositoryId)
    const n = ++this.count
    const createdAt = this.now() - input.agoMs
    const record: GithubTaskRecord = {
      ...scripted(createdAt, input.beats),
      id: numbered(TASK_EXAMPLE.id, n),
      sessionId: numbered(SESSION_EXAMPLE.id, n),
      title: input.title,
      owner,
      repo,
      repositoryId,
      createdAt,
      startedAt: null,
      pull: null
    }
    this.enter(record, record.state, record.changedAt)
    this.records.set(record.id, record)
    return record
  }

  /** Every record brought up to now. */
  all(): GithubTaskRecord[] {
    const now = this.now()
    for (const r of this.records.values()) catchUp(r, now, this.enter)
    return [...this.records.values()]
  }

  get(id: string): GithubTaskRecord | undefined {
    const r = this.records.get(id)
    if (r) catchUp(r, this.now(), this.enter)
    return r
  }

  setState(id: string, state: GithubState): GithubTaskRecord | undefined {
    const r = this.get(id)
    if (r) moveTo(r, state, this.now(), this.enter)
    return r
  }
}

/** A task as GET /agents/repos/{owner}/{repo}/tasks lists it: the documentation's example with this record's values. */
export function wireTask(r: GithubTaskRecord, apiUrl: string): Record<string, unknown> {
  const path = `${encodeURIComponent(r.owner)}/${encodeURIComponent(r.repo)}`
  return {
    ...TASK_EXAMPLE,
    id: r.id,
    url: `${apiUrl}/agents/repos/${path}/tasks/${r.id}`,
    html_url: `https://github.com/${path}/copilot/tasks/${r.id}`,
    name: r.title,
    repository: { id: r.repositoryId },
    state: r.state,
    session_count: 1,
    artifacts: r.pull === null ? [] : [{ provider: 'github', type: 'pull', data: { id: r.pull } }],
    created_at: iso(r.createdAt),
    updated_at: iso(r.changedAt)
  }
}

/** A task with its one session, as GET /agents/tasks/{task_id} answers. */
export function wireTaskWithSessions(r: GithubTaskRecord, apiUrl: string): Record<string, unknown> {
  const ended = ENDED.has(r.state)
  const session = {
    ...SESSION_EXAMPLE,
    id: r.sessionId,
    name: r.title,
    repository: { id: r.repositoryId },
    task_id: r.id,
    state: r.state,
    created_at: iso(r.createdAt),
    updated_at: iso(r.changedAt),
    completed_at: ended ? iso(r.changedAt) : null,
    prompt: r.title,
    head_ref: `copilot/task-${r.id.slice(0, 8)}`,
    ...(r.startedAt === null ? {} : { usage: { type: 'premium_requests', amount: 1 } }),
    ...(r.state === 'failed' || r.state === 'timed_out'
      ? { error: { message: r.state === 'failed' ? 'The agent could not finish.' : 'The session timed out.' } }
      : {})
  }
  return { ...wireTask(r, apiUrl), sessions: [session] }
}
