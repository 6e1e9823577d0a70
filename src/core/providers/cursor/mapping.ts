/**
 * Cursor's Cloud Agents (API v1, https://api.cursor.com) onto the provider model. Worked from:
 * - https://cursor.com/docs/cloud-agent/api/endpoints (v1, public beta: a durable agent and its per-prompt runs;
 *   Basic authentication with a key from the dashboard's Integrations page; list pagination by limit and cursor;
 *   a run's status, result, durationMs and git.branches[].prUrl; a run's event stream; follow-up runs)
 * - https://cursor.com/docs/api (authentication: the key as the Basic user, an empty password)
 * Cursor has no state that waits for a person: a plan-mode run simply finishes. None is invented here.
 */
import {
  type ProviderCapabilities,
  type ProviderDescriptor,
  type ProviderStep,
  type ProviderTask,
  statusFrom,
  type StatusTable
} from '../../../shared/provider'
import type { CursorAgent, CursorRun } from './schemas'

/** A run's status as the API lists it. */
export const CURSOR_RUN_STATUSES = ['CREATING', 'RUNNING', 'FINISHED', 'ERROR', 'CANCELLED', 'EXPIRED'] as const
export type CursorRunStatus = (typeof CURSOR_RUN_STATUSES)[number]

/** EXPIRED: the run ended without finishing and nobody cancelled it, so it reads as failed, its word kept. */
export const CURSOR_STATUS: StatusTable<CursorRunStatus> = {
  CREATING: 'queued',
  RUNNING: 'running',
  FINISHED: 'completed',
  ERROR: 'failed',
  CANCELLED: 'cancelled',
  EXPIRED: 'failed'
}

export const CURSOR_CAPABILITIES: ProviderCapabilities = {
  steps: true,
  // The v1 endpoints report no price of a run.
  cost: false,
  publish: false,
  projects: false,
  approve: false,
  reply: true,
  startTask: false
}

export const CURSOR: ProviderDescriptor = {
  kind: 'cursor',
  displayName: 'Cursor',
  defaultBaseUrl: 'https://api.cursor.com',
  keyPage: 'https://cursor.com/dashboard/integrations',
  capabilities: CURSOR_CAPABILITIES
}

/** "owner/repo" from a GitHub address, with or without its scheme (a run's branches name it without); any other
 * address as given. */
export function repoName(url: string): string {
  const m = url.match(/^(?:https?:\/\/)?(?:www\.)?github\.com\/([^/]+)\/([^/?#]+?)(?:\.git)?\/?$/)
  return m ? `${m[1]}/${m[2]}` : url
}

/** The repository an agent works on: its own `repos` where it has them (GET /v1/agents/{id}), else the repository of
 * its run's pushed branches (list items carry no `repos`); named without its scheme so both read alike. */
function repositoryOf(agent: CursorAgent, run: CursorRun | null): string | null {
  const url = agent.repos[0] ?? run?.branches.find((b) => b.repoUrl !== null)?.repoUrl ?? null
  return url === null ? null : url.replace(/^https?:\/\//, '')
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`
}

/** A finished run's result as the last step, with how long the run took. */
export function resultStep(run: CursorRun): ProviderStep | null {
  if (run.result === '' && run.durationMs === null) return null
  return {
    id: `${run.id}:result`,
    kind: 'result',
    title: run.durationMs === null ? 'Result' : `Result after ${seconds(run.durationMs)}`,
    detail: run.result || null,
    at: run.updatedAt || null,
    status: null,
    serviceStatus: null
  }
}

/** An agent as every surface reads it: its status is its latest run's. `steps` when they were read this time. */
export function toProviderTask(agent: CursorAgent, run: CursorRun | null, steps?: ProviderStep[]): ProviderTask {
  const { status, serviceStatus } = statusFrom(CURSOR_STATUS, run?.status)
  const repo = repositoryOf(agent, run)
  const result = run ? resultStep(run) : null
  return {
    id: agent.id,
    title: agent.name || agent.id,
    status,
    serviceStatus,
    waiting: null,
    links: {
      page: agent.url || null,
      pullRequests: (run?.branches ?? []).flatMap((b) =>
        b.prUrl === null ? [] : [{ id: null, url: b.prUrl, title: b.branch }]
      ),
      preview: null
    },
    project: repo === null ? null : { id: repo, name: repoName(repo) },
    createdAt: agent.createdAt || null,
    updatedAt: run?.updatedAt || agent.updatedAt || null,
    costs: [],
    ...(steps ? { steps: result ? [...steps.filter((s) => s.id !== result.id), result] : steps } : {})
  }
}
