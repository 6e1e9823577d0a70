// The Devin fake's sessions: each built on the documentation's example (docs-examples.ts), its state moving on the
// clock through a script, each state entered adding what Devin says then (a question, an action to allow, …), ACUs
// growing as it works. A state is one word: v3's status_detail where it has one, else its status.
import { type Beat, catchUp, moveTo, type Scripted, scripted } from '../agent-fake'
import { V1_LIST_SESSIONS, V3_LIST_MESSAGES, V3_LIST_SESSIONS } from './docs-examples'

export const DEVIN_FAKE_STATES = [
  'new',
  'claimed',
  'working',
  'waiting_for_user',
  'waiting_for_approval',
  'finished',
  'exit',
  'error',
  'inactivity',
  'user_request',
  'out_of_credits',
  'usage_limit_exceeded'
] as const
export type DevinFakeState = (typeof DEVIN_FAKE_STATES)[number]

/** Each state as v3 (status, status_detail) and v1 (status_enum) show it. */
const WIRE: Record<DevinFakeState, { status: string; detail: string | null; v1: string }> = {
  new: { status: 'new', detail: null, v1: 'working' },
  claimed: { status: 'claimed', detail: null, v1: 'working' },
  working: { status: 'running', detail: 'working', v1: 'working' },
  waiting_for_user: { status: 'running', detail: 'waiting_for_user', v1: 'blocked' },
  waiting_for_approval: { status: 'running', detail: 'waiting_for_approval', v1: 'blocked' },
  finished: { status: 'running', detail: 'finished', v1: 'finished' },
  exit: { status: 'exit', detail: null, v1: 'finished' },
  error: { status: 'error', detail: null, v1: 'expired' },
  inactivity: { status: 'suspended', detail: 'inactivity', v1: 'suspend_requested' },
  user_request: { status: 'suspended', detail: 'user_request', v1: 'suspend_requested' },
  out_of_credits: { status: 'suspended', detail: 'out_of_credits', v1: 'suspend_requested' },
  usage_limit_exceeded: { status: 'suspended', detail: 'usage_limit_exceeded', v1: 'suspend_requested' }
}

const S = 1_000
const opening: Beat<DevinFakeState>[] = [
  { state: 'new', afterMs: 0 },
  { state: 'claimed', afterMs: 2 * S },
  { state: 'working', afterMs: 3 * S }
]
/** What follows an answer (a reply): the work, then the end. */
export const AFTER_ANSWER: readonly Beat<DevinFakeState>[] = [{ state: 'finished', afterMs: 40 * S }]

/** Every state is reached by one script; `ask`, `approve` and `credits` stop needing the person. */
export const DEVIN_SCRIPTS: Record<string, readonly Beat<DevinFakeState>[]> = {
  complete: [...opening, { state: 'finished', afterMs: 30 * S }, { state: 'exit', afterMs: 10 * S }],
  ask: [...opening, { state: 'waiting_for_user', afterMs: 15 * S }],
  approve: [...opening, { state: 'waiting_for_approval', afterMs: 10 * S }],
  credits: [...opening, { state: 'out_of_credits', afterMs: 20 * S }],
  fail: [...opening, { state: 'error', afterMs: 20 * S }],
  sleep: [...opening, { state: 'finished', afterMs: 20 * S }, { state: 'inactivity', afterMs: 60 * S }],
  stop: [...opening, { state: 'user_request', afterMs: 20 * S }],
  limit: [...opening, { state: 'usage_limit_exceeded', afterMs: 20 * S }],
  queue: [{ state: 'new', afterMs: 0 }]
}

export interface DevinMessageRecord {
  event_id: string
  message: string
  source: 'devin' | 'user'
  created_at: number
}

export interface DevinSessionRecord extends Scripted<DevinFakeState> {
  id: string
  title: string
  repository: string
  createdAt: number
  messages: DevinMessageRecord[]
  acus: number
  pullRequest: number | null
}

const secs = (ms: number): number => Math.floor(ms / 1000)
const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
export const FAKE_ORG_ID = 'org-fake0001'

export class DevinSessions {
  private readonly records = new Map<string, DevinSessionRecord>()
  private count = 0

  constructor(private readonly now: () => number) {}

  private say(r: DevinSessionRecord, at: number, source: 'devin' | 'user', message: string): void {
    // Anything new moves updated_at, which is what tells a client to read the messages again.
    r.changedAt = Math.max(r.changedAt, at)
    r.messages.push({
      ...V3_LIST_MESSAGES.items[0],
      event_id: `event-${r.id}-${r.messages.length + 1}`,
      message,
      source,
      created_at: secs(at)
    })
  }

