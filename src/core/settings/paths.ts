// Where the app and the command keep their files: one directory, decided here so both agree.
import os from 'node:os'
import path from 'node:path'

export const APP_DIR_NAME = 'agent-tray'
export const CONFIG_FILE = 'config.json'
export const STATE_FILE = 'state.json'

export function settingsDir(
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform
): string {
  const override = env.AGENT_TRAY_CONFIG_DIR
  if (override) return path.resolve(override)
  const home = env.HOME || env.USERPROFILE || os.homedir()
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_DIR_NAME)
  if (platform === 'win32') {
    const appData = env.APPDATA || path.win32.join(home, 'AppData', 'Roaming')
    return path.win32.join(appData, APP_DIR_NAME)
  }
  // XDG says a relative XDG_CONFIG_HOME is invalid and must be ignored.
  const xdg = env.XDG_CONFIG_HOME
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.config')
  return path.join(base, APP_DIR_NAME)
}
