import { describe, expect, it } from 'vitest'
import { STATUS_LABEL, statusKind } from './status-kind'

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
