// The order of the Now screen: tasks waiting for the user first, then failures not yet seen, then what runs,
// then the rest (budget crossings, completions). Workser's items and other services' tasks share each group.
import type { AgentTaskView, AttentionItem, NowView, RunningTaskView } from '../../shared/ipc'

export type NowRow =
  | { kind: 'agent'; task: AgentTaskView }
  | { kind: 'item'; item: AttentionItem }
  | { kind: 'running'; task: RunningTaskView }

export interface NowGroups {
  /** Agent tasks waiting for the user, the longest waiting first. */
  waiting: NowRow[]
  /** Failures not yet seen, newest first. */
  failed: NowRow[]
  /** Running work: Workser's tasks as core sends them, then other services' running tasks, newest first. */
  running: NowRow[]
  /** Budget crossings, then completions, newest first within each (as core sends them). */
  rest: NowRow[]
}

const RANK: Record<AttentionItem['kind'], number> = { failed: 0, budget: 1, completed: 2 }

export function failuresFirst(items: readonly AttentionItem[]): AttentionItem[] {
  return [...items].sort((a, b) => RANK[a.kind] - RANK[b.kind])
}

/** Epoch ms of an ISO time; a missing or unreadable one sorts as the oldest. */
function time(iso: string | null | undefined): number {
  const t = iso ? Date.parse(iso) : Number.NaN
  return Number.isNaN(t) ? 0 : t
}

const agentTime = (task: AgentTaskView): number => time(task.updatedAt ?? task.createdAt)

export function nowGroups(view: NowView | null, agentTasks: readonly AgentTaskView[]): NowGroups {
  const items = failuresFirst(view?.items ?? [])
  const waiting = agentTasks.filter((t) => t.status === 'waiting').sort((a, b) => agentTime(a) - agentTime(b))
  const agentFailed = agentTasks.filter((t) => t.status === 'failed' && t.unseenFailure)
  const failed: { row: NowRow; at: number }[] = [
    ...items
      .filter((i) => i.kind === 'failed')
      .map((item) => ({ row: { kind: 'item', item } as NowRow, at: time(item.at) })),
    ...agentFailed.map((task) => ({ row: { kind: 'agent', task } as NowRow, at: agentTime(task) }))
  ]
  const agentRunning = agentTasks.filter((t) => t.status === 'running').sort((a, b) => agentTime(b) - agentTime(a))
  return {
    waiting: waiting.map((task) => ({ kind: 'agent', task })),
    // A stable sort: equal times keep core's order.
    failed: failed.sort((a, b) => b.at - a.at).map((f) => f.row),
    running: [
      ...(view?.running ?? []).map((task): NowRow => ({ kind: 'running', task })),
      ...agentRunning.map((task): NowRow => ({ kind: 'agent', task }))
    ],
    rest: items.filter((i) => i.kind !== 'failed').map((item) => ({ kind: 'item', item }))
  }
}

/** What was spent today across the projects shown, for the status strip. */
export function spentToday(projects: readonly { costTodayUsd: number }[]): number {
  return projects.reduce((sum, p) => sum + (Number.isFinite(p.costTodayUsd) ? p.costTodayUsd : 0), 0)
}
