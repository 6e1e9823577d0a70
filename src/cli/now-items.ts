// What `now` lists and `watch` prints of a task of any service: one flat record per task (the `--json` shape), and
// Now's order (src/shared/provider.ts `byNowOrder`). A record's `id` is what `approve` and `reply` take.
import {
  byNewestChange,
  byNowOrder,
  PROVIDER_STATUS_ORDER,
  type ProviderStatus,
  type ProviderTask,
  USD,
  type WaitingKind
} from '../shared/provider'
import type { Connection } from '../shared/settings'
import { taskRef } from './task-ref'

export interface NowItem {
  /** The service's kind (`login --service`). */
  service: string
  /** The account's name. */
  account: string
  /** `<account id>:<task id>`: unique across accounts; what `approve` and `reply` take. */
  id: string
  title: string
  status: ProviderStatus
  /** The service's own word. */
  service_status: string
  waiting: { kind: WaitingKind; text: string | null } | null
  url: string | null
  /** USD when the task has a price in USD, else the first unit the service reports; null when none. */
  cost: { amount: number; unit: string } | null
}

export function nowItem(connection: Connection, service: string, task: ProviderTask): NowItem {
  const cost = task.costs.find((c) => c.unit === USD) ?? task.costs[0] ?? null
  return {
    service,
    account: connection.name,
    id: taskRef(connection.id, task.id),
    title: task.title,
    status: task.status,
    service_status: task.serviceStatus,
    waiting: task.waiting === null ? null : { kind: task.waiting.kind, text: task.waiting.text },
    url: task.links.page ?? task.waiting?.where ?? null,
    cost: cost === null ? null : { amount: cost.amount, unit: cost.unit }
  }
}

/** What needs you, in Now's order: the statuses up to `running` (waiting, then failures, then running). */
export const NEEDS_YOU: readonly ProviderStatus[] = PROVIDER_STATUS_ORDER.slice(
  0,
  PROVIDER_STATUS_ORDER.indexOf('running') + 1
)

export function needsYou(status: ProviderStatus): boolean {
  return NEEDS_YOU.includes(status)
}

export interface Dated {
  item: NowItem
  updatedAt: string | null
}

const task = (t: Dated) => ({ status: t.item.status, updatedAt: t.updatedAt })

/** What needs you in Now's order (shared/provider.ts `byNowOrder`, the window's too); with `all`, the rest after it,
 *  by last change. */
export function nowOrder(tasks: readonly Dated[], all: boolean): NowItem[] {
  const first = tasks.filter((t) => needsYou(t.item.status)).sort((a, b) => byNowOrder(task(a), task(b)))
  const rest = all ? tasks.filter((t) => !needsYou(t.item.status)).sort((a, b) => byNewestChange(task(a), task(b))) : []
  return [...first, ...rest].map((t) => t.item)
}
