// The provider model's own rules: what counts as active, and Now's order (what needs you first).
import { describe, expect, it } from 'vitest'
import { isProviderActive, PROVIDER_STATUS_ORDER, PROVIDER_STATUSES, statusFrom } from './provider'

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
