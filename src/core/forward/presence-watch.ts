// Gathers the two facts away.ts's rule needs: lock state (events where the OS sends them, the idle state's 'locked'
// on Linux) and idle time.
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

/** A source that throws counts as present, so a notification shows on the desktop rather than nowhere. */
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
