// Which tasks the app keeps usage records fresh for without being asked: the one rule the session's
// background fetch and the usage store's memory of listed tasks share.
import { isoMs } from '../util/iso-time'

/**
 * The app fetches in the background the records of tasks changed within this time: this and last
 * month's costs (budgets, the Costs screen's default range) are then by day, not estimates. A
 * report over an older range fetches its own. The usage store remembers listed tasks within it only.
 */
export const BACKGROUND_WINDOW_MS = 62 * 24 * 60 * 60 * 1000

/** Whether a task changed within the background window (an unreadable time counts as within). */
export function inBackgroundWindow(task: { updated_at: string }, nowMs: number): boolean {
  return !(isoMs(task.updated_at) < nowMs - BACKGROUND_WINDOW_MS)
}
