// The one model of a task that every surface reads, whatever service it comes from. Each adapter
// (core/providers/<service>/) maps its service's words onto it; no service is named here.

/** What a task is doing, in the words every surface uses; the service's own word is kept beside it. */
export const PROVIDER_STATUSES = [
  'queued',
  'running',
  'waiting',
  'completed',
  'failed',
  'cancelled',
  'unknown'
] as const
export type ProviderStatus = (typeof PROVIDER_STATUSES)[number]

/** What the agent waits for a person to do. */
export const WAITING_KINDS = ['plan_approval', 'question', 'permission'] as const
export type WaitingKind = (typeof WAITING_KINDS)[number]

/** A task waiting for you: what kind of answer, what is asked (untrusted text, when the service says), where to give it. */
export interface Waiting {
  kind: WaitingKind
  text: string | null
  /** The service's page where it is answered. */
  where: string | null
}

/** A pull request the task made: the service may give its address, or only its id. */
export interface PullRequestLink {
  id: string | null
  url: string | null
  title: string | null
}

export interface TaskLinks {
  /** The task's page on the service. */
  page: string | null
  pullRequests: PullRequestLink[]
  preview: string | null
}

/** One step or activity, as the service reports it; its text is untrusted. */
export interface ProviderStep {
  id: string
  /** The service's word for what kind of step this is (an activity type, a session). */
  kind: string
  title: string
  detail: string | null
  /** ISO time, when the service gives one. */
  at: string | null
  /** The step's own status, when it has one. */
  status: ProviderStatus | null
  serviceStatus: string | null
}

/** Money is in USD; any other unit is the service's own, named (e.g. "premium requests"). */
export const USD = 'USD'
export interface ProviderCost {
  amount: number
  unit: string
}

/** What a task is grouped under: a repository, a source, a project. */
export interface ProviderProject {
  id: string
  name: string
}

export interface ProviderTask {
  /** Unique within its account. */
  id: string
  title: string
  status: ProviderStatus
  /** The service's own word, always kept (shown for unknown). */
  serviceStatus: string
  waiting: Waiting | null
  links: TaskLinks
  project: ProviderProject | null
  createdAt: string | null
  updatedAt: string | null
  /** One entry per unit; empty when the service reports none. */
  costs: ProviderCost[]
  /** Undefined when the service has steps but they were not fetched for this read. */
  steps?: ProviderStep[]
}

/** What a service offers; the window and the command show only these. */
export interface ProviderCapabilities {
  steps: boolean
  cost: boolean
  publish: boolean
  /** Tasks are grouped in projects the user picks and watches (else every task of the account is watched). */
  projects: boolean
  approve: boolean
  reply: boolean
  startTask: boolean
}

/** How a service is offered to the user: declared by its adapter. */
export interface ProviderDescriptor {
  /** Stable id (settings, `login --service`). */
  kind: string
  displayName: string
  defaultBaseUrl: string
  /** Where the service issues a key. */
  keyPage: string
  capabilities: ProviderCapabilities
  /** The units its costs come in, as its tasks name them (a budget may be in one before any task reported it). */
  costUnits?: readonly string[]
}

/** A status table: every documented word of a service mapped, checked by the compiler against the words listed. */
export type StatusTable<Word extends string> = Readonly<Record<Word, ProviderStatus>>

/** A service's word mapped by its table; a word the table does not know is `unknown`, the word kept. */
export function statusFrom<Word extends string>(
  table: StatusTable<Word>,
  word: unknown
): { status: ProviderStatus; serviceStatus: string } {
  const serviceStatus = typeof word === 'string' ? word : word === undefined || word === null ? '' : String(word)
  const status = Object.hasOwn(table, serviceStatus) ? table[serviceStatus as Word] : 'unknown'
  return { status, serviceStatus }
}

/** A task the agent has yet to finish (polled fast; not yet told as ended). Waiting counts: it resumes when answered. */
export function isProviderActive(status: ProviderStatus): boolean {
  return status === 'queued' || status === 'running' || status === 'waiting'
}

/** Now's order: what needs you, then failures, then what runs, then the rest. */
export const PROVIDER_STATUS_ORDER: readonly ProviderStatus[] = [
  'waiting',
  'failed',
  'running',
  'queued',
  'completed',
  'cancelled',
  'unknown'
]

/** When a task last changed, for Now's order: an unreadable or missing time sorts last. */
function changedAt(task: Pick<ProviderTask, 'updatedAt'>): number {
  return task.updatedAt === null ? Number.NEGATIVE_INFINITY : Date.parse(task.updatedAt) || 0
}

/** The newest change first (a task without a time last): the order within one status, and of `now --all`'s rest. */
export function byNewestChange(a: Pick<ProviderTask, 'updatedAt'>, b: Pick<ProviderTask, 'updatedAt'>): number {
  return changedAt(b) - changedAt(a)
}

/** Now's order, for the window's board and the command alike: by PROVIDER_STATUS_ORDER, then the newest change first. */
export function byNowOrder(
  a: Pick<ProviderTask, 'status' | 'updatedAt'>,
  b: Pick<ProviderTask, 'status' | 'updatedAt'>
): number {
  return PROVIDER_STATUS_ORDER.indexOf(a.status) - PROVIDER_STATUS_ORDER.indexOf(b.status) || byNewestChange(a, b)
}

/** The longest reply sent to an agent: the window's sheet, the request and the command check it. */
export const MAX_REPLY_LENGTH = 10_000
