// Which StatusIcon a task or step status gets, and its name: one owner for the mapping.

export type StatusKind = 'failed' | 'completed' | 'running' | 'todo' | 'cancelled' | 'budget' | 'unknown'

export const STATUS_LABEL: Record<StatusKind, string> = {
  failed: 'Failed',
  completed: 'Completed',
  running: 'Running',
  todo: 'To do',
  cancelled: 'Cancelled',
  budget: 'Over budget',
  unknown: 'Unknown status'
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
