// Devin's refusals in words a person can act on: a 401 names the account and the service, a 403 the permission the
// key's service user lacks for what was asked (the v3 reference names one per endpoint).
import { serverText, ServiceError } from '../../client/service-error'
import { DEVIN } from './mapping'

/** What a request needed, for the words of a 403: the v3 permission (service users have roles) and the act. */
export interface DevinNeed {
  permission: string
  act: string
}

export const NEED_READ: DevinNeed = { permission: 'ViewOrgSessions', act: 'read sessions' }
export const NEED_REPLY: DevinNeed = { permission: 'ManageOrgSessions', act: 'send a message to a session' }

export function devinError(
  status: number,
  body: string,
  retryAfterMs: number | undefined,
  { account, redact, need }: { account: string; redact: (text: string) => string; need: DevinNeed }
): ServiceError {
  const { text } = serverText(body, redact)
  const said = text ? ` Devin said: ${text}` : ''
  const who = `the API key of Devin account "${account}"`
  if (status === 401) {
    return new ServiceError(
      'auth',
      `Devin rejected ${who} (HTTP 401): it is wrong, expired or was revoked. Make a new key (${DEVIN.keyPage}).${said}`,
      { status }
    )
  }
  if (status === 403) {
    return new ServiceError(
      'auth',
      `Devin refused ${who} (HTTP 403): the key cannot ${need.act}. Give its service user a role with the ` +
        `${need.permission} permission (or, for a v1 key, use a key of a member who may).${said}`,
      { status }
    )
  }
  if (status === 404) return new ServiceError('not_found', `Devin has no such session (HTTP 404).${said}`, { status })
  if (status === 429) {
    const wait = retryAfterMs !== undefined ? ` Asking again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.` : ''
    return new ServiceError('rate_limited', `Devin asked Agent Tray to slow down (HTTP 429).${wait}${said}`, {
      status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {})
    })
  }
  if (status >= 500) return new ServiceError('server', `Devin failed (HTTP ${status}).${said}`, { status })
  return new ServiceError('bad_request', `Devin refused the request (HTTP ${status}).${said}`, { status })
}
