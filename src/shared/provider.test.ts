// The provider model's own rules: what counts as active, and Now's order (what needs you first).
import { describe, expect, it } from 'vitest'
import {
  byNewestChange,
  byNowOrder,
  isProviderActive,
  PROVIDER_STATUS_ORDER,
  PROVIDER_STATUSES,
  statusFrom
} from './provider'

describe('provider statuses', () => {
  it('Now orders every status once: waiting, then failures, then what runs', () => {
    expect([...PROVIDER_STATUS_ORDER].sort()).toEqual([...PROVIDER_STATUSES].sort())
    expect(PROVIDER_STATUS_ORDER.slice(0, 3)).toEqual(['waiting', 'failed', 'running'])
  })

  it('queued, running and waiting are active; the rest are not', () => {
    expect(PROVIDER_STATUSES.filter(isProviderActive)).toEqual(['queued', 'running', 'waiting'])
  })

  it("a table's inherited names are not its words", () => {
    const table = { ok: 'completed' } as const
    expect(statusFrom(table, 'hasOwnProperty')).toEqual({ status: 'unknown', serviceStatus: 'hasOwnProperty' })
    expect(statusFrom(table, null)).toEqual({ status: 'unknown', serviceStatus: '' })
    expect(statusFrom(table, 'ok')).toEqual({ status: 'completed', serviceStatus: 'ok' })
  })
})

describe('byNowOrder', () => {
  const t = (id: string, status: (typeof PROVIDER_STATUSES)[number], updatedAt: string | null) => ({
    id,
    status,
    updatedAt
  })

  it('by status, then the newest change first; a missing or unreadable time last', () => {
    const tasks = [
      t('done', 'completed', '2026-03-01T10:00:00Z'),
      t('run-old', 'running', '2026-03-01T08:00:00Z'),
      t('run-bad', 'running', 'not a time'),
      t('run-none', 'running', null),
      t('fail', 'failed', '2026-03-01T07:00:00Z'),
      // Another ISO form of a later time: compared as times, not as text.
      t('run-new', 'running', '2026-03-01T09:00:00.000+00:00'),
      t('wait', 'waiting', null)
    ]
    expect([...tasks].sort(byNowOrder).map((x) => x.id)).toEqual([
      'wait',
      'fail',
      'run-new',
      'run-old',
      'run-bad',
      'run-none',
      'done'
    ])
  })

  it('byNewestChange alone ignores the status', () => {
    const tasks = [t('a', 'waiting', '2026-03-01T07:00:00Z'), t('b', 'completed', '2026-03-01T08:00:00Z')]
    expect([...tasks].sort(byNewestChange).map((x) => x.id)).toEqual(['b', 'a'])
  })
})
