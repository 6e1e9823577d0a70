// The test host's stand-in for electron-updater's autoUpdater (Electron's updater cannot run
// here; its logic is tested against a local feed in core/update/updater.feed.test.ts): it records
// what the app asks and emits what a control route tells it, through the app's own update machine.
import { EventEmitter } from 'node:events'
import type { AppUpdaterLike } from '../../src/core/update/updater'

export interface ScriptedUpdater extends AppUpdaterLike {
  readonly calls: { checks: number; downloads: number; installs: number }
  /** An event as electron-updater emits it. */
  emitUpdate(event: string, payload?: unknown): void
}

export function createScriptedUpdater(): ScriptedUpdater {
  const emitter = new EventEmitter()
  const calls = { checks: 0, downloads: 0, installs: 0 }
  const updater = {
    autoDownload: true,
    allowDowngrade: false,
    autoInstallOnAppQuit: false,
    calls,
    checkForUpdates: async () => {
      calls.checks++
      emitter.emit('checking-for-update')
      return {}
    },
    downloadUpdate: async () => {
      calls.downloads++
      return []
    },
    quitAndInstall: () => void calls.installs++,
    on: (event: string, listener: (...args: never[]) => void) =>
      emitter.on(event, listener as (...args: unknown[]) => void),
    removeListener: (event: string, listener: (...args: never[]) => void) =>
      emitter.removeListener(event, listener as (...args: unknown[]) => void),
    emitUpdate: (event: string, payload?: unknown) => void emitter.emit(event, payload)
  }
  return updater
}
