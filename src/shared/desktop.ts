// The desktop around the app as the window shows it: About, the notes a platform needs explained, the window's errors.
import type { SecretBackend } from './settings'
import type { UpdateState } from './update'

export interface AboutInfo {
  version: string
  /** null where the app does not run in Electron (the test host). */
  electron: string | null
  chrome: string | null
  node: string
  /** e.g. "linux x64". */
  platform: string
  settingsDir: string
  /** The log file; null where lines go to the console only. */
  logFile: string | null
  keyStore: { backend: SecretBackend; detail: string }
  update: UpdateState
}

/** Something about this desktop the user should know, with the fix. */
export interface DesktopNote {
  id: 'tray-hidden' | 'shortcut-unavailable' | 'sound-by-desktop' | 'wayland-window'
  title: string
  text: string
}

/** The window's own unexpected error (an uncaught exception or an unhandled rejection). */
export interface WindowErrorReport {
  kind: 'error' | 'unhandledrejection'
  message: string
  stack?: string
}

export const MAX_WINDOW_ERROR_MESSAGE = 1_000
export const MAX_WINDOW_ERROR_STACK = 8_000
