// The window's clock follows the OS's regional format: Chromium's locale is its UI language, which
// ignores it (electron/electron#13023). macOS keeps the 12/24-hour choice apart from the region.
import type { App, SystemPreferences } from 'electron'
import { clockLocaleTag } from '../shared/format'

export function systemClockLocale(
  app: Pick<App, 'getSystemLocale'>,
  prefs: Pick<SystemPreferences, 'getUserDefault'>,
  platform: NodeJS.Platform
): string | undefined {
  let hourCycle: 'h12' | 'h23' | null = null
  if (platform === 'darwin') {
    if (prefs.getUserDefault('AppleICUForce24HourTime', 'boolean')) hourCycle = 'h23'
    else if (prefs.getUserDefault('AppleICUForce12HourTime', 'boolean')) hourCycle = 'h12'
  }
  return clockLocaleTag(app.getSystemLocale(), hourCycle)
}
