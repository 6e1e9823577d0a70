// Which service an account is of, read from AppState.services (Workser first, the default when a connection names
// none): the window never names a service itself.
import { sameOrigin } from '../../shared/base-url'
import { formatAmount } from '../../shared/format'
import type { AgentTaskView, ConnectionView, EventContract } from '../../shared/ipc'
import {
  type ProviderCost,
  type ProviderDescriptor,
  type ProviderStatus,
  type WaitingKind
} from '../../shared/provider'
import type { Route } from './route'

/** The connection's service: the one it names, else the first (the default service). */
export function serviceOf(
  connection: Pick<ConnectionView, 'service'> | null | undefined,
  services: readonly ProviderDescriptor[]
): ProviderDescriptor | null {
  const kind = connection?.service
  return (kind === undefined ? services[0] : services.find((s) => s.kind === kind)) ?? null
}

/** An account of any service but the default one: every task of it is watched, it has no projects of its own. */
export function isAgentAccount(
  connection: Pick<ConnectionView, 'service'> | null | undefined,
  services: readonly ProviderDescriptor[]
): boolean {
  const kind = connection?.service
  return kind !== undefined && services.length > 0 && kind !== services[0]?.kind
}

/** Accounts whose service groups tasks in projects (Projects, Costs and the watch form list only these). */
export function projectAccounts<C extends Pick<ConnectionView, 'service'>>(
  connections: readonly C[],
  services: readonly ProviderDescriptor[]
): C[] {
  return connections.filter((c) => serviceOf(c, services)?.capabilities.projects ?? true)
}

/** Where a new account of this service gets its key: the service's key page, when the address is the service's own. */
export function keyPageFor(
  service: Pick<ProviderDescriptor, 'defaultBaseUrl' | 'keyPage'>,
  baseUrl: string
): string | null {
  return sameOrigin(baseUrl, service.defaultBaseUrl) ? service.keyPage : null
}

/** What a waiting task asks of the user, as a row's line says it. */
export const WAITING_WORDS: Record<WaitingKind, string> = {
  plan_approval: 'Approve the plan',
  question: 'Answer a question',
  permission: 'Give a permission'
}

const STATUS_WORDS: Record<ProviderStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  waiting: 'Waiting for you',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
  unknown: 'Unknown'
}

/** A task's status in words; unknown says the service's own word. */
export function agentStatusLabel(task: Pick<AgentTaskView, 'status' | 'serviceStatus'>): string {
  return task.status === 'unknown' && task.serviceStatus !== '' ? task.serviceStatus : STATUS_WORDS[task.status]
}

/** A cost in its unit: money by the one money format, any other unit as the amount and the unit's name. */
export function costText(cost: ProviderCost): string {
  return formatAmount(cost.amount, cost.unit)
}

/** Where a request to open a task goes (a notification's click, a deep link): an agent account's task screen, else
 *  the project's task. */
export function taskRoute(
  target: EventContract['navigate:task'],
  connections: readonly Pick<ConnectionView, 'id' | 'service'>[],
  services: readonly ProviderDescriptor[]
): Route {
  const connection =
    target.connectionId === undefined ? undefined : connections.find((c) => c.id === target.connectionId)
  return connection !== undefined && isAgentAccount(connection, services)
    ? { name: 'agent-task', connectionId: connection.id, taskId: target.taskId }
    : { name: 'task', projectId: target.projectId, taskId: target.taskId }
}
