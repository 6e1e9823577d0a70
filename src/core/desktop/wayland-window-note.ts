// Under Wayland the popover's position and skipTaskbar are ignored; said once in Settings so the user does not wonder.
import type { DesktopNote } from '../../shared/desktop'
import { isWayland } from './shortcut-note'

export function waylandWindowNote(options: {
  platform: string
  env: Record<string, string | undefined>
}): DesktopNote | null {
  if (options.platform !== 'linux' || !isWayland(options.env)) return null
  return {
    id: 'wayland-window',
    title: 'Under Wayland the window opens where your desktop puts it',
    text:
      'Wayland does not let an app place its own window, so the window opens where the desktop puts it rather than at the tray icon, and it shows in the task bar. ' +
      'Pin it to keep it where you put it, or start Agent Tray with --ozone-platform=x11 to run it through XWayland, where it opens at the icon.'
  }
}
