// What the monitor reports: typed change events, per-project health, and the last seen state
// it persists so a restart neither repeats nor misses a notification.
import type { StepStatus, TaskStatus, Unknown } from './service'

/** The kinds of failure a caller can act on (the service client's typed errors). */
export type ServiceErrorKind =
  | 'auth'
  | 'not_found'
  | 'rate_limited'
  | 'server'
  | 'network'
  | 'timeout'
  | 'invalid_response'
  | 'publish_failed'
  | 'bad_request'

/** A service error as it crosses to the renderer or the terminal: never carries the key. */
export interface ServiceErrorInfo {
  kind: ServiceErrorKind
  message: string
  status?: number
  /** For rate_limited: how long the server asked us to wait. */
  retryAfterMs?: number
}

export type ProjectHealth =
  | { state: 'unknown' }
  | { state: 'ok'; polledAt: string }
  | { state: 'error'; error: ServiceErrorInfo; since: string; nextPollAt: string }

interface EventBase {
  connectionId: string
  projectId: string
  /** When the monitor saw the change (ISO). */
  at: string
}

export type MonitorEvent =
  | (EventBase & { kind: 'task-added'; taskId: string; taskName: string; status: TaskStatus | Unknown })
  | (EventBase & {
      kind: 'task-status'
      taskId: string
      taskName: string
      from: TaskStatus | Unknown
      to: TaskStatus | Unknown
    })
  | (EventBase & { kind: 'step-added'; taskId: string; stepId: string; stepName: string; status: StepStatus | Unknown })
  | (EventBase & {
      kind: 'step-status'
      taskId: string
      stepId: string
      stepName: string
      from: StepStatus | Unknown
      to: StepStatus | Unknown
    })
  | (EventBase & { kind: 'task-price'; taskId: string; taskName: string; from: number | null; to: number | null })
  | (EventBase & { kind: 'project-health'; health: ProjectHealth })
  /** The project's spending crossed a level of its budget (announced once per crossing). */
  | (EventBase & { kind: 'budget'; level: 'near' | 'over'; spentUsd: number; budgetUsd: number })

export type MonitorEventKind = MonitorEvent['kind']

/** The last seen state of one task: enough to tell what changed while we were away. */
export interface TaskSnapshot {
  status: TaskStatus | Unknown
  name: string
  updatedAt: string
  totalPrice: number | null
  steps: Record<string, StepStatus | Unknown>
}

/** The last seen state of one project; absent until its first successful poll (the baseline). */
export interface ProjectSnapshot {
  polledAt: string
  tasks: Record<string, TaskSnapshot>
  /** The budget level last announced, and for which budget, so a restart does not repeat it. */
  budgetNotified?: { budgetUsd: number; level: 'near' | 'over' } | null
}

/** Persisted per connection id, then per project id. */
export type LastSeenState = Record<string, Record<string, ProjectSnapshot>>
