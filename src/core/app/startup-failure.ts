// What a user is shown when the app cannot start: a native error box is all there is then (no
// tray, no window), so it says why in one line and where the log is, for a bug report.
import { firstLine } from '../secrets/types'

export function startupFailureBox(error: unknown, logFile: string): { title: string; content: string } {
  return {
    title: 'Agent Tray could not start',
    content: `${firstLine(error)}\n\nThe log has the details: ${logFile}`
  }
}
