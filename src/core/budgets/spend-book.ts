// What budgets read of one connection's projects: tasks that can still count (changed in the last 40 days, or
// running) and their costs. Kept here because the monitor keeps only compact summaries of projects nobody looks at.
import type { BudgetPeriod } from '../../shared/budgets'
import {
  hasKnownCost,
  knownTotalPrice,
  projectCost,
  roundUsd,
  taskCostUsd,
  type TzOffset,
  type UsagesByTask
} from '../../shared/cost'
import { costInPeriod } from '../../shared/cost-period'
import type { Task } from '../../shared/service'
import { isActive } from '../../shared/status'
import { BurnSamples } from './burn-samples'
import { taskBurnRate } from './pace'

/** A month is at most 31 days, a time zone 14 hours from UTC: older changes cannot be in this month. */
const RECENT_MS = 40 * 86_400_000
/** The completed tasks a project's "usual" cost is taken from: its latest ones. */
export const MAX_COMPLETED_KEPT = 200

export interface TaskFacts {
  id: string
  name: string
  total_price: number | null
  updated_at: string
  createdMs: number
  running: boolean
}

interface ProjectBook {
  /** Changed lately or running, in list order. */
  recent: TaskFacts[]
  /** Every task's cost together, as shared/cost's projectCost (at the time of the list). */
  totalUsd: number
  completedCosts: number[]
}

export interface SpendShare {
  costUsd: number
  estimatedUsd: number
}

function factsOf(task: Omit<Task, 'steps'>): TaskFacts {
  return {
    id: task.id,
    name: task.name,
    total_price: knownTotalPrice(task.total_price),
    updated_at: task.updated_at,
    createdMs: Date.parse(task.created_at),
    running: isActive(task.status)
  }
}

export class SpendBook {
  private readonly projects = new Map<string, ProjectBook>()
  private readonly burn = new BurnSamples()

  /** A project's fresh task list, seen at `atMs`. */
  takeTasks(projectId: string, tasks: readonly Omit<Task, 'steps'>[], atMs: number, usagesByTask?: UsagesByTask): void {
    const before = this.projects.get(projectId)
    const facts = tasks.map(factsOf)
    for (const t of facts) this.burn.observe(t.id, t.total_price, t.running, atMs)
    const recent = facts.filter((t) => t.running || !(Date.parse(t.updated_at) < atMs - RECENT_MS))
    // Running tasks of this project that left the list leave the pace (those that stopped running
    // left it above).
    if (before)
      for (const t of before.recent)
        if (t.running && !recent.some((r) => r.id === t.id)) this.burn.observe(t.id, null, false, atMs)
    // A task whose cost is not known is no sample of the usual (taskCostUsd would read it as $0).
    const completed = tasks
      .filter((t) => t.status === 'completed' && hasKnownCost(t, usagesByTask))
      .map((t) => taskCostUsd(t, usagesByTask))
    this.projects.set(projectId, {
      recent,
      totalUsd: projectCost(tasks, usagesByTask).totalUsd,
      completedCosts: completed.slice(-MAX_COMPLETED_KEPT)
    })
  }

  forget(projectId: string): void {
    const book = this.projects.get(projectId)
    if (!book) return
    for (const t of book.recent) this.burn.observe(t.id, null, false, 0)
    this.projects.delete(projectId)
  }

  /** Whether the project's list was seen (before its first poll nothing is known of it). */
  has(projectId: string): boolean {
    return this.projects.has(projectId)
  }

  /** What the project spent in the period `key` (day or month, local time), or in total. */
  spent(projectId: string, period: BudgetPeriod, key: string, tz: TzOffset, usagesByTask?: UsagesByTask): SpendShare {
    const book = this.projects.get(projectId)
    if (!book) return { costUsd: 0, estimatedUsd: 0 }
    if (period === 'total') return { costUsd: book.totalUsd, estimatedUsd: 0 }
    const share = costInPeriod(book.recent, usagesByTask, tz, period, key)
    return { costUsd: share.costUsd, estimatedUsd: share.estimatedUsd }
  }

  running(projectId: string): readonly TaskFacts[] {
    return this.projects.get(projectId)?.recent.filter((t) => t.running) ?? []
  }

  completedCosts(projectId: string): readonly number[] {
    return this.projects.get(projectId)?.completedCosts ?? []
  }

  /** USD per hour over the last 15 minutes of one running task (0 when too little was seen). */
  taskRate(task: TaskFacts, now: number, usagesByTask?: UsagesByTask): number {
    return (
      taskBurnRate(
        { createdMs: task.createdMs, usages: usagesByTask?.[task.id], samples: this.burn.samples(task.id) },
        now
      ) ?? 0
    )
  }

  /** The project's pace: its running tasks' rates together. */
  projectRate(projectId: string, now: number, usagesByTask?: UsagesByTask): number {
    let sum = 0
    for (const t of this.running(projectId)) sum += this.taskRate(t, now, usagesByTask)
    return roundUsd(sum)
  }
}
