// GitHub's pacing rules as pure functions on a clock the test moves: which headers are read and how, what a 403 or 429
// means, and when the pacer lets an endpoint be asked again.
import { describe, expect, it } from 'vitest'
import {
  GithubPacer,
  pollIntervalMs,
  rateLimitOf,
  refusalOf,
  RETRY_AFTER_FLOOR_MS,
  SECONDARY_MAX_WAIT_MS,
  SECONDARY_MIN_WAIT_MS
} from './etiquette'

const NOW = 1_700_000_000_000

describe('headers', () => {
  it('reads whole numbers only, spaces around them allowed', () => {
    expect(pollIntervalMs({ 'x-poll-interval': ' 60 ' })).toBe(60_000)
    expect(pollIntervalMs({ 'x-poll-interval': '0' })).toBe(0)
    for (const bad of ['', ' ', '6 0', '60s', '-5', '1.5', '1e3', '9007199254740993'])
      expect(pollIntervalMs({ 'x-poll-interval': bad }), bad).toBeNull()
    expect(pollIntervalMs({})).toBeNull()
  })

  it('the rate limit: counts, the reset in ms, the resource trimmed (blank is none)', () => {
    expect(
      rateLimitOf({
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '4999',
        'x-ratelimit-reset': '1700003600',
        'x-ratelimit-resource': ' core '
      })
    ).toEqual({ limit: 5000, remaining: 4999, resetAt: 1_700_003_600_000, resource: 'core' })
    expect(rateLimitOf({ 'x-ratelimit-resource': '  ' })).toEqual({
      limit: null,
      remaining: null,
      resetAt: null,
      resource: null
    })
  })
})

describe('refusalOf', () => {
  it('is about 403 and 429 only', () => {
    for (const status of [200, 304, 400, 401, 404, 500, 503])
      expect(refusalOf(status, { 'retry-after': '5' }, 'rate limit', NOW), String(status)).toBeNull()
  })

  it('the primary limit: remaining 0 without Retry-After waits until the reset, or a minute when none is given', () => {
    const reset = String(NOW / 1000 + 90)
    expect(refusalOf(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, '', NOW)).toEqual({
      kind: 'primary',
      waitMs: 90_000
    })
    expect(refusalOf(429, { 'x-ratelimit-remaining': '0' }, '', NOW)).toEqual({
      kind: 'primary',
      waitMs: SECONDARY_MIN_WAIT_MS
    })
    // A reset already past waits nothing more.
    const past = String(NOW / 1000 - 10)
    expect(refusalOf(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': past }, '', NOW)).toEqual({
      kind: 'primary',
      waitMs: 0
    })
  })

  it('remaining 0 with Retry-After is a secondary limit, waiting Retry-After', () => {
    expect(refusalOf(403, { 'x-ratelimit-remaining': '0', 'retry-after': '7' }, '', NOW)).toEqual({
      kind: 'secondary',
      waitMs: 7_000
    })
  })

  it('a secondary limit: Retry-After, a 429, or a 403 whose body speaks of a rate limit; remaining above 0 is not primary', () => {
    expect(refusalOf(403, { 'retry-after': '12', 'x-ratelimit-remaining': '3' }, '', NOW)).toEqual({
      kind: 'secondary',
      waitMs: 12_000
    })
    expect(refusalOf(429, {}, '', NOW)).toEqual({ kind: 'secondary', waitMs: SECONDARY_MIN_WAIT_MS })
    expect(refusalOf(403, {}, 'You have exceeded a secondary RATE LIMIT', NOW)).toEqual({
      kind: 'secondary',
      waitMs: SECONDARY_MIN_WAIT_MS
    })
  })

  it('a Retry-After of 0 (or in the past) waits the floor, never a busy loop', () => {
    expect(refusalOf(429, { 'retry-after': '0' }, '', NOW)).toEqual({ kind: 'secondary', waitMs: RETRY_AFTER_FLOOR_MS })
    expect(RETRY_AFTER_FLOOR_MS).toBe(1_000)
  })

  it('without Retry-After, a minute doubling with each strike, capped at 30 minutes', () => {
    const waits = [0, 1, 2, 4, 5, 10, 40].map((strikes) => refusalOf(429, {}, '', NOW, strikes))
    expect(waits.map((r) => r?.kind === 'secondary' && r.waitMs)).toEqual([
      60_000,
      120_000,
      240_000,
      960_000,
      SECONDARY_MAX_WAIT_MS,
      SECONDARY_MAX_WAIT_MS,
      SECONDARY_MAX_WAIT_MS
    ])
    expect(SECONDARY_MAX_WAIT_MS).toBe(1_800_000)
  })

  it('any other 403 is a permission the token lacks', () => {
    expect(refusalOf(403, { 'x-ratelimit-remaining': '4000' }, 'Resource not accessible', NOW)).toEqual({
      kind: 'permission'
    })
  })
})

