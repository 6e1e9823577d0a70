// A project's health after each poll: what went wrong, read from whatever the source threw, and
// whether that is news (a change of state, or another error than before).
import type { ProjectHealth, ServiceErrorInfo, ServiceErrorKind } from '../../shared/monitor'

export interface ErrorReading {
  info: ServiceErrorInfo
  kind: ServiceErrorKind
  retryAfterMs?: number
}

/** Reads a thrown error duck-typed, so any source with the client's error shape works. */
export function readError(error: unknown): ErrorReading {
  const e = error as { kind?: unknown; retryAfterMs?: unknown; toInfo?: unknown; message?: unknown } | null
  if (e && typeof e.kind === 'string') {
    const kind = e.kind as ServiceErrorKind
    const info: ServiceErrorInfo =
      typeof e.toInfo === 'function'
        ? (e.toInfo as () => ServiceErrorInfo).call(e)
        : { kind, message: String(e.message ?? kind) }
    const retryAfterMs = typeof e.retryAfterMs === 'number' ? e.retryAfterMs : undefined
    return retryAfterMs === undefined ? { info, kind } : { info, kind, retryAfterMs }
  }
  const message = error instanceof Error ? error.message : String(error)
  return { info: { kind: 'network', message }, kind: 'network' }
}

/** The health after a poll that failed (`failure`) or not, and whether it is worth an event. */
export function nextHealth(
  before: ProjectHealth,
  failure: ErrorReading | null,
  now: number,
  nextAt: number
): { health: ProjectHealth; changed: boolean } {
  let health: ProjectHealth
  if (!failure) {
    health = { state: 'ok', polledAt: new Date(now).toISOString() }
  } else {
    const since = before.state === 'error' ? before.since : new Date(now).toISOString()
    health = { state: 'error', error: failure.info, since, nextPollAt: new Date(nextAt).toISOString() }
  }
  const changed =
    before.state !== health.state ||
    (before.state === 'error' &&
      health.state === 'error' &&
      (before.error.kind !== health.error.kind || before.error.message !== health.error.message))
  return { health, changed }
}
