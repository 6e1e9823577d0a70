// How often Agent Tray may ask GitHub, per GitHub's own rules (mapping.ts names the pages): an endpoint's
// x-poll-interval is a floor between polls of it; a 304 to If-None-Match is free; when the primary limit is used up
// (x-ratelimit-remaining 0) nothing is asked before x-ratelimit-reset; a secondary limit (403 or 429) waits Retry-After,
// else at least a minute, doubling while it repeats. Pure but for the clock it is given.

import { parseRetryAfter } from '../../client/retry'

type Headers = Record<string, string | undefined>

export interface RateLimit {
  limit: number | null
  remaining: number | null
  /** Epoch ms. */
  resetAt: number | null
  resource: string | null
}

/** A refused request, read from its status, headers and body. */
export type Refusal =
  | { kind: 'primary'; waitMs: number }
  | { kind: 'secondary'; waitMs: number }
  /** Not a limit: the token may not do this (or cannot see it). */
  | { kind: 'permission' }

/** GitHub: "wait at least one minute before retrying", then exponentially longer. */
export const SECONDARY_MIN_WAIT_MS = 60_000
/** However often a secondary limit repeats, the next try is at most this far away. */
export const SECONDARY_MAX_WAIT_MS = 30 * 60_000

function whole(value: string | undefined): number | null {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return null
  const n = Number(value)
  return Number.isSafeInteger(n) ? n : null
}

export function rateLimitOf(headers: Headers): RateLimit {
  const reset = whole(headers['x-ratelimit-reset'])
  return {
    limit: whole(headers['x-ratelimit-limit']),
    remaining: whole(headers['x-ratelimit-remaining']),
    resetAt: reset === null ? null : reset * 1000,
    resource: headers['x-ratelimit-resource']?.trim() || null
  }
}

/** x-poll-interval, in ms: the least time before polling the same endpoint again. */
export function pollIntervalMs(headers: Headers): number | null {
  const s = whole(headers['x-poll-interval'])
  return s === null ? null : s * 1000
}

/** A Retry-After shorter than this is taken as this: "0" from a hostile or broken peer must not become a busy loop. */
export const RETRY_AFTER_FLOOR_MS = 1_000

/** Retry-After by the client's one reading of it (seconds or a date), never under the floor. */
function retryAfterMs(headers: Headers, now: number): number | null {
  const ms = parseRetryAfter(headers['retry-after'], now)
  return ms === undefined ? null : Math.max(RETRY_AFTER_FLOOR_MS, ms)
}

/** What a 403 or 429 means; null for any other status. `strikes` is how many secondary limits came in a row before. */
export function refusalOf(status: number, headers: Headers, body: string, now: number, strikes = 0): Refusal | null {
  if (status !== 403 && status !== 429) return null
  const after = retryAfterMs(headers, now)
  const rate = rateLimitOf(headers)
  if (rate.remaining === 0 && after === null) {
    return { kind: 'primary', waitMs: Math.max(0, (rate.resetAt ?? now + SECONDARY_MIN_WAIT_MS) - now) }
  }
  if (after !== null || status === 429 || /rate limit/i.test(body)) {
    const backoff = Math.min(SECONDARY_MAX_WAIT_MS, SECONDARY_MIN_WAIT_MS * 2 ** Math.min(strikes, 10))
    return { kind: 'secondary', waitMs: after ?? backoff }
  }
  return { kind: 'permission' }
}

/** When each endpoint may be asked again, and the ETag to ask it with: one per account (limits are the user's). */
export class GithubPacer {
  private readonly floors = new Map<string, number>()
  private readonly etags = new Map<string, string>()
  private blockedUntil = 0
  private strikes = 0
  private lastRate: RateLimit | null = null

  constructor(private readonly now: () => number = Date.now) {}

  /** Epoch ms before which `key` must not be asked (x-poll-interval, or a limit for the whole account). */
  readyAt(key: string): number {
    return Math.max(this.floors.get(key) ?? 0, this.blockedUntil)
  }

  /** How long until `key` may be asked; 0 when it may be now. */
  waitMs(key: string): number {
    return Math.max(0, this.readyAt(key) - this.now())
  }

  etag(key: string): string | null {
    return this.etags.get(key) ?? null
  }

  /** Kept only once a whole (paged) answer was read, so a 304 never stands for a list half read. */
  setEtag(key: string, etag: string | null): void {
    if (etag === null) this.etags.delete(key)
    else this.etags.set(key, etag)
  }

  /** An answer that was not a refusal (2xx, 304, 404…): its poll interval and rate limit are noted. */
  answered(key: string, headers: Headers): void {
    const at = this.now()
    const floor = pollIntervalMs(headers)
    if (floor !== null) this.floors.set(key, at + floor)
    this.strikes = 0
    const rate = rateLimitOf(headers)
    if (rate.limit !== null || rate.remaining !== null) this.lastRate = rate
    // A budget spent by other clients of the same user: nothing more until it resets.
    if (rate.remaining === 0 && rate.resetAt !== null) this.blockedUntil = Math.max(this.blockedUntil, rate.resetAt)
  }

  /** A 403 or 429, read; the refusal is returned for the error's words. */
  refused(status: number, headers: Headers, body: string): Refusal | null {
    const refusal = refusalOf(status, headers, body, this.now(), this.strikes)
    if (refusal === null || refusal.kind === 'permission') return refusal
    if (refusal.kind === 'secondary') this.strikes += 1
    this.blockedUntil = Math.max(this.blockedUntil, this.now() + refusal.waitMs)
    return refusal
  }

  /** The last rate limit GitHub reported (for the window and the bench). */
  rateLimit(): RateLimit | null {
    return this.lastRate
  }
}
