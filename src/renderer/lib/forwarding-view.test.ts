import { describe, expect, it } from 'vitest'
import type { ForwardTargetView } from '../../shared/forward-target'
import { presenceSentence, targetState, targetSummary } from './forwarding-view'

const base: ForwardTargetView = {
  id: 't1',
  name: 'Phone',
  kind: 'ntfy',
  host: 'ntfy.sh',
  on: ['budget', 'failed'],
  when: 'away',
  paused: false,
  quietHours: false,
  lastDeliveredAt: null,
  lastError: null,
  lastErrorAt: null,
  pending: 0
}

describe('Settings → Forwarding words', () => {
  it('a target is paused, failing since its last delivery, delivered, or not sent to yet', () => {
    expect(targetState(base).label).toBe('Nothing sent yet')
    expect(targetState({ ...base, lastDeliveredAt: '2026-11-27T10:00:00.000Z' }).status).toBe('completed')
    expect(
      targetState({
        ...base,
        lastDeliveredAt: '2026-11-27T10:00:00.000Z',
        lastError: 'HTTP 500',
        lastErrorAt: '2026-11-27T10:05:00.000Z'
      }).status
    ).toBe('failed')
    // An error before the last delivery is history: a delivery came after it.
    expect(
      targetState({
        ...base,
        lastDeliveredAt: '2026-11-27T10:05:00.000Z',
        lastError: 'HTTP 500',
        lastErrorAt: '2026-11-27T10:00:00.000Z'
      }).status
    ).toBe('completed')
    expect(
      targetState({ ...base, paused: true, lastError: 'HTTP 500', lastErrorAt: '2026-11-27T10:00:00.000Z' })
    ).toEqual({ status: 'paused', label: 'Paused' })
  })

  it('says kind, host, events in their order, and when', () => {
    expect(targetSummary(base)).toBe('ntfy · ntfy.sh · failed, budget · when away')
    expect(targetSummary({ ...base, kind: 'webhook', host: '127.0.0.1:8080', when: 'always', quietHours: true })).toBe(
      'JSON webhook · 127.0.0.1:8080 · failed, budget · always, not in quiet hours'
    )
    expect(targetSummary({ ...base, paused: true })).toBe('Paused · ntfy · ntfy.sh · failed, budget · when away')
  })

  it('leaves out the kind and host a name already says (a default name is both), so the line fits', () => {
    const named = { ...base, kind: 'webhook' as const, host: '127.0.0.1:8080', name: 'JSON webhook 127.0.0.1:8080' }
    expect(targetSummary(named)).toBe('failed, budget · when away')
    expect(targetSummary({ ...named, name: 'Alerts on 127.0.0.1:8080' })).toBe(
      'JSON webhook · failed, budget · when away'
    )
  })

  it('says why the user is seen as away, or what away means', () => {
    expect(presenceSentence({ away: true, locked: true, idleSeconds: 0, awayAfterMs: 300_000 })).toBe(
      'You are seen as away: the screen is locked.'
    )
    expect(presenceSentence({ away: true, locked: false, idleSeconds: 420, awayAfterMs: 300_000 })).toBe(
      'You are seen as away: no input for 7 minutes.'
    )
    expect(presenceSentence({ away: false, locked: false, idleSeconds: 3, awayAfterMs: 60_000 })).toBe(
      'You are seen as at this computer. Away means the screen is locked or no input for 1 minute.'
    )
  })
})
