import { describe, expect, it } from 'vitest'
import { BACKGROUND_WINDOW_MS, inBackgroundWindow } from './background-window'

const NOW = Date.parse('2026-11-27T12:00:00.000Z')
const changedAgo = (ms: number) => ({ updated_at: new Date(NOW - ms).toISOString() })

describe('the background window', () => {
  it('holds a task changed up to and including 62 days ago, not one changed a moment earlier', () => {
    expect(BACKGROUND_WINDOW_MS).toBe(62 * 24 * 60 * 60_000)
    expect(inBackgroundWindow(changedAgo(0), NOW)).toBe(true)
    expect(inBackgroundWindow(changedAgo(BACKGROUND_WINDOW_MS), NOW)).toBe(true)
    expect(inBackgroundWindow(changedAgo(BACKGROUND_WINDOW_MS + 1), NOW)).toBe(false)
  })

  it('counts a task whose time cannot be read as within (its records are fetched rather than missed)', () => {
    expect(inBackgroundWindow({ updated_at: 'not a time' }, NOW)).toBe(true)
    expect(inBackgroundWindow({ updated_at: '' }, NOW)).toBe(true)
  })
})
