// The window's unexpected errors go to the app's log through the one typed contract entry
// ('app:report-error'), never a generic logging channel; the window itself carries on.
import { MAX_WINDOW_ERROR_MESSAGE, MAX_WINDOW_ERROR_STACK, type WindowErrorReport } from '../../shared/desktop'
import { call } from './bridge'

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

export function toReport(kind: WindowErrorReport['kind'], reason: unknown, fallback: string): WindowErrorReport {
  const message =
    reason instanceof Error ? `${reason.name}: ${reason.message}` : typeof reason === 'string' ? reason : fallback
  const report: WindowErrorReport = { kind, message: clip(message || fallback, MAX_WINDOW_ERROR_MESSAGE) }
  if (reason instanceof Error && reason.stack) report.stack = clip(reason.stack, MAX_WINDOW_ERROR_STACK)
  return report
}

export function reportWindowErrors(target: Window = window): void {
  target.addEventListener('error', (event) => {
    void call((b) => b['app:report-error'](toReport('error', event.error, event.message || 'Script error')))
  })
  target.addEventListener('unhandledrejection', (event) => {
    void call((b) =>
      b['app:report-error'](toReport('unhandledrejection', event.reason, 'A promise was rejected without a reason'))
    )
  })
}
