import { describe, expect, it } from 'vitest'
import { createDockSync, dockIconVisible } from './dock'

describe('dockIconVisible', () => {
  it('macOS, hiding on: no Dock icon while the app is only in the tray or a popover; one while pinned open', () => {
    const mac = { platform: 'darwin' as const, hideDockIcon: true }
    expect(dockIconVisible({ ...mac, windowVisible: false, pinned: false })).toBe(false)
    expect(dockIconVisible({ ...mac, windowVisible: true, pinned: false })).toBe(false)
    expect(dockIconVisible({ ...mac, windowVisible: false, pinned: true })).toBe(false)
    expect(dockIconVisible({ ...mac, windowVisible: true, pinned: true })).toBe(true)
  })

  it('macOS, hiding off: always a Dock icon; elsewhere nothing to decide', () => {
    expect(dockIconVisible({ platform: 'darwin', hideDockIcon: false, windowVisible: false, pinned: false })).toBe(true)
    expect(dockIconVisible({ platform: 'linux', hideDockIcon: true, windowVisible: true, pinned: true })).toBeNull()
    expect(dockIconVisible({ platform: 'win32', hideDockIcon: false, windowVisible: false, pinned: false })).toBeNull()
  })
})

describe('createDockSync', () => {
  it('calls the Dock only when the answer changes', () => {
    const calls: string[] = []
    const sync = createDockSync({ show: () => calls.push('show'), hide: () => void calls.push('hide') })
    sync(false)
    sync(false)
    sync(true)
    sync(null)
    sync(true)
    sync(false)
    expect(calls).toEqual(['hide', 'show', 'hide'])
    createDockSync(undefined)(true)
  })
})
