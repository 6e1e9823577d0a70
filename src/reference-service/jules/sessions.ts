// The Jules fake's sessions: each built on the documentation's example (docs-examples.ts), its state moving on the
// clock through a script, each state entered adding the activity Jules documents for it (a plan, a question, …).
import { type Beat, catchUp, moveTo, type Scripted, scripted } from '../agent-fake'
import { ACTIVITY_KIND_EXAMPLES, GET_SESSION, LIST_ACTIVITIES } from './docs-examples'

export const JULES_STATES = [
  'QUEUED',
  'PLANNING',
  'AWAITING_PLAN_APPROVAL',
  'AWAITING_USER_FEEDBACK',
  'IN_PROGRESS',
  'PAUSED',
  'FAILED',
  'COMPLETED'
] as const
export type JulesState = (typeof JULES_STATES)[number]

const S = 1_000
const opening: Beat<JulesState>[] = [
  { state: 'QUEUED', afterMs: 0 },
  { state: 'PLANNING', afterMs: 3 * S }
]
/** What follows an answer (an approved plan, a reply): the work, then the end. */
export const AFTER_ANSWER: readonly Beat<JulesState>[] = [{ state: 'COMPLETED', afterMs: 40 * S }]

/** Every state is reached by one script; `plan` and `ask` stop waiting for a person. */
export const JULES_SCRIPTS: Record<string, readonly Beat<JulesState>[]> = {
  complete: [...opening, { state: 'IN_PROGRESS', afterMs: 8 * S }, { state: 'COMPLETED', afterMs: 30 * S }],
  plan: [...opening, { state: 'AWAITING_PLAN_APPROVAL', afterMs: 8 * S }],
  ask: [...opening, { state: 'IN_PROGRESS', afterMs: 8 * S }, { state: 'AWAITING_USER_FEEDBACK', afterMs: 15 * S }],
  fail: [...opening, { state: 'IN_PROGRESS', afterMs: 8 * S }, { state: 'FAILED', afterMs: 20 * S }],
  pause: [...opening, { state: 'IN_PROGRESS', afterMs: 8 * S }, { state: 'PAUSED', afterMs: 20 * S }],
  queue: [{ state: 'QUEUED', afterMs: 0 }]
}

type Activity = Record<string, unknown>

export interface JulesSessionRecord extends Scripted<JulesState> {
  id: string
  title: string
  source: string
  createdAt: number
  activities: Activity[]
  planId: string | null
  pullRequest: number | null
}

const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z')
const PLAN_EXAMPLE = (LIST_ACTIVITIES.activities[1] as { planGenerated: { plan: { steps: Activity[] } } }).planGenerated
  .plan

export class JulesSessions {
  private readonly records = new Map<string, JulesSessionRecord>()
  private count = 0

  constructor(private readonly now: () => number) {}

  private activity(r: JulesSessionRecord, at: number, originator: string, description: string, kind?: Activity): void {
    const id = `act${r.activities.length + 1}`
    // Anything new moves updateTime, which is what tells a client to read the activities again.
    r.changedAt = Math.max(r.changedAt, at)
    r.activities.push({
      name: `sessions/${r.id}/activities/${id}`,
      id,
      originator,
      description,
      ...kind,
      createTime: iso(at)
    })
  }

  private plan(r: JulesSessionRecord, at: number): void {
    r.planId = `plan${r.activities.length + 1}`
    const titles = [`Read the code behind "${r.title}"`, 'Make the change and test it']
    const steps = PLAN_EXAMPLE.steps.map((step, index) => ({
      ...step,
      id: `step${index + 1}`,
      index,
      title: titles[index]
    }))
    this.activity(r, at, 'agent', 'Plan generated', {
      planGenerated: { plan: { ...PLAN_EXAMPLE, id: r.planId, steps, createTime: iso(at) } }
    })
  }

