import { describe, expect, it } from 'vitest'
import type { IpcError } from '../../shared/ipc'
import { accountProblems, describeError, formatWait, isOffline, saidByBanner } from './error-view'

describe('describeError', () => {
  it('tells offline apart and offers a retry', () => {
    for (const kind of ['network', 'timeout'] as const) {
      const view = describeError({ kind, message: 'connect ECONNREFUSED' })
      expect(view.actions).toContain('retry')
      expect(view.detail).toBe('connect ECONNREFUSED')
      expect(isOffline({ kind, message: '' })).toBe(true)
    }
    expect(describeError({ kind: 'network', message: '' }).title).toMatch(/offline/i)
    expect(isOffline({ kind: 'auth', message: '' })).toBe(false)
  })

  it('sends a rejected key to Settings', () => {
    const view = describeError({ kind: 'auth', message: 'HTTP 401', status: 401 })
    expect(view.title).toMatch(/key/i)
    expect(view.actions).toEqual(['fix-key'])
  })

  it('offers to stop watching a gone project, and to go back from a gone task', () => {
    const gone: IpcError = { kind: 'not_found', message: 'HTTP 404' }
    expect(describeError(gone, 'project').actions).toContain('unwatch')
    expect(describeError(gone, 'project').title).toMatch(/project is gone/)
    expect(describeError(gone, 'task').actions).toContain('back-to-project')
    expect(describeError(gone, 'action').actions).not.toContain('unwatch')
  })

  it('shows when to retry after rate limiting', () => {
    const view = describeError({ kind: 'rate_limited', message: '', retryAfterMs: 30_000 }, 'project', 1_000)
    expect(view.retryAt).toBe(31_000)
    expect(view.message).toContain('30 seconds')
    expect(view.detail).toBeNull()
    const unknown = describeError({ kind: 'rate_limited', message: '' })
    expect(unknown.retryAt).toBeNull()
    expect(unknown.message).toMatch(/slow down/)
  })

  it('names an unreadable response and offers the settings', () => {
    const view = describeError({ kind: 'invalid_response', message: 'tasks[0].id: expected string' })
    expect(view.title).toMatch(/cannot read/)
    expect(view.actions).toEqual(['retry', 'open-settings'])
  })

  it('has a title and message for every kind, even one it does not know', () => {
    const kinds = [
      'auth',
      'not_found',
      'rate_limited',
      'server',
      'network',
      'timeout',
      'invalid_response',
      'publish_failed',
      'bad_request',
      'invalid_argument',
      'forbidden',
      'internal',
      'brand_new'
    ]
    const titles = new Set<string>()
    for (const kind of kinds) {
      const view = describeError({ kind, message: 'x' } as IpcError)
      expect(view.title.length).toBeGreaterThan(0)
      expect(view.message.length).toBeGreaterThan(0)
      titles.add(view.title)
    }
    expect(titles.size).toBe(kinds.length)
  })
})

describe('formatWait', () => {
  it('words waits plainly', () => {
    expect(formatWait(0)).toBe('1 second')
    expect(formatWait(1_500)).toBe('2 seconds')
    expect(formatWait(60_000)).toBe('1 minute')
    expect(formatWait(90_000)).toBe('2 minutes')
    expect(formatWait(3_600_000)).toBe('1 hour')
    expect(formatWait(3_900_000)).toBe('1 hour 5 minutes')
  })
})