describe('GithubPacer', () => {
  function pacer() {
    const clock = { now: NOW }
    return { clock, pacer: new GithubPacer(() => clock.now) }
  }

  it('an endpoint may be asked at once until an answer sets a poll interval, per endpoint', () => {
    const { clock, pacer: p } = pacer()
    expect(p.waitMs('/a')).toBe(0)
    p.answered('/a', { 'x-poll-interval': '5' })
    expect(p.readyAt('/a')).toBe(NOW + 5_000)
    expect(p.waitMs('/a')).toBe(5_000)
    expect(p.waitMs('/b')).toBe(0)
    clock.now += 4_000
    expect(p.waitMs('/a')).toBe(1_000)
    clock.now += 2_000
    expect(p.waitMs('/a')).toBe(0)
  })

  it('keeps an ETag per endpoint; null forgets it', () => {
    const { pacer: p } = pacer()
    expect(p.etag('/a')).toBeNull()
    p.setEtag('/a', '"v1"')
    expect([p.etag('/a'), p.etag('/b')]).toEqual(['"v1"', null])
    p.setEtag('/a', null)
    expect(p.etag('/a')).toBeNull()
  })

  it('notes the rate limit only when an answer reports one, and blocks everything when it is spent', () => {
    const { clock, pacer: p } = pacer()
    p.answered('/a', {})
    expect(p.rateLimit()).toBeNull()
    p.answered('/a', { 'x-ratelimit-remaining': '10' })
    expect(p.rateLimit()?.remaining).toBe(10)
    p.answered('/a', { 'x-ratelimit-limit': '5000' })
    expect(p.rateLimit()).toEqual({ limit: 5000, remaining: null, resetAt: null, resource: null })
    expect(p.waitMs('/b')).toBe(0)
    p.answered('/a', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 100) })
    expect(p.waitMs('/b')).toBe(100_000)
    // A later reset never shortens the block.
    p.answered('/a', { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW / 1000 + 50) })
    expect(p.waitMs('/b')).toBe(100_000)
    clock.now += 100_000
    expect(p.waitMs('/b')).toBe(0)
  })

  it('remaining 0 with no reset, or a reset with requests remaining, blocks nothing', () => {
    const { pacer: p } = pacer()
    p.answered('/a', { 'x-ratelimit-remaining': '0' })
    expect(p.waitMs('/b')).toBe(0)
    p.answered('/a', { 'x-ratelimit-remaining': '4999', 'x-ratelimit-reset': String(NOW / 1000 + 3600) })
    expect(p.waitMs('/b')).toBe(0)
  })

  it('a limit blocks every endpoint; secondary strikes count up and an answer clears them', () => {
    const { clock, pacer: p } = pacer()
    expect(p.refused(429, {}, '')).toEqual({ kind: 'secondary', waitMs: 60_000 })
    expect(p.waitMs('/anything')).toBe(60_000)
    clock.now += 60_000
    expect(p.refused(429, {}, '')).toEqual({ kind: 'secondary', waitMs: 120_000 })
    clock.now += 120_000
    p.answered('/a', {})
    expect(p.refused(429, {}, '')).toEqual({ kind: 'secondary', waitMs: 60_000 })
  })

  it('a primary limit blocks until its reset without counting a strike', () => {
    const { clock, pacer: p } = pacer()
    const reset = String(NOW / 1000 + 30)
    expect(p.refused(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset }, '')).toEqual({
      kind: 'primary',
      waitMs: 30_000
    })
    expect(p.waitMs('/a')).toBe(30_000)
    clock.now += 30_000
    expect(p.refused(429, {}, '')).toEqual({ kind: 'secondary', waitMs: 60_000 })
  })

  it('a permission refusal or another status blocks nothing', () => {
    const { pacer: p } = pacer()
    expect(p.refused(403, {}, 'Forbidden')).toEqual({ kind: 'permission' })
    expect(p.refused(500, { 'retry-after': '9' }, '')).toBeNull()
    expect(p.waitMs('/a')).toBe(0)
    expect(p.refused(429, {}, '')).toEqual({ kind: 'secondary', waitMs: 60_000 })
  })

  it('a short block never shortens a longer one', () => {
    const { pacer: p } = pacer()
    p.refused(429, { 'retry-after': '100' }, '')
    p.refused(429, { 'retry-after': '5' }, '')
    expect(p.waitMs('/a')).toBe(100_000)
  })
})
