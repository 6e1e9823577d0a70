/**
 * GitHub's Copilot coding agent ("Agent tasks" REST API, version 2026-03-10, public preview) onto the provider model.
 * Worked from:
 * - https://docs.github.com/rest/agent-tasks/agent-tasks (list tasks, list tasks for a repository, get a task by id
 *   with its sessions; states; the Link header; "Agent tasks" repository permission (read)), as published in
 *   github/rest-api-description, descriptions-next/api.github.com/dereferenced/api.github.com.2026-03-10.deref.yaml
 * - https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api (x-poll-interval,
 *   conditional requests, handling rate limit errors)
 * - https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api (x-ratelimit-*, secondary limits)
 * - https://github.blog/changelog/2023-08-10-x-accepted-github-permissions-header-for-fine-grained-permission-actors
 */
import {
  type ProviderCapabilities,
  type ProviderCost,
  type ProviderDescriptor,
  type ProviderProject,
  type ProviderStep,
  type ProviderTask,
  statusFrom,
  type StatusTable,
  type Waiting
} from '../../../shared/provider'
import type { GithubSession, GithubTask, GithubUsage } from './schemas'

/** The states the documentation lists for a task and for a session ("derived from its most recent session"). */
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

/** `idle`: the session stopped with nothing under way and nothing asked (the docs give no more); a follow-up starts a
 * new session, which moves the task again. `timed_out` ended without finishing: a failure, its word kept. */
export const GITHUB_STATUS: StatusTable<GithubState> = {
  queued: 'queued',
  in_progress: 'running',
  completed: 'completed',
  failed: 'failed',
  idle: 'completed',
  waiting_for_user: 'waiting',
  timed_out: 'failed',
  cancelled: 'cancelled'
}

export const GITHUB_CAPABILITIES: ProviderCapabilities = {
  steps: true,
  cost: true,
  publish: false,
  projects: false,
  approve: false,
  reply: false,
  // The API can start a task, but only with "Agent tasks" (read and write) and Copilot Business or Enterprise.
  startTask: false
}

/** Billing units as the documentation names them. `ai_credits` come in nano units: summed first, divided once. */
const UNITS: Record<string, { unit: string; scale: number }> = {
  ai_credits: { unit: 'AI credits', scale: 1e9 },
  premium_requests: { unit: 'premium requests', scale: 1 }
}

export const GITHUB: ProviderDescriptor = {
  kind: 'github',
  displayName: 'GitHub Copilot',
  defaultBaseUrl: 'https://api.github.com',
  keyPage: 'https://github.com/settings/personal-access-tokens/new',
  capabilities: GITHUB_CAPABILITIES,
  costUnits: Object.values(UNITS).map((u) => u.unit)
}

/** The permission the read endpoints document, in GitHub's words. */
export const REQUIRED_PERMISSION = '"Agent tasks" repository permission (read)'

/** What the task's sessions cost, one entry per unit; an unknown unit is kept under the service's own word. */
export function costsOf(usages: readonly GithubUsage[]): ProviderCost[] {
  const sums = new Map<string, number>()
  for (const u of usages) sums.set(u.type, (sums.get(u.type) ?? 0) + u.amount)
  return [...sums].map(([type, sum]) => {
    const known = UNITS[type]
    return known ? { amount: sum / known.scale, unit: known.unit } : { amount: sum, unit: type }
  })
}

/** "owner/repo" from a task's page (https://github.com/OWNER/REPO/copilot/tasks/ID): the API gives the repository's
 * id only. */
export function repositoryName(htmlUrl: string): string | null {
  try {
    const parts = new URL(htmlUrl).pathname.split('/').filter((p) => p !== '')
    return parts.length >= 2
      ? `${decodeURIComponent(parts[0] as string)}/${decodeURIComponent(parts[1] as string)}`
      : null
  } catch {
    return null
  }
}

function projectOf(task: GithubTask): ProviderProject | null {
  if (task.repositoryId === null) return null
  return { id: task.repositoryId, name: repositoryName(task.html_url) ?? `repository ${task.repositoryId}` }
}

/** GitHub says only that the task waits for the user, not what is asked: it is answered on the task's page. */
function waitingOf(status: string, page: string | null): Waiting | null {
  return status === 'waiting' ? { kind: 'question', text: null, where: page } : null
}

export function sessionStep(s: GithubSession): ProviderStep {
  const { status, serviceStatus } = statusFrom(GITHUB_STATUS, s.state)
  return {
    id: s.id,
    kind: 'session',
    title: s.name || s.prompt || 'Session',
    detail: s.errorMessage,
    at: s.created_at || null,
    status,
    serviceStatus
  }
}

/** A task as every surface reads it. Its texts stay as the service sent them: untrusted, escaped where shown. */
export function toProviderTask(task: GithubTask): ProviderTask {
  const { status, serviceStatus } = statusFrom(GITHUB_STATUS, task.state)
  const page = task.html_url || null
  return {
    id: task.id,
    title: task.name || task.id,
    status,
    serviceStatus,
    waiting: waitingOf(status, page),
    links: {
      page,
      pullRequests: task.pulls.map((id) => ({ id, url: null, title: null })),
      preview: null
    },
    project: projectOf(task),
    createdAt: task.created_at || null,
    updatedAt: task.updated_at || null,
    costs: costsOf(task.sessions?.flatMap((s) => (s.usage ? [s.usage] : [])) ?? []),
    ...(task.sessions ? { steps: task.sessions.map(sessionStep) } : {})
  }
}
