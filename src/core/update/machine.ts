// Pure (the time comes in), driven by updater.ts. It never restarts the app: a download is installed when the user
// asks or, through electron-updater, when the app next quits.
import type { UpdateState } from '../../shared/update'

/** The first check waits for the app to settle after start. */
export const FIRST_CHECK_DELAY_MS = 30_000
/** Then every four hours. */
export const CHECK_INTERVAL_MS = 4 * 60 * 60_000
/** After a failed check or download: 15 min, doubling, never longer than the interval. */
export const RETRY_BASE_MS = 15 * 60_000
export const MAX_ERROR_LENGTH = 200

export interface UpdateModel {
  view: UpdateState
  /** Automatic checks (the user's setting). A check the user asks for runs either way. */
  enabled: boolean
  online: boolean
  /** Failed checks or downloads in a row. */
  failures: number
  lastCheckedAt: number | null
  /** When the next automatic check is due; null when none is planned. */
  dueAt: number | null
}

export type UpdateInput =
  | { type: 'start' }
  /** The planned time came. */
  | { type: 'due' }
  /** The user asked ('Check for updates'). */
  | { type: 'check-now' }
  | { type: 'set-enabled'; enabled: boolean }
  | { type: 'set-online'; online: boolean }
  /** The user asked to restart into the downloaded version. */
  | { type: 'install' }
  // What the updater reported.
  | { type: 'checking' }
  | { type: 'not-available' }
  | { type: 'available'; version: string }
  | { type: 'progress'; percent: number; transferredBytes: number; totalBytes: number }
  | { type: 'downloaded'; version: string }
  | { type: 'error'; message: string }

export type UpdateEffect =
  { type: 'check' } | { type: 'download' } | { type: 'install' } | { type: 'schedule'; at: number | null }

export interface UpdateStep {
  model: UpdateModel
  effects: UpdateEffect[]
}

export function initialUpdateModel(options: { enabled: boolean; online?: boolean; unavailable?: string }): UpdateModel {
  const model: UpdateModel = {
    view: { phase: 'checking' },
    enabled: options.enabled,
    online: options.online ?? true,
    failures: 0,
    lastCheckedAt: null,
    dueAt: null
  }
  model.view =
    options.unavailable !== undefined ? { phase: 'unavailable', reason: options.unavailable } : idleView(model)
  return model
}

const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString())

function idleView(m: UpdateModel): UpdateState {
  return {
    phase: 'idle',
    checks: m.enabled,
    lastCheckedAt: iso(m.lastCheckedAt),
    nextCheckAt: m.online && m.enabled ? iso(m.dueAt) : null,
    offline: !m.online
  }
}

export function retryDelayMs(failures: number): number {
  return Math.min(CHECK_INTERVAL_MS, RETRY_BASE_MS * 2 ** Math.max(0, failures - 1))
}

/** The updater's error as one short line: its first line, without a stack, bounded. */
export function updateErrorText(message: string): string {
  const line = (message.split('\n').find((l) => l.trim() !== '') ?? 'unknown error').trim()
  if (
    /ERR_INTERNET_DISCONNECTED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ERR_NAME_NOT_RESOLVED|ERR_CONNECTION/i.test(
      line
    )
  ) {
    return 'the update server could not be reached'
  }
  if (/\b404\b|Cannot find (channel|latest)/i.test(line)) return 'no release was found on the update server'
  if (/sha512 checksum mismatch/i.test(line))
    return 'the download was damaged (checksum mismatch); it will be fetched again'
  return line.length > MAX_ERROR_LENGTH ? `${line.slice(0, MAX_ERROR_LENGTH - 1)}…` : line
}

const busy = (m: UpdateModel): boolean =>
  m.view.phase === 'checking' || m.view.phase === 'available' || m.view.phase === 'downloading'

