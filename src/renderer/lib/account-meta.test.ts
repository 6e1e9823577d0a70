import { describe, expect, it } from 'vitest'
import { formatDate } from '../../shared/format'
import { accountMeta } from './account-meta'

const NOW = Date.parse('2026-11-27T10:00:00Z')
const base = {
  baseUrl: 'https://api.workser.ai',
  hasKey: true,
  publishingDomain: '',
  notifications: { muted: false, pausedUntil: null }
}

describe('accountMeta', () => {
  it('names the host and the key, nothing more when nothing else is set', () => {
    expect(accountMeta(base, NOW, 'UTC')).toBe('api.workser.ai · key stored')
    expect(accountMeta({ ...base, baseUrl: 'http://127.0.0.1:8080/v1', hasKey: false }, NOW, 'UTC')).toBe(
      '127.0.0.1:8080 · no key stored'
    )
  })

  it('adds the publishing domain, the mute and the pause, in that order, the pause in the one date format', () => {
    const meta = accountMeta(
      {
        ...base,
        publishingDomain: 'apps.example.com',
        notifications: { muted: true, pausedUntil: '2026-11-27T11:00:00Z' }
      },
      NOW,
      'UTC'
    )
    // The time of day in the system's hour cycle (shared/format's rule), said as today's.
    expect(meta).toBe(
      `api.workser.ai · key stored · sites on apps.example.com · muted · paused until ${formatDate('2026-11-27T11:00:00Z', NOW, 'UTC')}`
    )
    expect(meta).toMatch(/paused until today \S/)
  })

  it('keeps an address that is not a URL as it is', () => {
    expect(accountMeta({ ...base, baseUrl: 'not a url' }, NOW, 'UTC')).toBe('not a url · key stored')
  })
})