  /** The activity each state's entry adds, as the documentation's kinds. */
  private enter = (r: JulesSessionRecord, state: JulesState, at: number): void => {
    const kinds = ACTIVITY_KIND_EXAMPLES
    switch (state) {
      case 'QUEUED':
        this.activity(r, at, 'system', 'Session started')
        break
      case 'PLANNING':
        this.activity(r, at, 'agent', 'Planning', {
          progressUpdated: { ...kinds.progressUpdated.progressUpdated, title: 'Planning', description: r.title }
        })
        break
      case 'AWAITING_PLAN_APPROVAL':
        this.plan(r, at)
        break
      case 'AWAITING_USER_FEEDBACK':
        this.activity(r, at, 'agent', 'Agent messaged', {
          agentMessaged: { agentMessage: `Should "${r.title}" also cover the mobile layout?` }
        })
        break
      case 'IN_PROGRESS':
        if (r.planId === null) this.plan(r, at)
        this.activity(r, at, 'agent', 'Progress updated', {
          progressUpdated: { ...kinds.progressUpdated.progressUpdated, title: 'Working', description: r.title }
        })
        break
      case 'PAUSED':
        this.activity(r, at, 'system', 'Session paused')
        break
      case 'FAILED':
        this.activity(r, at, 'system', 'Session failed', kinds.sessionFailed)
        break
      case 'COMPLETED':
        r.pullRequest ??= 41 + this.count
        this.activity(r, at, 'system', 'Session completed', kinds.sessionCompleted)
        break
    }
  }

  add(input: { title: string; source: string; beats: readonly Beat<JulesState>[]; agoMs: number }): JulesSessionRecord {
    const n = ++this.count
    const createdAt = this.now() - input.agoMs
    const record: JulesSessionRecord = {
      ...scripted(createdAt, input.beats),
      id: `${GET_SESSION.id}${n}`,
      title: input.title,
      source: input.source,
      createdAt,
      activities: [],
      planId: null,
      pullRequest: null
    }
    this.enter(record, record.state, record.changedAt)
    this.records.set(record.id, record)
    return record
  }

  all(): JulesSessionRecord[] {
    const now = this.now()
    for (const r of this.records.values()) catchUp(r, now, this.enter)
    return [...this.records.values()]
  }

  get(id: string): JulesSessionRecord | undefined {
    const r = this.records.get(id)
    if (r) catchUp(r, this.now(), this.enter)
    return r
  }

  setState(id: string, state: JulesState): JulesSessionRecord | undefined {
    const r = this.get(id)
    if (r) moveTo(r, state, this.now(), this.enter)
    return r
  }

  /** AWAITING_PLAN_APPROVAL → IN_PROGRESS, with planApproved; false when no plan waits. */
  approve(r: JulesSessionRecord): boolean {
    if (r.state !== 'AWAITING_PLAN_APPROVAL') return false
    this.activity(r, this.now(), 'user', 'Plan approved', { planApproved: { planId: r.planId } })
    moveTo(r, 'IN_PROGRESS', this.now(), this.enter, AFTER_ANSWER)
    return true
  }

  /** userMessaged; a session waiting for the user goes on. */
  message(r: JulesSessionRecord, prompt: string): void {
    this.activity(r, this.now(), 'user', 'User messaged', { userMessaged: { userMessage: prompt } })
    if (r.state === 'AWAITING_USER_FEEDBACK') moveTo(r, 'IN_PROGRESS', this.now(), this.enter, AFTER_ANSWER)
  }
}

/** A session as GET /v1alpha/sessions/{id} answers (and each list item). */
export function wireSession(r: JulesSessionRecord): Record<string, unknown> {
  const [owner, repo] = r.source.split('/')
  return {
    ...GET_SESSION,
    name: `sessions/${r.id}`,
    id: r.id,
    prompt: r.title,
    title: r.title,
    state: r.state,
    url: `https://jules.google.com/session/${r.id}`,
    createTime: iso(r.createdAt),
    updateTime: iso(r.changedAt),
    sourceContext: { source: `sources/github/${r.source}`, githubRepoContext: { startingBranch: 'main' } },
    outputs:
      r.pullRequest === null
        ? []
        : [
            {
              pullRequest: {
                ...GET_SESSION.outputs[0]?.pullRequest,
                url: `https://github.com/${owner}/${repo}/pull/${r.pullRequest}`,
                title: r.title
              }
            }
          ]
  }
}