export function stepUpdate(model: UpdateModel, input: UpdateInput, now: number): UpdateStep {
  const m: UpdateModel = { ...model }
  const effects: UpdateEffect[] = []
  const plan = (at: number | null): void => {
    m.dueAt = at
    effects.push({ type: 'schedule', at: m.enabled && m.online ? at : null })
  }
  const check = (): void => {
    m.view = { phase: 'checking' }
    effects.push({ type: 'check' })
  }
  const settled = (): boolean => m.view.phase === 'unavailable' || m.view.phase === 'ready'

  switch (input.type) {
    case 'start':
      if (settled()) return { model, effects: [] }
      plan(now + FIRST_CHECK_DELAY_MS)
      m.view = idleView(m)
      break
    case 'due':
      if (settled() || busy(m)) return { model, effects: [] }
      if (!m.enabled || !m.online) {
        m.view = idleView(m)
        break
      }
      check()
      break
    case 'check-now':
      if (settled() || busy(m)) return { model, effects: [] }
      if (!m.online) {
        m.view = idleView(m)
        break
      }
      check()
      break
    case 'set-enabled':
      m.enabled = input.enabled
      if (settled() || busy(m)) return { model: m, effects: [] }
      // Turned on: a check that fell due while off runs soon, not an interval later.
      plan(input.enabled && (m.dueAt === null || m.dueAt <= now) ? now + FIRST_CHECK_DELAY_MS : m.dueAt)
      m.view = m.view.phase === 'error' ? m.view : idleView(m)
      break
    case 'set-online':
      if (m.online === input.online) return { model, effects: [] }
      m.online = input.online
      if (settled() || busy(m)) return { model: m, effects: [] }
      if (input.online && m.enabled && (m.dueAt === null || m.dueAt <= now || m.failures > 0)) {
        // Back online with a check missed (or the last one failed): check now.
        check()
        break
      }
      plan(m.dueAt)
      if (m.view.phase !== 'error' || !input.online) m.view = idleView(m)
      break
    case 'install':
      if (m.view.phase !== 'ready') return { model, effects: [] }
      effects.push({ type: 'install' })
      break
    case 'checking':
      if (settled() || m.view.phase === 'checking') return { model, effects: [] }
      m.view = { phase: 'checking' }
      break
    case 'not-available':
      if (settled()) return { model, effects: [] }
      m.failures = 0
      m.lastCheckedAt = now
      plan(now + CHECK_INTERVAL_MS)
      m.view = idleView(m)
      break
    case 'available':
      if (settled()) return { model, effects: [] }
      m.failures = 0
      m.lastCheckedAt = now
      m.view = { phase: 'available', version: input.version }
      effects.push({ type: 'download' }, { type: 'schedule', at: null })
      m.dueAt = null
      break
    case 'progress': {
      if (m.view.phase !== 'available' && m.view.phase !== 'downloading') return { model, effects: [] }
      const percent = Number.isFinite(input.percent) ? Math.min(100, Math.max(0, input.percent)) : 0
      m.view = {
        phase: 'downloading',
        version: m.view.version,
        percent,
        transferredBytes: input.transferredBytes,
        totalBytes: input.totalBytes
      }
      break
    }
    case 'downloaded':
      if (m.view.phase === 'unavailable') return { model, effects: [] }
      // Nothing more to check until the user restarts.
      m.failures = 0
      m.view = { phase: 'ready', version: input.version }
      m.dueAt = null
      effects.push({ type: 'schedule', at: null })
      break
    case 'error': {
      if (settled()) return { model, effects: [] }
      m.failures += 1
      const retryAt = now + retryDelayMs(m.failures)
      if (!m.online) {
        // Offline explains it: no error to show, a check when the network is back.
        m.dueAt = retryAt
        m.view = idleView(m)
        effects.push({ type: 'schedule', at: null })
        break
      }
      plan(retryAt)
      m.view = {
        phase: 'error',
        message: updateErrorText(input.message),
        at: new Date(now).toISOString(),
        nextCheckAt: m.enabled ? iso(retryAt) : null
      }
      break
    }
  }
  return { model: m, effects }
}
