import { describe, expect, it } from 'vitest'
import { isMac } from './platform'

describe('isMac', () => {
  it('knows macOS from its user agent and nothing else', () => {
    expect(
      isMac('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 Chrome/140.0 Electron/45.4.1')
    ).toBe(true)
    expect(isMac('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Electron/45.4.1')).toBe(false)
    expect(isMac('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/140.0')).toBe(false)
  })
})
