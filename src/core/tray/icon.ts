// Which tray icon file to show. Files live in resources/tray (made by scripts/icons.ts); Electron
// picks the @2x file beside each on high-DPI screens, and treats `*Template.png` as a macOS
// template image (drawn black or white to match the menu bar).
import type { TrayState } from './state'

export interface PanelInfo {
  platform: string
  /** Whether the panel the icon sits on is dark (see panelIsDark). */
  darkPanel: boolean
}

export function trayIconFile(state: TrayState, panel: PanelInfo): string {
  if (panel.platform === 'darwin') return `${state}Template.png`
  return `${state}-${panel.darkPanel ? 'darkpanel' : 'lightpanel'}.png`
}

/**
 * Windows tells us the taskbar's theme; Linux only the app theme, which most desktops also use
 * for the panel (GNOME's always-dark top bar is the known exception: there the light ink of the
 * dark theme is right, and with a light GTK theme the dark ink still reads on its grey).
 */
export function panelIsDark(
  platform: string,
  theme: { shouldUseDarkColors: boolean; systemUiDark?: boolean }
): boolean {
  if (platform === 'win32' && theme.systemUiDark !== undefined) return theme.systemUiDark
  return theme.shouldUseDarkColors
}
