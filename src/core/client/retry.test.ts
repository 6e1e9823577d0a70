import { describe, expect, it } from 'vitest'
import { DEFAULT_RETRY, isRetryable, parseRetryAfter, retryDelay } from './retry'
import { ServiceError } from './service-error'

const NOW = Date.parse('2025-01-01T00:00:00.000Z')

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000)
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0)
    expect(parseRetryAfter('120', NOW)).toBe(120_000)
  })

  it('reads an HTTP date relative to the injected clock', () => {
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:07 GMT', NOW)).toBe(7000)
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', NOW)).toBe(0)
  })

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined()
    expect(parseRetryAfter('', NOW)).toBeUndefined()
    expect(parseRetryAfter('soon', NOW)).toBeUndefined()
    expect(parseRetryAfter('-5', NOW)).toBeUndefined()
    expect(parseRetryAfter('1.5', NOW)).toBeUndefined()
    expect(parseRetryAfter('   ', NOW)).toBeUndefined()
    // Digits beyond any number of seconds a double holds.
    expect(parseRetryAfter('9'.repeat(400), NOW)).toBeUndefined()
  })
})

describe('retryDelay', () => {
  const policy = { retries: 3, baseDelayMs: 100, maxDelayMs: 1000 }

  it('uses full jitter over an exponentially growing ceiling', () => {
    expect(retryDelay(0, undefined, () => 0.5, policy)).toBe(50)
    expect(retryDelay(1, undefined, () => 0.5, policy)).toBe(100)
    expect(retryDelay(2, undefined, () => 0.999, policy)).toBe(399)
    expect(retryDelay(3, undefined, () => 0, policy)).toBe(0)
  })

  it('never waits longer than the maximum', () => {
    expect(retryDelay(20, undefined, () => 0.99, policy)).toBe(990)
  })

  it('clamps a misbehaving random source', () => {
    expect(retryDelay(0, undefined, () => 7, policy)).toBe(100)
    expect(retryDelay(0, undefined, () => Number.NaN, policy)).toBe(0)
    expect(retryDelay(0, undefined, () => -3, policy)).toBe(0)
  })

  it("honours the server's Retry-After exactly, without jitter", () => {
    expect(retryDelay(0, 750, () => 0.1, policy)).toBe(750)
    expect(retryDelay(0, policy.maxDelayMs, () => 0.1, policy)).toBe(policy.maxDelayMs)
  })

  it('gives up when the server asks for longer than the maximum wait', () => {
    expect(retryDelay(0, 5000, () => 0.1, policy)).toBeNull()
  })

  it('has sensible defaults', () => {
    expect(DEFAULT_RETRY).toEqual({ retries: 3, baseDelayMs: 500, maxDelayMs: 30_000 })
  })
})

describe('isRetryable', () => {
  it('repeats reads after transient failures only', () => {
    for (const kind of ['network', 'timeout', 'server', 'rate_limited'] as const) {
      expect(isRetryable('GET', new ServiceError(kind, 'x'))).toBe(true)
    }
    for (const kind of ['auth', 'not_found', 'bad_request', 'invalid_response'] as const) {
      expect(isRetryable('GET', new ServiceError(kind, 'x'))).toBe(false)
    }
  })

  it('never repeats a POST or PATCH', () => {
    expect(isRetryable('POST', new ServiceError('rate_limited', 'x'))).toBe(false)
    expect(isRetryable('PATCH', new ServiceError('network', 'x'))).toBe(false)
  })
})
