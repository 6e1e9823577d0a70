// Whether someone is at this computer, read from the platform (Electron's powerMonitor, adapted by
// src/main/presence.ts; the e2e host's emitter): the lock events where the OS sends them (macOS,
// Windows), the idle state's 'locked' where it knows it (Linux's screensaver), and the idle time.
// What counts as away is away.ts's pure rule; this only gathers its two facts.
import type { Presence } from './away'

export type IdleState = 'active' | 'idle' | 'locked' | 'unknown'
type LockEvent = 'lock-screen' | 'unlock-screen'

/** What we use of Electron's powerMonitor for presence. */
export interface PresenceSource {
  on(event: LockEvent, listener: () => void): unknown
  off(event: LockEvent, listener: () => void): unknown
  /** Seconds without input, as the OS says. */
  getSystemIdleTime(): number
  getSystemIdleState(idleThresholdSeconds: number): IdleState
}

export interface PresenceWatch {
  now(): Presence
  dispose(): void
}

/** Nobody reads presence: the user counts as at the desk (a headless run is always away instead: cli/watch-forward.ts). */
export const AT_THE_DESK: PresenceWatch = { now: () => ({ locked: false, idleMs: 0 }), dispose: () => {} }

/**
 * Watches the lock events and reads the idle time on demand. `onChange` is told on a lock or an
 * unlock (the window shows whether you are away). A source that throws counts as present: a
 * notification then shows on the desktop rather than nowhere.
 */
export function watchPresence(source: PresenceSource, onChange: () => void = () => {}): PresenceWatch {
  let lockedByEvent = false
  const lock = (): void => {
    lockedByEvent = true
    onChange()
  }
  const unlock = (): void => {
    lockedByEvent = false
    onChange()
  }
  source.on('lock-screen', lock)
  source.on('unlock-screen', unlock)
  return {
    now() {
      let idleSeconds = 0
      let state: IdleState = 'unknown'
      try {
        idleSeconds = source.getSystemIdleTime()
        // The threshold matters only for 'idle'; 'locked' is what is read here.
        state = source.getSystemIdleState(1)
      } catch {
        // Unknown: present.
      }
      const idleMs = Number.isFinite(idleSeconds) && idleSeconds > 0 ? idleSeconds * 1000 : 0
      return { locked: lockedByEvent || state === 'locked', idleMs }
    },
    dispose() {
      source.off('lock-screen', lock)
      source.off('unlock-screen', unlock)
    }
  }
}
