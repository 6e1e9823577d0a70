import { describe, expect, it } from 'vitest'
import { describeUpdate } from './update'

describe("the update's one line", () => {
  it('says each phase as the tray, the window and the diagnostics show it', () => {
    expect(describeUpdate({ phase: 'unavailable', reason: 'not packaged' })).toBe(
      'Updates: not available (not packaged)'
    )
    const idle = { phase: 'idle' as const, checks: true, lastCheckedAt: null, nextCheckAt: null, offline: false }
    expect(describeUpdate(idle)).toBe('Updates: not checked yet')
    expect(describeUpdate({ ...idle, lastCheckedAt: '2026-11-27T10:00:00Z' })).toBe('Up to date')
    expect(describeUpdate({ ...idle, checks: false, lastCheckedAt: '2026-11-27T10:00:00Z' })).toBe(
      'Updates: automatic checks are off'
    )
    expect(describeUpdate({ ...idle, checks: false, offline: true })).toBe(
      'Updates: offline, will check when back online'
    )
    expect(describeUpdate({ phase: 'checking' })).toBe('Checking for updates…')
    expect(describeUpdate({ phase: 'available', version: '1.2.0' })).toBe('Version 1.2.0 found, downloading…')
    expect(
      describeUpdate({ phase: 'downloading', version: '1.2.0', percent: 41.9, transferredBytes: 1, totalBytes: 2 })
    ).toBe('Downloading version 1.2.0: 41%')
    expect(describeUpdate({ phase: 'ready', version: '1.2.0' })).toBe('Version 1.2.0 is ready: restart to update')
    expect(
      describeUpdate({ phase: 'error', message: 'feed unreachable', at: '2026-11-27T10:00:00Z', nextCheckAt: null })
    ).toBe('Update failed: feed unreachable')
  })
})
