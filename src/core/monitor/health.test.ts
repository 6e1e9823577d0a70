import { describe, expect, it } from 'vitest'
import type { ProjectHealth } from '../../shared/monitor'
import { ServiceError } from '../client/service-error'
import { type ErrorReading, nextHealth, readError } from './health'

const T0 = Date.UTC(2025, 0, 1, 9, 0, 0)
const iso = (ms: number) => new Date(ms).toISOString()

describe('readError', () => {
  it("takes a client error's own words, status and wait", () => {
    const error = new ServiceError('rate_limited', 'Too many requests', { status: 429, retryAfterMs: 30_000 })
    expect(readError(error)).toEqual({
      kind: 'rate_limited',
      retryAfterMs: 30_000,
      info: { kind: 'rate_limited', message: 'Too many requests', status: 429, retryAfterMs: 30_000 }
    })
  })

  it('reads any error of the same shape: its kind, its message, else the kind as the message', () => {
    expect(readError({ kind: 'server', message: 'boom' })).toEqual({
      kind: 'server',
      info: { kind: 'server', message: 'boom' }
    })
    expect(readError({ kind: 'timeout' })).toEqual({ kind: 'timeout', info: { kind: 'timeout', message: 'timeout' } })
  })

  it('takes a wait only when it is a number', () => {
    expect(readError({ kind: 'rate_limited', retryAfterMs: 0 })).toHaveProperty('retryAfterMs', 0)
    expect(readError({ kind: 'rate_limited', retryAfterMs: '30' })).not.toHaveProperty('retryAfterMs')
  })

  it('reads anything else thrown as a network error with its words', () => {
    expect(readError(new TypeError('fetch failed'))).toEqual({
      kind: 'network',
      info: { kind: 'network', message: 'fetch failed' }
    })
    expect(readError('socket hang up')).toEqual({
      kind: 'network',
      info: { kind: 'network', message: 'socket hang up' }
    })
    expect(readError(null)).toEqual({ kind: 'network', info: { kind: 'network', message: 'null' } })
    // A kind that is not text is not the client's shape.
    expect(readError({ kind: 7, message: 'odd' })).toEqual({
      kind: 'network',
      info: { kind: 'network', message: '[object Object]' }
    })
  })
})

const failure = (kind: ErrorReading['kind'], message = `${kind} failure`): ErrorReading => ({
  kind,
  info: { kind, message }
})

describe('nextHealth', () => {
  it('is ok after a poll that worked, news only when it was not ok before', () => {
    const first = nextHealth({ state: 'unknown' }, null, T0, T0 + 5_000)
    expect(first).toEqual({ health: { state: 'ok', polledAt: iso(T0) }, changed: true })
    const again = nextHealth(first.health, null, T0 + 5_000, T0 + 10_000)
    expect(again).toEqual({ health: { state: 'ok', polledAt: iso(T0 + 5_000) }, changed: false })
  })

  it('says since when it has failed and when it tries again; the same error again is no news', () => {
    const ok: ProjectHealth = { state: 'ok', polledAt: iso(T0) }
    const first = nextHealth(ok, failure('server'), T0 + 5_000, T0 + 10_000)
    expect(first).toEqual({
      health: {
        state: 'error',
        error: { kind: 'server', message: 'server failure' },
        since: iso(T0 + 5_000),
        nextPollAt: iso(T0 + 10_000)
      },
      changed: true
    })
    const again = nextHealth(first.health, failure('server'), T0 + 10_000, T0 + 20_000)
    expect(again).toEqual({
      health: {
        state: 'error',
        error: { kind: 'server', message: 'server failure' },
        since: iso(T0 + 5_000),
        nextPollAt: iso(T0 + 20_000)
      },
      changed: false
    })
    expect(nextHealth(again.health, null, T0 + 20_000, T0 + 25_000).changed).toBe(true)
  })

  it('a first poll that fails is news', () => {
    const first = nextHealth({ state: 'unknown' }, failure('auth'), T0, T0 + 60_000)
    expect(first.changed).toBe(true)
    expect(first.health).toMatchObject({ state: 'error', since: iso(T0) })
  })

  it('another kind of error, or other words, is news; the failure goes on since the first', () => {
    const first = nextHealth({ state: 'unknown' }, failure('server', 'HTTP 500'), T0, T0 + 5_000).health
    const otherKind = nextHealth(first, failure('timeout', 'HTTP 500'), T0 + 5_000, T0 + 15_000)
    expect(otherKind.changed).toBe(true)
    expect(otherKind.health).toMatchObject({ state: 'error', error: { kind: 'timeout' }, since: iso(T0) })
    const otherWords = nextHealth(otherKind.health, failure('timeout', 'no answer in 10 s'), T0 + 15_000, T0 + 35_000)
    expect(otherWords.changed).toBe(true)
    expect(otherWords.health).toMatchObject({ error: { message: 'no answer in 10 s' }, since: iso(T0) })
  })
})
