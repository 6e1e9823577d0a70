// Electron picks the @2x file on high-DPI screens and draws `*Template.png` black or white to match the macOS menu bar.
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

/** Linux tells only the app theme, which most panels follow; GNOME's always-dark bar is the exception, where the
 * dark theme's light ink is right and the dark ink still reads on grey. */
export function panelIsDark(
  platform: string,
  theme: { shouldUseDarkColors: boolean; systemUiDark?: boolean }
): boolean {
  if (platform === 'win32' && theme.systemUiDark !== undefined) return theme.systemUiDark
  return theme.shouldUseDarkColors
}
