// What the monitor reports: typed change events, per-project health, and the last seen state
// it persists so a restart neither repeats nor misses a notification.
import type { BudgetPeriod } from './budgets'
import type { ProviderStatus, Waiting } from './provider'
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
  /** The service does not offer this (an endpoint outside the interface document answered 404 or 405). */
  | 'unsupported'

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

/** What a notification says of a task beside its status: how long it ran and what it cost. */
interface TaskFacts {
  /** The task's created_at and updated_at as the service sent them (absent in events from older builds). */
  createdAt?: string
  updatedAt?: string
  /** total_price; null when the service sent none. */
  totalPrice?: number | null
}

export type MonitorEvent =
  | (EventBase & TaskFacts & { kind: 'task-added'; taskId: string; taskName: string; status: TaskStatus | Unknown })
  | (EventBase &
      TaskFacts & {
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
  /** Spending crossed a budget's 'near' or 'over' level, told once per level and period; projectId null: account. */
  | (Omit<EventBase, 'projectId'> & {
      kind: 'budget'
      projectId: string | null
      budgetId: string
      period: BudgetPeriod
      /** "2026-11-23", "2026-11" or "total". */
      periodKey: string
      level: 'near' | 'over'
      spentUsd: number
      budgetUsd: number
    })
  /** An agent account's spending in one of its units crossed a per-unit budget's level, told as a budget's is. */
  | (Omit<EventBase, 'projectId'> & {
      kind: 'unit-budget'
      projectId: null
      budgetId: string
      /** The service's unit ("ACU"); `spent` and `limit` are in it. */
      unit: string
      period: BudgetPeriod
      periodKey: string
      level: 'near' | 'over'
      spent: number
      limit: number
    })
  /** A running task has cost more than 3 × the median of the project's completed tasks (told once per task). */
  | (EventBase & { kind: 'task-cost-unusual'; taskId: string; taskName: string; costUsd: number; usualUsd: number })
  /** A task of another service (core/providers) started waiting for a person: told once per question. `projectId` is
   * its repository or source ('' when it has none). */
  | (AgentEventBase & { kind: 'agent-waiting'; waiting: Waiting })
  /** A task of another service changed status (from null: it appeared already ended). */
  | (AgentEventBase & { kind: 'agent-status'; from: ProviderStatus | null; to: ProviderStatus; serviceStatus: string })

interface AgentEventBase extends EventBase {
  /** The service's kind and its name as shown ("jules", "Jules"). */
  service: string
  serviceName: string
  taskId: string
  taskName: string
  /** The task's page on the service, where it is answered when the app cannot. */
  url: string | null
}

/** The last seen state of one task in the full form (every step), as builds before the compact form wrote it. */
export interface TaskSnapshot {
  status: TaskStatus | Unknown
  name: string
  updatedAt: string
  totalPrice: number | null
  steps: Record<string, StepStatus | Unknown>
}

/** The announced budget level and the budget it was for, so a restart does not repeat it. */
export type BudgetNotified = { budgetUsd: number; level: 'near' | 'over' } | null

/** The full form of a project's last seen state: still read (and upgraded on the next poll), no longer written. */
export interface FullProjectSnapshot {
  polledAt: string
  tasks: Record<string, TaskSnapshot>
  budgetNotified?: BudgetNotified
}

/** The compact, persisted form: arrays indexed alike. Step statuses only for active or opened tasks; the others keep
 *  a step count and a 32-bit fingerprint, enough to tell their steps changed. */
export interface CompactProjectSnapshot {
  form: 'compact'
  polledAt: string
  taskIds: string[]
  statuses: (TaskStatus | Unknown)[]
  /** total_price; null when the service sent none. */
  prices: (number | null)[]
  stepCounts: number[]
  stepFingerprints: number[]
  /** Task id → step id → status, for the tasks whose steps are compared one by one. */
  steps: Record<string, Record<string, StepStatus | Unknown>>
  budgetNotified?: BudgetNotified
}

/** The last seen state of one project; absent until its first successful poll (the baseline). */
export type ProjectSnapshot = FullProjectSnapshot | CompactProjectSnapshot

/** Persisted per connection id, then per project id. */
export type LastSeenState = Record<string, Record<string, ProjectSnapshot>>
