import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { settingsDir } from './paths'

describe('settingsDir', () => {
  it('prefers AGENT_TRAY_CONFIG_DIR on every platform', () => {
    for (const platform of ['linux', 'darwin', 'win32'] as const) {
      expect(settingsDir({ AGENT_TRAY_CONFIG_DIR: '/tmp/x', HOME: '/home/a' }, platform)).toBe(path.resolve('/tmp/x'))
    }
  })
  it('uses XDG_CONFIG_HOME on Linux, else ~/.config', () => {
    expect(settingsDir({ HOME: '/home/a', XDG_CONFIG_HOME: '/xdg' }, 'linux')).toBe('/xdg/agent-tray')
    expect(settingsDir({ HOME: '/home/a' }, 'linux')).toBe('/home/a/.config/agent-tray')
    expect(settingsDir({ HOME: '/home/a', XDG_CONFIG_HOME: 'relative' }, 'linux')).toBe('/home/a/.config/agent-tray')
  })
  it('uses Application Support on macOS and APPDATA on Windows', () => {
    expect(settingsDir({ HOME: '/Users/a' }, 'darwin')).toBe('/Users/a/Library/Application Support/agent-tray')
    expect(settingsDir({ APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toBe(
      'C:\\Users\\a\\AppData\\Roaming\\agent-tray'
    )
  })
  it('on Windows without APPDATA, under the profile (USERPROFILE where HOME is not set)', () => {
    expect(settingsDir({ USERPROFILE: 'C:\\Users\\a' }, 'win32')).toBe('C:\\Users\\a\\AppData\\Roaming\\agent-tray')
    expect(settingsDir({ HOME: 'C:\\home', USERPROFILE: 'C:\\Users\\a' }, 'win32')).toBe(
      'C:\\home\\AppData\\Roaming\\agent-tray'
    )
  })
  it("empty variables count as unset; with no home in the environment, the system's", () => {
    expect(settingsDir({ AGENT_TRAY_CONFIG_DIR: '', HOME: '/home/a', XDG_CONFIG_HOME: '' }, 'linux')).toBe(
      '/home/a/.config/agent-tray'
    )
    expect(settingsDir({ HOME: '', USERPROFILE: '/home/u' }, 'linux')).toBe('/home/u/.config/agent-tray')
    expect(settingsDir({}, 'linux')).toBe(path.join(os.homedir(), '.config', 'agent-tray'))
    expect(settingsDir({ APPDATA: '', USERPROFILE: 'C:\\Users\\a' }, 'win32')).toBe(
      'C:\\Users\\a\\AppData\\Roaming\\agent-tray'
    )
  })
})