describe('accountProblems', () => {
  const ok = (connectionId: string) => ({
    connectionId,
    health: { state: 'ok' as const, polledAt: '2026-01-01T07:00:00Z' }
  })
  const failing = (connectionId: string, kind: 'auth' | 'network' | 'not_found', since: string) => ({
    connectionId,
    health: { state: 'error' as const, error: { kind, message: '' }, since, nextPollAt: since }
  })

  it('a rejected key is the account’s, whichever project met it: red', () => {
    const problems = accountProblems([ok('a'), failing('a', 'auth', '2026-01-01T07:20:00Z')])
    expect(problems).toEqual([
      { connectionId: 'a', health: 'error', error: { kind: 'auth', message: '' }, since: '2026-01-01T07:20:00Z' }
    ])
  })

  it('an unreachable service is the account’s once none of its checked projects answers: amber', () => {
    expect(accountProblems([ok('a'), failing('a', 'network', '2026-01-01T07:20:00Z')])).toEqual([])
    const unchecked = { connectionId: 'a', health: { state: 'unknown' as const } }
    const problems = accountProblems([
      unchecked,
      failing('a', 'network', '2026-01-01T07:21:00Z'),
      failing('a', 'network', '2026-01-01T07:20:00Z')
    ])
    expect(problems.map((p) => [p.health, p.since])).toEqual([['retrying', '2026-01-01T07:20:00Z']])
  })

  it('one project’s own error is not the account’s; the worst account comes first', () => {
    expect(accountProblems([failing('a', 'not_found', '2026-01-01T07:20:00Z')])).toEqual([])
    const problems = accountProblems([
      failing('a', 'network', '2026-01-01T07:00:00Z'),
      failing('b', 'auth', '2026-01-01T07:30:00Z')
    ])
    expect(problems.map((p) => p.connectionId)).toEqual(['b', 'a'])
  })

  it('another service’s account: its last poll’s error is the account’s, named, and sorted with the rest', () => {
    const agent = (id: string, kind: 'auth' | 'rate_limited', since: string) => ({
      id,
      name: `Account ${id}`,
      agentHealth: {
        state: 'error' as const,
        error: { kind, message: 'said by the service' },
        since,
        nextPollAt: since
      }
    })
    const fine = { id: 'g', name: 'Fine', agentHealth: { state: 'ok' as const, polledAt: '2026-01-01T07:00:00Z' } }
    const problems = accountProblems(
      [failing('a', 'network', '2026-01-01T07:00:00Z')],
      [
        fine,
        { id: 'w', name: 'Workser', agentHealth: null },
        agent('j', 'rate_limited', '2026-01-01T06:00:00Z'),
        agent('k', 'auth', '2026-01-01T07:40:00Z')
      ]
    )
    expect(problems.map((p) => [p.connectionId, p.health, p.account])).toEqual([
      ['k', 'error', 'Account k'],
      ['j', 'retrying', 'Account j'],
      ['a', 'retrying', undefined]
    ])
    expect(saidByBanner({ kind: 'auth', message: '' }, 'k', [], [agent('k', 'auth', '2026-01-01T07:40:00Z')])).toBe(
      true
    )
  })
})

describe('saidByBanner', () => {
  const failing = (connectionId: string, kind: 'auth' | 'network', since = '2026-01-01T07:20:00Z') => ({
    connectionId,
    health: { state: 'error' as const, error: { kind, message: '' }, since, nextPollAt: since }
  })
  const ok = { connectionId: 'a', health: { state: 'ok' as const, polledAt: '2026-01-01T07:00:00Z' } }

  it('leaves to the banner a rejected key or an unreachable service of the same account', () => {
    expect(saidByBanner({ kind: 'auth', message: '' }, 'a', [failing('a', 'auth')])).toBe(true)
    expect(saidByBanner({ kind: 'timeout', message: '' }, 'a', [failing('a', 'network')])).toBe(true)
    expect(saidByBanner({ kind: 'network', message: '' }, undefined, [failing('a', 'network')])).toBe(true)
  })

  it('keeps on the screen what the banner does not say: another account’s, one project’s, another kind', () => {
    expect(saidByBanner({ kind: 'auth', message: '' }, 'b', [failing('a', 'auth')])).toBe(false)
    // One project unreachable while another answers: not the account's, so no banner.
    expect(saidByBanner({ kind: 'network', message: '' }, 'a', [ok, failing('a', 'network')])).toBe(false)
    expect(saidByBanner({ kind: 'not_found', message: '' }, 'a', [failing('a', 'auth')])).toBe(false)
    expect(saidByBanner({ kind: 'network', message: '' }, 'a', [failing('a', 'auth')])).toBe(false)
  })
})
