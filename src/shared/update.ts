// What the app knows of its own updates, as the window, the tray and the diagnostics show it. The
// decisions (when to check, what an error means) are core/update/machine.ts's; this is the view.

export type UpdateState =
  /** This build cannot update itself (not packaged, no feed, a package the OS updates). */
  | { phase: 'unavailable'; reason: string }
  /** Up to date as far as we know, or not checked yet. `checks` false: automatic checks are off. */
  | { phase: 'idle'; checks: boolean; lastCheckedAt: string | null; nextCheckAt: string | null; offline: boolean }
  | { phase: 'checking' }
  /** A newer version was found; its download starts in the background. */
  | { phase: 'available'; version: string }
  | { phase: 'downloading'; version: string; percent: number; transferredBytes: number; totalBytes: number }
  /** Downloaded: it is installed when the user restarts (or quits) the app, never before. */
  | { phase: 'ready'; version: string }
  | { phase: 'error'; message: string; at: string; nextCheckAt: string | null }

/** One line for a person: the tray's status item, the window's update line, the diagnostics. */
export function describeUpdate(state: UpdateState): string {
  switch (state.phase) {
    case 'unavailable':
      return `Updates: not available (${state.reason})`
    case 'idle':
      if (state.offline) return 'Updates: offline, will check when back online'
      if (!state.checks) return 'Updates: automatic checks are off'
      return state.lastCheckedAt === null ? 'Updates: not checked yet' : 'Up to date'
    case 'checking':
      return 'Checking for updates…'
    case 'available':
      return `Version ${state.version} found, downloading…`
    case 'downloading':
      return `Downloading version ${state.version}: ${Math.floor(state.percent)}%`
    case 'ready':
      return `Version ${state.version} is ready: restart to update`
    case 'error':
      return `Update failed: ${state.message}`
  }
}
