// The window's unexpected errors, as they reach the log: one entry each with its stack, and at most
// a burst of them a minute, so a render loop that throws cannot fill the disk. Pure but for time.
import type { WindowErrorReport } from '../../shared/desktop'

export const WINDOW_ERRORS_PER_MINUTE = 20

export function createWindowErrorLog(deps: {
  now(): number
  log(message: string): void
}): (report: WindowErrorReport) => void {
  let windowStart = 0
  let count = 0
  let dropped = 0
  return (report) => {
    const now = deps.now()
    if (now - windowStart >= 60_000) {
      if (dropped > 0) deps.log(`window: ${dropped} more unexpected errors were not logged`)
      windowStart = now
      count = 0
      dropped = 0
    }
    if (++count > WINDOW_ERRORS_PER_MINUTE) {
      dropped++
      return
    }
    const what = report.kind === 'unhandledrejection' ? 'unhandled rejection' : 'uncaught error'
    deps.log(`window: ${what}: ${report.message}${report.stack ? `\n${report.stack}` : ''}`)
  }
}
