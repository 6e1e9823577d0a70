import { describe, expect, it } from 'vitest'
import { systemClockLocale } from './clock-locale'

const prefs = (forced: Record<string, boolean>) => ({
  getUserDefault: ((key: string) => forced[key] ?? false) as never
})

describe('systemClockLocale', () => {
  it('is the system locale as a BCP 47 tag', () => {
    expect(systemClockLocale({ getSystemLocale: () => 'en_GB.UTF-8' }, prefs({}), 'linux')).toBe('en-GB')
  })

  it("adds macOS's forced hour cycle, and only there", () => {
    const app = { getSystemLocale: () => 'en-US' }
    expect(systemClockLocale(app, prefs({ AppleICUForce24HourTime: true }), 'darwin')).toBe('en-US-u-hc-h23')
    expect(systemClockLocale(app, prefs({ AppleICUForce12HourTime: true }), 'darwin')).toBe('en-US-u-hc-h12')
    expect(systemClockLocale(app, prefs({ AppleICUForce24HourTime: true }), 'linux')).toBe('en-US')
  })

  it('is undefined for a locale that is not one', () => {
    expect(systemClockLocale({ getSystemLocale: () => '' }, prefs({}), 'linux')).toBeUndefined()
    expect(systemClockLocale({ getSystemLocale: () => '!!' }, prefs({}), 'linux')).toBeUndefined()
  })
})
