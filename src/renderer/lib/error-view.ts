// Every failure the window can meet, in plain words with a way forward. Screens render the view;
// they never word an error themselves.
import type { ConnectionView, IpcError, ProjectView } from '../../shared/ipc'
import type { ServiceErrorInfo } from '../../shared/monitor'

/** What the user can do about an error; a screen offers the ones it can carry out. */
export type ErrorAction = 'retry' | 'fix-key' | 'open-settings' | 'unwatch' | 'back-to-project'

export interface ErrorView {
  title: string
  message: string
  /** The server's or the app's own text, when it adds something to the message. */
  detail: string | null
  actions: ErrorAction[]
  /** Epoch ms after which a retry makes sense (rate limiting); null when at once. */
  retryAt: number | null
}

/** What was being looked at, so "gone" and "retry" mean the right thing. */
export type ErrorSubject = 'project' | 'task' | 'connection' | 'action'

export function describeError(error: IpcError, subject: ErrorSubject = 'action', now = Date.now()): ErrorView {
  const detail = error.message.trim() === '' ? null : error.message.trim()
  const view = (title: string, message: string, actions: ErrorAction[], retryAt: number | null = null): ErrorView => ({
    title,
    message,
    detail,
    actions,
    retryAt
  })
  switch (error.kind) {
    case 'network':
      return view(
        'Offline: the service cannot be reached',
        'Check your network connection and the service address in Settings. Agent Tray keeps trying in the background.',
        ['retry', 'open-settings']
      )
    case 'timeout':
      return view(
        'The service is not answering',
        'It took too long to respond. It may be busy or unreachable; try again in a moment.',
        ['retry', 'open-settings']
      )
    case 'auth':
      return view(
        'The API key was rejected',
        'The key of this connection is wrong or has been revoked. Enter a new key in Settings.',
        ['fix-key']
      )
    case 'not_found':
      if (subject === 'project') {
        return view(
          'This project is gone',
          'The service no longer knows this project. Stop watching it, or check its ID.',
          ['unwatch', 'retry']
        )
      }
      if (subject === 'task') {
        return view('This task is gone', 'The service no longer knows this task.', ['back-to-project', 'retry'])
      }
      return view('Not found', 'The service does not know what was asked for. Check the ID.', [])
    case 'rate_limited': {
      const wait = 'retryAfterMs' in error && typeof error.retryAfterMs === 'number' ? error.retryAfterMs : null
      return view(
        'Too many requests',
        wait === null
          ? 'The service asked us to slow down. Try again in a little while.'
          : `The service asked us to wait ${formatWait(wait)} before trying again.`,
        ['retry'],
        wait === null ? null : now + wait
      )
    }
    case 'server':
      return view(
        'The service had a problem',
        'It answered with an error of its own. This is usually temporary; try again shortly.',
        ['retry']
      )
    case 'invalid_response':
      return view(
        'The service sent an answer Agent Tray cannot read',
        'The server may be a different version or misconfigured. Retry, or check the service address in Settings.',
        ['retry', 'open-settings']
      )
    case 'publish_failed':
      return view('Publishing failed', 'The service could not publish the project.', [])
    case 'bad_request':
      return view('The service refused the request', 'Check what you entered and try again.', [])
    case 'unsupported':
      return view(
        'This service does not offer this',
        'The service behind this connection does not have this feature; the rest of Agent Tray works as usual.',
        []
      )
    case 'invalid_argument':
      return view('Check what you entered', 'Something in the form is not accepted.', [])
    case 'forbidden':
      return view('Not allowed', 'Agent Tray refused this action.', [])
    case 'internal':
      return view('Something went wrong in Agent Tray', 'An unexpected error happened. Try again.', ['retry'])
    default:
      return view('Something went wrong', 'An unexpected error happened. Try again.', ['retry'])
  }
}

/** Whether the error means the service could not be reached at all. */
export function isOffline(error: IpcError): boolean {
  return error.kind === 'network' || error.kind === 'timeout'
}

/** The header's health dot: red when only the user can fix it, amber while Agent Tray keeps trying. */
export type AccountHealth = 'ok' | 'retrying' | 'error'

