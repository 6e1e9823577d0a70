// 429, 5xx and 408 retry honouring Retry-After (or the body's retry_after); a redirect, 401 and 403 retry with backoff
// since access can come back (given up after 24 h); other 4xx are refusals. Telegram's {ok:false} is not delivered.
import { parseRetryAfter } from '../client/retry'
import type { TargetKind } from './target-url'

export type Outcome =
  { kind: 'delivered' } | { kind: 'retry'; reason: string; retryAfterMs?: number } | { kind: 'refused'; reason: string }

const MAX_REASON = 200

function bodyReason(status: number, body: string): string {
  const text = body.replace(/\s+/g, ' ').trim().slice(0, MAX_REASON)
  return text === '' ? `HTTP ${status}` : `HTTP ${status}: ${text}`
}

function bodyRetryAfterMs(body: string): number | undefined {
  try {
    const parsed = JSON.parse(body) as { retry_after?: unknown; parameters?: { retry_after?: unknown } }
    const seconds = parsed.parameters?.retry_after ?? parsed.retry_after
    return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0
      ? Math.ceil(seconds * 1000)
      : undefined
  } catch {
    return undefined
  }
}

export function classifyResponse(
  kind: TargetKind,
  status: number,
  headers: { get(name: string): string | null },
  body: string,
  now: number
): Outcome {
  if (status >= 200 && status < 300) {
    if (kind === 'telegram') {
      try {
        const parsed = JSON.parse(body) as { ok?: unknown; description?: unknown }
        if (parsed.ok !== true)
          return {
            kind: 'refused',
            reason: `Telegram: ${typeof parsed.description === 'string' ? parsed.description.slice(0, MAX_REASON) : 'not ok'}`
          }
      } catch {
        return { kind: 'refused', reason: 'Telegram answered something other than JSON.' }
      }
    }
    return { kind: 'delivered' }
  }
  if (status >= 300 && status < 400)
    return { kind: 'retry', reason: `HTTP ${status}: the target redirects; give its final URL.` }
  // A revoked token or a blocked bot may be put right within the day; its events wait till then.
  if (status === 401 || status === 403) return { kind: 'retry', reason: bodyReason(status, body) }
  if (status === 429 || status === 408 || status >= 500) {
    const retryAfterMs = parseRetryAfter(headers.get('retry-after') ?? undefined, now) ?? bodyRetryAfterMs(body)
    return retryAfterMs === undefined
      ? { kind: 'retry', reason: bodyReason(status, body) }
      : { kind: 'retry', reason: bodyReason(status, body), retryAfterMs }
  }
  return { kind: 'refused', reason: bodyReason(status, body) }
}
