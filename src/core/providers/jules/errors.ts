// Jules' refusals in words a person can act on. Google APIs answer a key they do not know with 400 (API_KEY_INVALID)
// as often as with 401, so both read as a rejected key.
import { isJsonObject } from '../../../shared/json-object'
import { serverText, ServiceError } from '../../client/service-error'
import { JULES } from './mapping'

function keyInvalid(body: string): boolean {
  try {
    const parsed: unknown = JSON.parse(body)
    const error = isJsonObject(parsed) ? parsed.error : undefined
    return isJsonObject(error) && JSON.stringify(error.details ?? error.status ?? '').includes('API_KEY_INVALID')
  } catch {
    return /API key not valid/i.test(body)
  }
}

export function julesError(
  status: number,
  body: string,
  retryAfterMs: number | undefined,
  { account, redact }: { account: string; redact: (text: string) => string }
): ServiceError {
  const { text } = serverText(body, redact)
  const said = text ? ` Jules said: ${text}` : ''
  const who = `the API key of Jules account "${account}"`
  if (status === 401 || (status === 400 && keyInvalid(body))) {
    return new ServiceError(
      'auth',
      `Jules rejected ${who} (HTTP ${status}): it is wrong or was revoked. Make a new key at ${JULES.keyPage}.${said}`,
      { status }
    )
  }
  if (status === 403) {
    return new ServiceError(
      'auth',
      `Jules refused ${who} (HTTP 403): the key is not allowed to use the Jules API, or this session is not the account's.${said}`,
      { status }
    )
  }
  if (status === 404) {
    return new ServiceError('not_found', `Jules has no such session (HTTP 404).${said}`, { status })
  }
  if (status === 429) {
    const wait = retryAfterMs !== undefined ? ` Asking again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.` : ''
    return new ServiceError('rate_limited', `Jules asked Agent Tray to slow down (HTTP 429).${wait}${said}`, {
      status,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {})
    })
  }
  if (status >= 500) return new ServiceError('server', `Jules failed (HTTP ${status}).${said}`, { status })
  return new ServiceError('bad_request', `Jules refused the request (HTTP ${status}).${said}`, { status })
}