/** An error of a whole account, not of one project: its banner sits under the bar on every screen. */
export interface AccountProblem {
  connectionId: string
  health: Exclude<AccountHealth, 'ok'>
  error: ServiceErrorInfo
  /** When its projects stopped answering: what the window shows of the account is as of then. */
  since: string
  /** An account of another service is always named: its tasks sit beside other accounts' in Now. */
  account?: string
}

/** An account of another service, as the banner reads it: its one poll's health. */
export type AgentAccountHealth = Pick<ConnectionView, 'id' | 'name' | 'agentHealth'>

/**
 * A rejected key is the account's, whichever project met it; an unreachable service is the
 * account's once none of its checked projects answers. Worst first (a rejected key), then oldest.
 */
export function accountProblems(
  projects: readonly Pick<ProjectView, 'connectionId' | 'health'>[],
  agentAccounts: readonly AgentAccountHealth[] = []
): AccountProblem[] {
  const accounts = [...new Set(projects.map((p) => p.connectionId))]
  const problems: AccountProblem[] = []
  // Another service's account polls all its tasks at once: its last poll's error is the account's. A key or a
  // permission (a 401 or 403) only the user can fix is red; the rest (offline, slowed down, the service's own trouble)
  // is retried.
  for (const { id, name, agentHealth: health } of agentAccounts) {
    if (health?.state !== 'error') continue
    problems.push({
      connectionId: id,
      health: health.error.kind === 'auth' ? 'error' : 'retrying',
      error: health.error,
      since: health.since,
      account: name
    })
  }
  for (const connectionId of accounts) {
    const own = projects.filter((p) => p.connectionId === connectionId)
    const failing = own.flatMap((p) => (p.health.state === 'error' ? [p.health] : []))
    const checked = own.filter((p) => p.health.state !== 'unknown').length
    const rejected = failing.filter((h) => h.error.kind === 'auth')
    const unreachable = failing.filter((h) => isOffline(h.error))
    const found =
      rejected.length > 0
        ? { health: 'error' as const, seen: rejected }
        : unreachable.length > 0 && unreachable.length === checked
          ? { health: 'retrying' as const, seen: unreachable }
          : null
    if (found === null) continue
    const first = found.seen.reduce((a, b) => (Date.parse(b.since) < Date.parse(a.since) ? b : a))
    problems.push({ connectionId, health: found.health, error: first.error, since: first.since })
  }
  return problems.sort(
    (a, b) => Number(b.health === 'error') - Number(a.health === 'error') || Date.parse(a.since) - Date.parse(b.since)
  )
}

/**
 * Whether the banner already says this error: a rejected key, or an unreachable service, of the
 * account it was met on. A screen then shows what it last saw, not the error again.
 */
export function saidByBanner(
  error: IpcError,
  connectionId: string | undefined,
  projects: readonly Pick<ProjectView, 'connectionId' | 'health'>[],
  agentAccounts: readonly AgentAccountHealth[] = []
): boolean {
  return accountProblems(projects, agentAccounts).some(
    (p) =>
      (connectionId === undefined || p.connectionId === connectionId) &&
      (error.kind === 'auth' ? p.error.kind === 'auth' : isOffline(error) && isOffline(p.error))
  )
}

/** "45 seconds", "2 minutes", "1 hour 5 minutes". */
export function formatWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000))
  if (seconds < 60) return plural(seconds, 'second')
  const minutes = Math.ceil(seconds / 60)
  if (minutes < 60) return plural(minutes, 'minute')
  const hours = Math.floor(minutes / 60)
  const rest = minutes % 60
  return rest === 0 ? plural(hours, 'hour') : `${plural(hours, 'hour')} ${plural(rest, 'minute')}`
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`
}

export const ACTION_LABELS: Record<ErrorAction, string> = {
  retry: 'Try again',
  'fix-key': 'Fix the key in Settings',
  'open-settings': 'Open Settings',
  unwatch: 'Stop watching this project',
  'back-to-project': 'Back to the project'
}
