// Which tasks the app keeps usage records fresh for without being asked: the one rule the session's
// background fetch and the usage store's memory of listed tasks share.
import { isoMs } from '../util/iso-time'

/** Records of tasks changed within this time are fetched in the background, so this and last month's costs (budgets,
 * the Costs default) are by day, not estimates. */
export const BACKGROUND_WINDOW_MS = 62 * 24 * 60 * 60 * 1000

/** Whether a task changed within the background window (an unreadable time counts as within). */
export function inBackgroundWindow(task: { updated_at: string }, nowMs: number): boolean {
  return !(isoMs(task.updated_at) < nowMs - BACKGROUND_WINDOW_MS)
}
