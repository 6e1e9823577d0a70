import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { panelIsDark, trayIconFile } from './icon'
import { TRAY_STATE_PRIORITY } from './state'

const trayDir = fileURLToPath(new URL('../../../resources/tray/', import.meta.url))

describe('trayIconFile', () => {
  it('names a file that exists, with its @2x, for every state and panel', () => {
    for (const state of TRAY_STATE_PRIORITY) {
      for (const panel of [
        { platform: 'darwin', darkPanel: false },
        { platform: 'linux', darkPanel: false },
        { platform: 'linux', darkPanel: true },
        { platform: 'win32', darkPanel: true }
      ]) {
        const file = trayIconFile(state, panel)
        expect(existsSync(trayDir + file), file).toBe(true)
        expect(existsSync(trayDir + file.replace('.png', '@2x.png')), file).toBe(true)
      }
    }
  })

  it('uses template images on macOS and the ink that suits the panel elsewhere', () => {
    expect(trayIconFile('running', { platform: 'darwin', darkPanel: true })).toBe('runningTemplate.png')
    expect(trayIconFile('error', { platform: 'linux', darkPanel: true })).toBe('error-darkpanel.png')
    expect(trayIconFile('error', { platform: 'win32', darkPanel: false })).toBe('error-lightpanel.png')
  })
})

describe('panelIsDark', () => {
  it('follows the taskbar on Windows and the app theme elsewhere', () => {
    expect(panelIsDark('win32', { shouldUseDarkColors: false, systemUiDark: true })).toBe(true)
    expect(panelIsDark('win32', { shouldUseDarkColors: true, systemUiDark: false })).toBe(false)
    expect(panelIsDark('linux', { shouldUseDarkColors: true, systemUiDark: false })).toBe(true)
    expect(panelIsDark('linux', { shouldUseDarkColors: false })).toBe(false)
  })
})
