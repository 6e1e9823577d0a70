// Which StatusIcon a task or step status gets, and its name: one owner for the mapping. Each kind
// is one glyph with one meaning (components/ui/StatusIcon.svelte).
import type { ProviderStatus } from '../../shared/provider'

export type StatusKind =
  | 'failed'
  | 'failed-seen'
  | 'waiting'
  | 'completed'
  | 'running'
  | 'todo'
  | 'cancelled'
  | 'budget'
  | 'unknown'
  /** The service refused or failed to answer about this one thing (a project gone, forbidden): not a task's status. */
  | 'error'

export const STATUS_LABEL: Record<StatusKind, string> = {
  failed: 'Failed',
  'failed-seen': 'Failed',
  waiting: 'Waiting for you',
  completed: 'Completed',
  running: 'Running',
  todo: 'To do',
  cancelled: 'Cancelled',
  budget: 'Over budget',
  unknown: 'Unknown status',
  error: 'Error'
}

/** A task's or step's status (the service's words) as an icon kind; anything new is 'unknown'. */
export function statusKind(status: string): StatusKind {
  switch (status) {
    case 'failed':
      return 'failed'
    case 'completed':
      return 'completed'
    case 'in_progress':
      return 'running'
    case 'todo':
    case 'pending':
      return 'todo'
    case 'cancelled':
      return 'cancelled'
    default:
      return 'unknown'
  }
}

/** A status of the one task model (any service) as an icon kind. */
export function providerStatusKind(status: ProviderStatus): StatusKind {
  return status === 'queued' ? 'todo' : status
}

/** A failure already seen keeps its glyph (never done's or cancelled's) but no longer asks, so it is quiet. */
export function seenAware(kind: StatusKind, unseen: boolean): StatusKind {
  return kind === 'failed' && !unseen ? 'failed-seen' : kind
}
