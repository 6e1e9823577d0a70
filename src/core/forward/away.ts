// Whether the user is away from this computer: the screen is locked, or the system has been idle
// longer than the set time. Pure; the main process reads the two facts from powerMonitor.
import { DEFAULT_AWAY_AFTER_MS } from '../../shared/forward-target'

export { DEFAULT_AWAY_AFTER_MS }

export interface Presence {
  locked: boolean
  /** How long the system has been idle (no input), as the OS says. */
  idleMs: number
}

export function isAway(presence: Presence, awayAfterMs: number = DEFAULT_AWAY_AFTER_MS): boolean {
  return presence.locked || presence.idleMs >= awayAfterMs
}
