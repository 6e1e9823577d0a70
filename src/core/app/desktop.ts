// The desktop around the controller, as the composition hands it over: the updater, the About
// facts, the log and the notes this desktop needs explained. Without one (the
// controller's own tests) nothing updates and the desktop's actions are refused.
import type { AboutInfo, DesktopNote } from '../../shared/desktop'
import { createUpdater, type Updater } from '../update/updater'
import { systemClock } from '../util/clock'
import { forbidden } from './errors'

export interface DesktopDeps {
  updater: Updater
  /** Versions, platform and directories, for About. */
  about(): Omit<AboutInfo, 'keyStore' | 'update'>
  /** Shows the log file in the file manager. */
  openLogs(): Promise<void>
  /** What this desktop needs explained, for Settings. */
  notes(): DesktopNote[]
  /** Writes one entry to the app's log (redacted there). */
  log(message: string): void
  /** Takes every known key out of a text (the log's redaction). */
  redact(text: string): string
}

export function noDesktop(): DesktopDeps {
  return {
    updater: createUpdater({
      updater: null,
      unavailable: 'not part of this run',
      enabled: false,
      clock: systemClock,
      onChange: () => {},
      log: () => {}
    }),
    about: () => ({
      version: '0.0.0',
      electron: null,
      chrome: null,
      node: process.versions.node,
      platform: `${process.platform} ${process.arch}`,
      settingsDir: '',
      logFile: null
    }),
    openLogs: () => Promise.reject(forbidden('There is no log file here.')),
    notes: () => [],
    log: () => {},
    redact: (text) => text
  }
}
