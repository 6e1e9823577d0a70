// On Linux the tray icon shows only where a StatusNotifier host runs (GNOME needs an extension); without one the app
// seems gone. Pure decision; the D-Bus query via gdbus is the thin adapter below.
import { execFile } from 'node:child_process'
import type { DesktopNote } from '../../shared/desktop'

export type TrayHost = 'present' | 'missing' | 'unknown'

export const TRAY_HIDDEN_NOTE: DesktopNote = {
  id: 'tray-hidden',
  title: 'Your desktop shows no tray icons',
  text:
    'No StatusNotifier host is running, so Agent Tray’s icon is not shown (GNOME hides tray icons by default). ' +
    'Install and enable the “AppIndicator and KStatusNotifierItem Support” extension (Debian and Ubuntu: gnome-shell-extension-appindicator), then log out and in. ' +
    'Until then, open the window with the shortcut or with `agent-tray open`.'
}

/** From `gdbus call` output: the watcher's name has an owner, and a host registered with it. */
export function trayHostFromReplies(replies: { watcherOwned: string | null; hostRegistered: string | null }): TrayHost {
  const bool = (reply: string | null): boolean | null => {
    if (reply === null) return null
    if (/\(\s*(<\s*)?true\b/.test(reply)) return true
    if (/\(\s*(<\s*)?false\b/.test(reply)) return false
    return null
  }
  const owned = bool(replies.watcherOwned)
  if (owned === null) return 'unknown'
  if (!owned) return 'missing'
  const host = bool(replies.hostRegistered)
  return host === false ? 'missing' : host === true ? 'present' : 'unknown'
}

/** Tell once by notification (remembered) and keep the Settings note while the host is missing; tell again if it goes
 * missing after a host was seen. */
export function shouldTellTrayHidden(
  platform: string,
  host: TrayHost,
  toldBefore: boolean
): { note: boolean; notify: boolean; remember: boolean | null } {
  const hidden = platform === 'linux' && host === 'missing'
  const remember = hidden && !toldBefore ? true : host === 'present' && toldBefore ? false : null
  return { note: hidden, notify: hidden && !toldBefore, remember }
}

type Run = (args: string[]) => Promise<string | null>

const gdbus =
  (env: NodeJS.ProcessEnv): Run =>
  (args) =>
    new Promise((resolve) => {
      execFile('gdbus', args, { timeout: 3_000, env }, (error, stdout) => resolve(error ? null : stdout.trim()))
    })

/** Asks the session bus; 'unknown' when there is no bus or no gdbus (never guesses 'missing'). */
export async function queryTrayHost(env: NodeJS.ProcessEnv = process.env, run: Run = gdbus(env)): Promise<TrayHost> {
  const dbus = [
    'call',
    '--session',
    '--dest',
    'org.freedesktop.DBus',
    '--object-path',
    '/org/freedesktop/DBus',
    '--method'
  ]
  const watcherOwned = await run([...dbus, 'org.freedesktop.DBus.NameHasOwner', 'org.kde.StatusNotifierWatcher'])
  if (watcherOwned === null || !/true/.test(watcherOwned))
    return trayHostFromReplies({ watcherOwned, hostRegistered: null })
  const hostRegistered = await run([
    'call',
    '--session',
    '--dest',
    'org.kde.StatusNotifierWatcher',
    '--object-path',
    '/StatusNotifierWatcher',
    '--method',
    'org.freedesktop.DBus.Properties.Get',
    'org.kde.StatusNotifierWatcher',
    'IsStatusNotifierHostRegistered'
  ])
  return trayHostFromReplies({ watcherOwned, hostRegistered })
}
