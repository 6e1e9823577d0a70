/**
 * Cognition's Devin onto the provider model. Worked from:
 * - https://docs.devin.ai/api-reference/authentication (Bearer keys: `cog_` service users on v3, `apk_`/`apk_user_` on v1)
 * - https://docs.devin.ai/api-reference/v3/sessions/organizations-sessions, …/get-organizations-session-messages,
 *   …/post-organizations-sessions-messages (status, status_detail, acus_consumed, pull_requests, cursor paging)
 * - https://docs.devin.ai/api-reference/v3/self/self (GET /v3/self: the credential's org_id)
 * - https://docs.devin.ai/api-reference/v1/sessions/list-sessions, …/retrieve-details-about-an-existing-session,
 *   …/send-a-message-to-an-existing-devin-session (status_enum, pull_request, messages, limit/offset)
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
import type { DevinMessage, DevinSession } from './schemas'

/** v3 SessionResponse.status. */
export const DEVIN_V3_STATUSES = [
  'new',
  'creating',
  'claimed',
  'running',
  'exit',
  'error',
  'suspended',
  'resuming'
] as const
export type DevinV3Status = (typeof DEVIN_V3_STATUSES)[number]

/** v3 SessionResponse.status_detail: what a running session does, or why a suspended one stopped. */
export const DEVIN_V3_DETAILS = [
  'working',
  'waiting_for_user',
  'waiting_for_approval',
  'finished',
  'inactivity',
  'user_request',
  'usage_limit_exceeded',
  'out_of_credits',
  'out_of_quota',
  'no_quota_allocation',
  'payment_declined',
  'org_usage_limit_exceeded',
  'total_session_limit_exceeded',
  'error'
] as const
export type DevinV3Detail = (typeof DEVIN_V3_DETAILS)[number]

/** v1 SessionSummary.status_enum. */
export const DEVIN_V1_STATUSES = [
  'working',
  'blocked',
  'expired',
  'finished',
  'suspend_requested',
  'suspend_requested_frontend',
  'resume_requested',
  'resume_requested_frontend',
  'resumed'
] as const
export type DevinV1Status = (typeof DEVIN_V1_STATUSES)[number]

/** A status without its detail (the create answer, an older server). Suspended: held like a paused task. */
export const DEVIN_V3_STATUS: StatusTable<DevinV3Status> = {
  new: 'queued',
  creating: 'queued',
  claimed: 'queued',
  running: 'running',
  exit: 'completed',
  error: 'failed',
  suspended: 'queued',
  resuming: 'running'
}

/** The detail decides where it is set. Suspended for inactivity sleeps until a message wakes it (held like a paused
 * task); stopped by the user is cancelled; every credit, quota or limit reason needs the person: waiting. */
export const DEVIN_V3_DETAIL: StatusTable<DevinV3Detail> = {
  working: 'running',
  waiting_for_user: 'waiting',
  waiting_for_approval: 'waiting',
  finished: 'completed',
  inactivity: 'queued',
  user_request: 'cancelled',
  usage_limit_exceeded: 'waiting',
  out_of_credits: 'waiting',
  out_of_quota: 'waiting',
  no_quota_allocation: 'waiting',
  payment_declined: 'waiting',
  org_usage_limit_exceeded: 'waiting',
  total_session_limit_exceeded: 'waiting',
  error: 'failed'
}

/** v1: the suspend and resume requests are a session between work and rest, held like a paused task. */
export const DEVIN_V1_STATUS: StatusTable<DevinV1Status> = {
  working: 'running',
  blocked: 'waiting',
  expired: 'cancelled',
  finished: 'completed',
  suspend_requested: 'queued',
  suspend_requested_frontend: 'queued',
  resume_requested: 'queued',
  resume_requested_frontend: 'queued',
  resumed: 'running'
}

