// When to try a request again and how long to wait first: pure, so the math is tested alone.
import type { ServiceError } from './service-error'

export interface RetryPolicy {
  retries: number
  baseDelayMs: number
  maxDelayMs: number
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 500, maxDelayMs: 30_000 }

/** Retry-After (seconds or an HTTP date) as milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined
  const value = header.trim()
  if (/^\d+$/.test(value)) {
    const seconds = Number(value)
    return Number.isFinite(seconds) ? seconds * 1000 : undefined
  }
  // Only date forms: Date.parse would also read things like "1.5" or "2024" as dates.
  if (!/[a-z]/i.test(value)) return undefined
  const at = Date.parse(value)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
}

/** The wait before the next retry: Retry-After, else exponential backoff with full jitter. null past the policy's
 * maximum: give up now and let the caller schedule the next try. */
export function retryDelay(
  attempt: number,
  retryAfterMs: number | undefined,
  random: () => number,
  policy: RetryPolicy = DEFAULT_RETRY
): number | null {
  if (retryAfterMs !== undefined) return retryAfterMs <= policy.maxDelayMs ? retryAfterMs : null
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt)
  const r = random()
  const unit = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0
  return Math.floor(unit * ceiling)
}

/** Only reads are repeated: a POST or PATCH might have taken effect before the failure. */
export function isRetryable(method: string, error: ServiceError): boolean {
  if (method !== 'GET') return false
  return (
    error.kind === 'network' || error.kind === 'timeout' || error.kind === 'server' || error.kind === 'rate_limited'
  )
}
