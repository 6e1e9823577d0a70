import { describe, expect, it } from 'vitest'
import { defaultSettings } from '../settings/schema'
import { settingsUpdateSchema } from './requests'
import { applySettingsUpdate, toSettingsView } from './settings-view'

describe('settings view', () => {
  it('shows whether basic_text is allowed, and changes only that when asked', () => {
    const settings = defaultSettings()
    expect(toSettingsView(settings).allowBasicTextSecrets).toBe(false)
    const before = structuredClone(settings)
    applySettingsUpdate(settings, { allowBasicTextSecrets: true })
    expect(settings).toEqual({ ...before, allowBasicTextSecrets: true })
    expect(toSettingsView(settings).allowBasicTextSecrets).toBe(true)
    applySettingsUpdate(settings, { theme: 'dark' })
    expect(settings.allowBasicTextSecrets).toBe(true)
    applySettingsUpdate(settings, { allowBasicTextSecrets: false })
    expect(toSettingsView(settings)).toMatchObject({ allowBasicTextSecrets: false, theme: 'dark' })
  })

  it('gives the window every view key and nothing else (no connections, no window bounds)', () => {
    expect(Object.keys(toSettingsView(defaultSettings())).sort()).toEqual(
      [
        'allowBasicTextSecrets',
        'checkForUpdates',
        'hideDockIcon',
        'launchAtLogin',
        'notifications',
        'pinned',
        'polling',
        'shortcut',
        'theme'
      ].sort()
    )
  })

  it('checks for updates unless turned off, and changes only that when asked', () => {
    const settings = defaultSettings()
    expect(toSettingsView(settings).checkForUpdates).toBe(true)
    const before = structuredClone(settings)
    applySettingsUpdate(settings, { checkForUpdates: false })
    expect(settings).toEqual({ ...before, checkForUpdates: false })
    expect(settingsUpdateSchema.safeParse({ checkForUpdates: 'no' }).success).toBe(false)
  })

  it('accepts only a boolean for allowBasicTextSecrets in settings:update', () => {
    expect(settingsUpdateSchema.safeParse({ allowBasicTextSecrets: true }).success).toBe(true)
    expect(settingsUpdateSchema.safeParse({ allowBasicTextSecrets: 'yes' }).success).toBe(false)
    expect(settingsUpdateSchema.safeParse({ allowBasicTextSecrets: null }).success).toBe(false)
  })
})
