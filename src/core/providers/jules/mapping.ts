/**
 * Google's Jules (API v1alpha, https://jules.googleapis.com/v1alpha) onto the provider model. Worked from:
 * - https://developers.google.com/jules/api/reference/rest/v1alpha/sessions (Session, State, SessionOutput) and its
 *   methods list, get, approvePlan, sendMessage; …/sessions.activities (Activity and its kinds) and
 *   …/sessions.activities/list (pageSize, pageToken, nextPageToken)
 * - https://jules.google/docs/api/reference/sessions, …/activities, …/types (example bodies, session states, the
 *   x-goog-api-key header)
 */
import {
  type ProviderCapabilities,
  type ProviderDescriptor,
  type ProviderStep,
  type ProviderTask,
  statusFrom,
  type StatusTable,
  type Waiting
} from '../../../shared/provider'
import type { ActivityKind, JulesActivity, JulesSession } from './schemas'

/** Session.State as the reference lists it. */
export const JULES_STATES = [
  'STATE_UNSPECIFIED',
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

/** PAUSED: not working and not ended, and the docs say nothing is asked; it is held like a queued task, its word kept. */
export const JULES_STATUS: StatusTable<JulesState> = {
  STATE_UNSPECIFIED: 'unknown',
  QUEUED: 'queued',
  PLANNING: 'running',
  AWAITING_PLAN_APPROVAL: 'waiting',
  AWAITING_USER_FEEDBACK: 'waiting',
  IN_PROGRESS: 'running',
  PAUSED: 'queued',
  FAILED: 'failed',
  COMPLETED: 'completed'
}

export const JULES_CAPABILITIES: ProviderCapabilities = {
  steps: true,
  cost: false,
  publish: false,
  projects: false,
  approve: true,
  reply: true,
  // The API starts sessions, but from a source the user picks: not offered yet.
  startTask: false
}

export const JULES: ProviderDescriptor = {
  kind: 'jules',
  displayName: 'Jules',
  defaultBaseUrl: 'https://jules.googleapis.com/v1alpha',
  keyPage: 'https://jules.google.com/settings',
  capabilities: JULES_CAPABILITIES
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null
}

/** A plan's steps as numbered lines, from a planGenerated activity. */
export function planText(body: Record<string, unknown>): string | null {
  const plan = body.plan
  if (typeof plan !== 'object' || plan === null || !Array.isArray((plan as { steps?: unknown }).steps)) return null
  const lines = ((plan as { steps: unknown[] }).steps as unknown[]).flatMap((s, i) => {
    const title = typeof s === 'object' && s !== null ? str((s as { title?: unknown }).title) : null
    return title === null ? [] : [`${i + 1}. ${title}`]
  })
  return lines.length > 0 ? lines.join('\n') : null
}

const STEP_TEXT: Record<
  ActivityKind,
  (body: Record<string, unknown>) => { title: string | null; detail: string | null }
> = {
  agentMessaged: (b) => ({ title: str(b.agentMessage), detail: null }),
  userMessaged: (b) => ({ title: str(b.userMessage), detail: null }),
  planGenerated: (b) => ({ title: 'Plan', detail: planText(b) }),
  planApproved: () => ({ title: 'Plan approved', detail: null }),
  progressUpdated: (b) => ({ title: str(b.title), detail: str(b.description) }),
  sessionCompleted: () => ({ title: 'Session completed', detail: null }),
  sessionFailed: (b) => ({ title: 'Session failed', detail: str(b.reason) })
}

export function activityStep(a: JulesActivity): ProviderStep {
  const words = a.kind === null ? { title: null, detail: null } : STEP_TEXT[a.kind](a.body)
  return {
    id: a.id,
    kind: a.kind ?? 'activity',
    title: words.title ?? (a.description || 'Activity'),
    detail: words.detail,
    at: a.createTime || null,
    status: null,
    serviceStatus: null
  }
}

/** The newest activity of `kind` (activities come oldest first; createTime decides when both have one). */
function latest(activities: readonly JulesActivity[], kind: ActivityKind): JulesActivity | undefined {
  let found: JulesActivity | undefined
  for (const a of activities) {
    if (a.kind !== kind) continue
    if (found === undefined || !(a.createTime && found.createTime && a.createTime < found.createTime)) found = a
  }
  return found
}

/** What the session asks, from its state and, when read, its activities: the plan to approve or the agent's question. */
export function waitingOf(state: string, page: string | null, activities?: readonly JulesActivity[]): Waiting | null {
  if (state === 'AWAITING_PLAN_APPROVAL') {
    const plan = activities ? latest(activities, 'planGenerated') : undefined
    return { kind: 'plan_approval', text: plan ? planText(plan.body) : null, where: page }
  }
  if (state === 'AWAITING_USER_FEEDBACK') {
    const asked = activities ? latest(activities, 'agentMessaged') : undefined
    return { kind: 'question', text: asked ? str(asked.body.agentMessage) : null, where: page }
  }
  return null
}

/** "owner/repo" from a source name ("sources/github/owner/repo"); other names are shown without "sources/". */
export function sourceName(source: string): string {
  const rest = source.replace(/^sources\//, '')
  const github = rest.match(/^github\/([^/]+)\/([^/]+)$/)
  return github ? `${github[1]}/${github[2]}` : rest
}

/** A session as every surface reads it; `activities` when they were read this time. Texts stay untrusted. */
export function toProviderTask(session: JulesSession, activities?: readonly JulesActivity[]): ProviderTask {
  const { status, serviceStatus } = statusFrom(JULES_STATUS, session.state)
  const page = session.url || null
  return {
    id: session.id,
    title: session.title || session.prompt || session.id,
    status,
    serviceStatus,
    waiting: waitingOf(serviceStatus, page, activities),
    links: {
      page,
      pullRequests: session.pullRequests.map((pr) => ({ id: null, url: pr.url, title: pr.title })),
      preview: null
    },
    project: session.source ? { id: session.source, name: sourceName(session.source) } : null,
    createdAt: session.createTime || null,
    updatedAt: session.updateTime || null,
    costs: [],
    ...(activities ? { steps: activities.map(activityStep) } : {})
  }
}
