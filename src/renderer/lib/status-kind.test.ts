import { describe, expect, it } from 'vitest'
import { providerStatusKind, seenAware, STATUS_LABEL, statusKind } from './status-kind'

describe('statusKind', () => {
  it('maps the service statuses of tasks and steps, and anything new to unknown', () => {
    expect(statusKind('in_progress')).toBe('running')
    expect(statusKind('pending')).toBe('todo')
    expect(statusKind('todo')).toBe('todo')
    expect(statusKind('failed')).toBe('failed')
    expect(statusKind('paused_by_admin')).toBe('unknown')
    expect(STATUS_LABEL[statusKind('in_progress')]).toBe('Running')
  })
})

describe('seenAware', () => {
  it('quietens a failure once seen, keeping it apart from done and cancelled', () => {
    expect(seenAware('failed', true)).toBe('failed')
    expect(seenAware('failed', false)).toBe('failed-seen')
    expect(seenAware('completed', false)).toBe('completed')
    expect(STATUS_LABEL['failed-seen']).toBe('Failed')
    expect(new Set([seenAware('failed', false), 'completed', 'cancelled']).size).toBe(3)
  })
})

describe('providerStatusKind', () => {
  it('gives each status of the one task model its glyph, waiting its own', () => {
    expect(providerStatusKind('queued')).toBe('todo')
    expect(providerStatusKind('waiting')).toBe('waiting')
    expect(providerStatusKind('running')).toBe('running')
    expect(providerStatusKind('unknown')).toBe('unknown')
    expect(STATUS_LABEL[providerStatusKind('waiting')]).toBe('Waiting for you')
  })
})
