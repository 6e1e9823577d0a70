// What a bug report needs for 'Copy diagnostics', and never a key, a base URL or a project's name (it gets pasted).
import type { AboutInfo } from '../../shared/desktop'
import type { AppState } from '../../shared/ipc'
import { describeUpdate } from '../../shared/update'

export function diagnosticsText(about: AboutInfo, state: AppState, now: Date): string {
  const errors = state.projects.filter((p) => p.health.state === 'error')
  const kinds = [...new Set(errors.map((p) => (p.health.state === 'error' ? p.health.error.kind : '')))].sort()
  const lines = [
    `Agent Tray ${about.version}`,
    `Electron ${about.electron ?? '–'}, Chrome ${about.chrome ?? '–'}, Node ${about.node}`,
    `Platform: ${about.platform}`,
    `Settings: ${about.settingsDir}`,
    `Log file: ${about.logFile ?? 'none (console only)'}`,
    `Key store: ${about.keyStore.backend} (${about.keyStore.detail})`,
    describeUpdate(about.update),
    `Connections: ${state.connections.length}${state.demo ? ' (demo running)' : ''}`,
    `Watched projects: ${state.projects.length}, ${errors.length} unreachable${kinds.length ? ` (${kinds.join(', ')})` : ''}`,
    `Polling: ${state.monitor.paused ? 'paused' : 'running'}; notifications ${state.monitor.notificationsPausedUntil ? 'paused' : 'on'}`,
    ...state.desktopNotes.map((n) => `Note: ${n.title}`),
    `Copied: ${now.toISOString()}`
  ]
  return `${lines.join('\n')}\n`
}
