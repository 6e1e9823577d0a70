// Under Wayland the compositor owns global keys; Electron gets them only via the GlobalShortcuts portal where enabled.
import type { DesktopNote } from '../../shared/desktop'

export function isWayland(env: Record<string, string | undefined>): boolean {
  return env.XDG_SESSION_TYPE === 'wayland' || (env.WAYLAND_DISPLAY !== undefined && env.WAYLAND_DISPLAY !== '')
}

export function shortcutNote(options: {
  platform: string
  registered: boolean
  env: Record<string, string | undefined>
  keys: string
}): DesktopNote | null {
  if (options.registered) return null
  if (options.platform === 'linux' && isWayland(options.env)) {
    return {
      id: 'shortcut-unavailable',
      title: `The shortcut ${options.keys} is not available under Wayland`,
      text:
        `Wayland lets only the desktop itself listen to keys everywhere, so ${options.keys} could not be registered. ` +
        'Add a custom shortcut in your desktop’s keyboard settings that runs `agent-tray open` (it opens this window), ' +
        'or start Agent Tray with --enable-features=GlobalShortcutsPortal where your desktop offers the GlobalShortcuts portal (KDE, GNOME 48 or later).'
    }
  }
  return {
    id: 'shortcut-unavailable',
    title: `The shortcut ${options.keys} is taken`,
    text: `Another application uses ${options.keys}, so Agent Tray opens from its tray icon only. A custom desktop shortcut that runs \`agent-tray open\` works as well.`
  }
}