/** Why a suspended session needs the person, in words (the reasons the docs list). */
export const SUSPENDED_WORDS: Readonly<Record<string, string>> = {
  out_of_credits: 'out of credits. Add credits to the organization, then reply to resume it.',
  usage_limit_exceeded: 'over its usage limit. Raise the limit, then reply to resume it.',
  org_usage_limit_exceeded: "over the organization's usage limit. Raise the limit, then reply to resume it.",
  out_of_quota: 'out of quota. Add quota, then reply to resume it.',
  no_quota_allocation: 'without a quota allocation. Allocate quota to the user, then reply to resume it.',
  payment_declined: "the payment was declined. Fix the organization's billing, then reply to resume it.",
  total_session_limit_exceeded: 'over the limit of sessions at once. End another session, then reply to resume it.'
}

/** Devin's own unit of compute; never converted to dollars. */
export const ACU = 'ACU'

export const DEVIN_CAPABILITIES: ProviderCapabilities = {
  steps: true,
  cost: true,
  publish: false,
  projects: false,
  // The docs offer no endpoint that approves a safe-mode action: it is answered on Devin's page.
  approve: false,
  reply: true,
  startTask: false
}

export const DEVIN: ProviderDescriptor = {
  kind: 'devin',
  displayName: 'Devin',
  defaultBaseUrl: 'https://api.devin.ai',
  // The docs say where keys are made (Settings > Service users, or Settings > API Keys for v1); no app address is given.
  keyPage: 'https://docs.devin.ai/api-reference/authentication',
  capabilities: DEVIN_CAPABILITIES,
  costUnits: [ACU]
}

/** A session's service word: status_enum on v1; status_detail where set, else status, on v3. */
export function serviceWordOf(session: DevinSession): string {
  if (session.api === 'v1') return session.statusEnum ?? session.status
  return session.statusDetail ?? session.status
}

export function statusOf(session: DevinSession): { status: ProviderTask['status']; serviceStatus: string } {
  if (session.api === 'v1') {
    // A session without status_enum still has its free-text status, kept as the word.
    return statusFrom(DEVIN_V1_STATUS, serviceWordOf(session))
  }
  return session.statusDetail !== null
    ? statusFrom(DEVIN_V3_DETAIL, session.statusDetail)
    : statusFrom(DEVIN_V3_STATUS, session.status)
}

/** The latest message Devin itself sent (messages come oldest first). */
function lastFromDevin(messages: readonly DevinMessage[] | undefined): string | null {
  if (!messages) return null
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as DevinMessage
    if (m.fromDevin && m.text !== '') return m.text
  }
  return null
}

/** What a waiting session asks: a question, an action to allow, or credits; the where is Devin's page. */
export function waitingOf(session: DevinSession, messages?: readonly DevinMessage[]): Waiting | null {
  const word = serviceWordOf(session)
  const where = session.url
  if (word === 'waiting_for_user' || word === 'blocked') {
    return { kind: 'question', text: lastFromDevin(messages), where }
  }
  if (word === 'waiting_for_approval') {
    return { kind: 'permission', text: lastFromDevin(messages), where }
  }
  const suspended = Object.hasOwn(SUSPENDED_WORDS, word) ? SUSPENDED_WORDS[word] : undefined
  if (suspended !== undefined) return { kind: 'permission', text: `Devin is suspended: ${suspended}`, where }
  return null
}

export function messageStep(m: DevinMessage): ProviderStep {
  return {
    id: m.id,
    kind: m.source || 'message',
    title: m.text || (m.fromDevin ? 'Devin' : 'Message'),
    detail: null,
    at: m.at,
    status: null,
    serviceStatus: null
  }
}

/** A session as every surface reads it; `messages` when they were read this time. Texts stay untrusted. */
export function toProviderTask(session: DevinSession, messages?: readonly DevinMessage[]): ProviderTask {
  const { status, serviceStatus } = statusOf(session)
  return {
    id: session.id,
    title: session.title || session.id,
    status,
    serviceStatus,
    waiting: status === 'waiting' ? waitingOf(session, messages) : null,
    links: {
      page: session.url,
      pullRequests: session.pullRequests.map((url) => ({ id: null, url, title: null })),
      preview: null
    },
    project: null,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    costs: session.acus === null ? [] : [{ amount: session.acus, unit: ACU }],
    ...(messages ? { steps: messages.map(messageStep) } : {})
  }
}
