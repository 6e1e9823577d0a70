import { describe, expect, it } from 'vitest'
import { formatTokens } from '../../shared/format'
import { durationMs, formatCount, formatDateTime, formatTime, stepTypeLabel } from './format'

describe('formatCount', () => {
  it('is the one token form (shared formatTokens), absent kept apart from zero', () => {
    for (const n of [0, 950, 12_345, 1_234_567, null, undefined]) expect(formatCount(n)).toBe(formatTokens(n))
    expect(formatCount(1234567)).toBe('1.2M')
    expect(formatCount(undefined)).toBe('–')
  })
})

describe('durationMs', () => {
  it('measures between two times and refuses nonsense', () => {
    expect(durationMs('2025-01-01T00:00:00.000Z', '2025-01-01T00:01:30.000Z')).toBe(90_000)
    expect(durationMs('2025-01-01T00:01:00.000Z', '2025-01-01T00:00:00.000Z')).toBeNull()
    expect(durationMs('nope', '2025-01-01T00:00:00.000Z')).toBeNull()
  })
})

describe('formatDateTime', () => {
  it('shows unreadable dates as they are', () => {
    expect(formatDateTime('soon')).toBe('soon')
    expect(formatDateTime('')).toBe('–')
    expect(formatDateTime('2025-01-01T00:00:00.000Z')).toMatch(/2025|2024/)
  })
})

describe('stepTypeLabel', () => {
  it('words types, null and unknown', () => {
    expect(stepTypeLabel('ai_agent_message')).toBe('AI agent message')
    expect(stepTypeLabel(null)).toBe('Step')
    expect(stepTypeLabel('unknown', 'video_edit')).toBe('video_edit')
    expect(stepTypeLabel('unknown')).toBe('Unknown type')
  })
})

describe('formatTime', () => {
  it('shows seconds and keeps unreadable text', () => {
    expect(formatTime('2025-01-01T10:20:30.000Z')).toMatch(/\d{2}:30/)
    expect(formatTime('later')).toBe('later')
    expect(formatTime(null)).toBe('–')
  })
})
