// Cursor's refusals in words a person can act on. A follow-up sent while a run is active is 409 agent_busy: the
// caller keeps what was typed, and the words say the agent is still running.
import { isJsonObject } from '../../../shared/json-object'
import { serverText, ServiceError } from '../../client/service-error'
import { CURSOR } from './mapping'

/** The error code of a body, wherever Cursor puts it (`code`, `error.code`, or `error` as a word). */
export function errorCode(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body)
    if (!isJsonObject(parsed)) return null
    if (typeof parsed.code === 'string') return parsed.code
    if (typeof parsed.error === 'string') return parsed.error
    if (isJsonObject(parsed.error) && typeof parsed.error.code === 'string') return parsed.error.code
  } catch {
    // Not JSON: no code.
  }
  return null
}

export const AGENT_BUSY = 'agent_busy'
export const AGENT_ARCHIVED = 'agent_archived'
export const STREAM_EXPIRED = 'stream_expired'

export function cursorError(
  status: number,
  body: string,
  retryAfterMs: number | undefined,
  { account, redact }: { account: string; redact: (text: string) => string }
): ServiceError {
  const { text } = serverText(body, redact)
  const said = text ? ` Cursor said: ${text}` : ''
  const code = errorCode(body)
  const who = `the API key of Cursor account "${account}"`
  if (status === 401) {
    return new ServiceError(
      'auth',
      `Cursor rejected ${who} (HTTP 401): it is wrong or was revoked. Make a new key at ${CURSOR.keyPage}.${said}`,
      { status }
    )
  }
  if (status === 403) {
    return new ServiceError('auth', `Cursor refused ${who} (HTTP 403): it may not use Cloud Agents.${said}`, { status })
  }
  if (status === 404)
    return new ServiceError('not_found', `Cursor has no such agent or run (HTTP 404).${said}`, { status })
  if (status === 409 && code === AGENT_BUSY) {
    return new ServiceError(
      'bad_request',
      'The Cursor agent is still running: your message was not sent. Send it again once the run has finished.',
      { status }
    )
  }
  if (status === 409 && code === AGENT_ARCHIVED) {
    return new ServiceError(
      'bad_request',
      'The Cursor agent is archived: your message was not sent. Unarchive it in Cursor, then send it again.',
      { status }
    )
  }
  if (status === 429) {
    const wait = retryAfterMs !== undefined ? ` Asking again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.` : ''
    return new ServiceError('rate_limited', `Cursor asked Agent Tray to slow down (HTTP 429).${wait}${said}`, {
      status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {})
    })
  }
  if (status >= 500) return new ServiceError('server', `Cursor failed (HTTP ${status}).${said}`, { status })
  return new ServiceError('bad_request', `Cursor refused the request (HTTP ${status}).${said}`, { status })
}
