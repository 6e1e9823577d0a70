import { describe, expect, it } from 'vitest'
import type { TaskStatus, Unknown } from './service'
import { compareTaskStatus, isActive, isEnded, isStepActive, stepStatusLabel, taskStatusLabel } from './status'

describe('task status', () => {
  it('is active only for todo and in_progress', () => {
    const all: (TaskStatus | Unknown)[] = ['todo', 'in_progress', 'completed', 'failed', 'cancelled', 'unknown']
    expect(all.filter(isActive)).toEqual(['todo', 'in_progress'])
    expect(all.filter(isEnded)).toEqual(['completed', 'failed', 'cancelled'])
  })

  it('sorts running work first and unknown last', () => {
    const sorted: (TaskStatus | Unknown)[] = ['unknown', 'completed', 'todo', 'cancelled', 'failed', 'in_progress']
    sorted.sort(compareTaskStatus)
    expect(sorted).toEqual(['in_progress', 'todo', 'failed', 'completed', 'cancelled', 'unknown'])
  })

  it('sorts a word outside the list (one that slipped past parsing) last too, and calls it Unknown', () => {
    const stray = 'paused' as TaskStatus
    const sorted: (TaskStatus | Unknown)[] = [stray, 'cancelled', 'todo']
    sorted.sort(compareTaskStatus)
    expect(sorted).toEqual(['todo', 'cancelled', stray])
    expect(compareTaskStatus(stray, 'unknown')).toBeGreaterThan(0)
    expect(taskStatusLabel(stray)).toBe('Unknown')
  })

  it('labels statuses, keeping the server word for unknown ones', () => {
    expect(taskStatusLabel('in_progress')).toBe('In progress')
    expect(taskStatusLabel('unknown', 'paused')).toBe('paused')
    expect(taskStatusLabel('unknown')).toBe('Unknown')
    expect(taskStatusLabel('unknown', '')).toBe('Unknown')
    // A known status keeps its own label whatever word came with it.
    expect(taskStatusLabel('failed', 'errored')).toBe('Failed')
  })
})

describe('step status', () => {
  it('labels and tells activity', () => {
    expect(isStepActive('pending')).toBe(true)
    expect(isStepActive('in_progress')).toBe(true)
    for (const status of ['completed', 'failed', 'cancelled', 'unknown'] as const)
      expect(isStepActive(status), status).toBe(false)
    expect(stepStatusLabel('pending')).toBe('Pending')
    expect(stepStatusLabel('unknown', 'queued')).toBe('queued')
    expect(stepStatusLabel('unknown')).toBe('Unknown')
    expect(stepStatusLabel('completed', 'done')).toBe('Completed')
  })
})