  private enter = (r: DevinSessionRecord, state: DevinFakeState, at: number): void => {
    switch (state) {
      case 'working':
        r.acus += 1.5
        this.say(r, at, 'devin', `Looking into "${r.title}" in ${r.repository}.`)
        break
      case 'waiting_for_user':
        this.say(r, at, 'devin', `Should "${r.title}" also cover the mobile layout?`)
        break
      case 'waiting_for_approval':
        this.say(r, at, 'devin', 'May I run `git push --force` on the feature branch?')
        break
      case 'finished':
        r.acus += 0.5
        r.pullRequest ??= 40 + this.count
        this.say(r, at, 'devin', `Done: opened a pull request for "${r.title}".`)
        break
      case 'error':
        this.say(r, at, 'devin', 'I could not install the dependencies.')
        break
      default:
        break
    }
  }

  add(input: { title: string; repository: string; beats: readonly Beat<DevinFakeState>[]; agoMs: number }) {
    const n = ++this.count
    const createdAt = this.now() - input.agoMs
    const record: DevinSessionRecord = {
      ...scripted(createdAt, input.beats),
      id: `devin-${(0xabc000 + n).toString(16)}`,
      title: input.title,
      repository: input.repository,
      createdAt,
      messages: [],
      acus: 0,
      pullRequest: null
    }
    this.say(record, createdAt, 'user', input.title)
    this.enter(record, record.state, record.changedAt)
    this.records.set(record.id, record)
    return record
  }

  all(): DevinSessionRecord[] {
    const now = this.now()
    for (const r of this.records.values()) catchUp(r, now, this.enter)
    return [...this.records.values()]
  }

  get(id: string): DevinSessionRecord | undefined {
    const r = this.records.get(id)
    if (r) catchUp(r, this.now(), this.enter)
    return r
  }

  setState(id: string, state: DevinFakeState): DevinSessionRecord | undefined {
    const r = this.get(id)
    if (r) moveTo(r, state, this.now(), this.enter)
    return r
  }

  /** A message from the person: a waiting or suspended session works again (Devin resumes a suspended one). */
  message(r: DevinSessionRecord, text: string): void {
    this.say(r, this.now(), 'user', text)
    const { status, detail } = WIRE[r.state]
    const resumes = status === 'suspended' || detail === 'waiting_for_user' || detail === 'waiting_for_approval'
    if (resumes) moveTo(r, 'working', this.now(), this.enter, AFTER_ANSWER)
  }
}

function pullRequestUrl(r: DevinSessionRecord): string | null {
  return r.pullRequest === null ? null : `https://github.com/${r.repository}/pull/${r.pullRequest}`
}

/** A session as v3's list (and get) answers. */
export function wireV3(r: DevinSessionRecord): Record<string, unknown> {
  const { status, detail } = WIRE[r.state]
  const pr = pullRequestUrl(r)
  return {
    ...V3_LIST_SESSIONS.items[0],
    acus_consumed: r.acus,
    created_at: secs(r.createdAt),
    updated_at: secs(r.changedAt),
    org_id: FAKE_ORG_ID,
    origin: 'api',
    pull_requests: pr === null ? [] : [{ pr_state: 'open', pr_url: pr }],
    session_id: r.id,
    status,
    status_detail: detail,
    tags: [],
    url: `https://app.devin.ai/sessions/${r.id.replace(/^devin-/, '')}`,
    child_session_ids: [],
    parent_session_id: null,
    playbook_id: null,
    structured_output: null,
    title: r.title
  }
}

/** A session as v1's list answers; `withMessages` for its details. */
export function wireV1(r: DevinSessionRecord, withMessages = false): Record<string, unknown> {
  const pr = pullRequestUrl(r)
  return {
    ...V1_LIST_SESSIONS.sessions[0],
    created_at: iso(r.createdAt),
    updated_at: iso(r.changedAt),
    session_id: r.id,
    status: WIRE[r.state].status,
    status_enum: WIRE[r.state].v1,
    title: r.title,
    pull_request: pr === null ? null : { url: pr },
    requesting_user_email: 'you@example.com',
    structured_output: null,
    tags: [],
    ...(withMessages
      ? {
          messages: r.messages.map((m) => ({
            type: m.source === 'devin' ? 'devin_message' : 'user_message',
            event_id: m.event_id,
            message: m.message,
            timestamp: iso(m.created_at * 1000)
          }))
        }
      : {})
  }
}
