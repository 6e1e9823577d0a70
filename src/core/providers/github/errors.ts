// GitHub's refusals in words a person can act on: which account, which service, which permission, how long to wait.
import { serverText, ServiceError } from '../../client/service-error'
import type { Refusal } from './etiquette'
import { REQUIRED_PERMISSION } from './mapping'

type Headers = Record<string, string | undefined>

function waitWords(ms: number): string {
  if (ms < 60_000) return `${Math.max(1, Math.ceil(ms / 1000))} s`
  return `${Math.ceil(ms / 60_000)} min`
}

/** x-accepted-github-permissions ("agent_tasks=read; …") as GitHub's settings name them: "Agent tasks" (read). */
export function acceptedPermissions(header: string | undefined): string | null {
  if (header === undefined) return null
  const sets = header
    .split(';')
    .map((set) =>
      set
        .split(',')
        .map((p) => p.trim().match(/^([a-z_]+)=([a-z]+)$/))
        .filter((m): m is RegExpMatchArray => m !== null)
        .map(([, name, level]) => {
          const words = (name as string).replaceAll('_', ' ')
          return `"${words.charAt(0).toUpperCase()}${words.slice(1)}" (${level})`
        })
        .join(' and ')
    )
    .filter((s) => s !== '')
  return sets.length > 0 ? sets.join(' or ') : null
}

export interface ErrorContext {
  /** The account's name in Agent Tray. */
  account: string
  redact: (text: string) => string
}

/** The error for a non-2xx answer; `refusal` is the pacer's reading of a 403 or 429. */
export function githubError(
  status: number,
  headers: Headers,
  body: string,
  refusal: Refusal | null,
  { account, redact }: ErrorContext
): ServiceError {
  const { text } = serverText(body, redact)
  const said = text ? ` GitHub said: ${text}` : ''
  const who = `the token of GitHub account "${account}"`
  if (status === 401) {
    return new ServiceError(
      'auth',
      `GitHub rejected ${who} (HTTP 401): it is wrong, expired or revoked. Sign in to GitHub again with a new token.${said}`,
      { status }
    )
  }
  if (refusal?.kind === 'primary') {
    return new ServiceError(
      'rate_limited',
      `GitHub's hourly request limit for account "${account}" is used up (HTTP ${status}): asking again in ${waitWords(refusal.waitMs)}.${said}`,
      { status, retryAfterMs: refusal.waitMs }
    )
  }
  if (refusal?.kind === 'secondary') {
    return new ServiceError(
      'rate_limited',
      `GitHub asked Agent Tray to slow down for account "${account}" (HTTP ${status}, a secondary rate limit): asking again in ${waitWords(refusal.waitMs)}.${said}`,
      { status, retryAfterMs: refusal.waitMs }
    )
  }
  if (status === 403) {
    const needed = acceptedPermissions(headers['x-accepted-github-permissions']) ?? REQUIRED_PERMISSION
    return new ServiceError(
      'auth',
      `GitHub refused ${who} (HTTP 403): it lacks the ${needed} permission. Give the fine-grained token that permission, or make one that has it.${said}`,
      { status }
    )
  }
  if (status === 404) {
    return new ServiceError(
      'not_found',
      `GitHub has no such task, or ${who} cannot see its repository (HTTP 404).${said}`,
      { status }
    )
  }
  if (status >= 500) return new ServiceError('server', `GitHub failed (HTTP ${status}).${said}`, { status })
  return new ServiceError('bad_request', `GitHub refused the request (HTTP ${status}).${said}`, { status })
}
