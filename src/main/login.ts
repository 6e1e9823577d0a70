// Launch at login, from the setting. macOS and Windows have an OS API (app.setLoginItemSettings);
// Linux has none in Electron, so we write the freedesktop autostart entry ourselves.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import { isAbsolute, join } from 'node:path'

export interface LoginItemApp {
  setLoginItemSettings(settings: { openAtLogin: boolean; args?: string[] }): void
}

export const AUTOSTART_FILE = 'agent-tray.desktop'

export function autostartDir(env: Record<string, string | undefined>): string {
  const xdg = env.XDG_CONFIG_HOME
  return join(xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.config'), 'autostart')
}

/** One argument of a desktop entry's Exec key, quoted as the freedesktop spec asks. */
export function quoteExecArg(arg: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(arg)) return arg
  return `"${arg.replace(/(["`$\\])/g, '\\$1')}"`
}

export function autostartEntry(exec: string): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Agent Tray',
    'Comment=Watches your coding agent tasks',
    `Exec=${quoteExecArg(exec)}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    ''
  ].join('\n')
}

export async function applyLaunchAtLogin(options: {
  enabled: boolean
  platform: NodeJS.Platform
  app: LoginItemApp
  /** Only a packaged app can be started on its own; in development this does nothing. */
  packaged: boolean
  /** The program to start on Linux: the AppImage when run from one, else the executable. */
  exec: string
  env: Record<string, string | undefined>
  log: (message: string) => void
}): Promise<void> {
  if (!options.packaged) {
    options.log('login: launch at login applies to the packaged app only')
    return
  }
  if (options.platform === 'darwin' || options.platform === 'win32') {
    options.app.setLoginItemSettings({ openAtLogin: options.enabled })
    return
  }
  const file = join(autostartDir(options.env), AUTOSTART_FILE)
  if (options.enabled) {
    await mkdir(join(file, '..'), { recursive: true })
    await writeFile(file, autostartEntry(options.exec), { mode: 0o644 })
  } else {
    await rm(file, { force: true })
  }
}
