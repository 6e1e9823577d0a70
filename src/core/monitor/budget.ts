// A budget crossing of one project, announced once: only reaching the budget ("over") is news.
// Being near it (80 %) is a state the window shows (budgetState), never a notification. What was
// announced is kept in the project's snapshot so a restart does not announce it again; one that
// falls in quiet hours or a pause is held back by the app, not dropped (core/notify/budget-hold.ts).
import { budgetCrossing, budgetState, projectCost, type UsagesByTask } from '../../shared/cost'
import type { CompactProjectSnapshot, MonitorEvent, ProjectSnapshot } from '../../shared/monitor'
import type { Task } from '../../shared/service'

export interface BudgetCheck {
  event: MonitorEvent | null
  budgetNotified: ProjectSnapshot['budgetNotified']
}

export function checkBudget(
  announced: ProjectSnapshot['budgetNotified'],
  tasks: readonly Pick<Task, 'id' | 'status' | 'total_price'>[],
  budgetUsd: number | null,
  base: { connectionId: string; projectId: string; at: string },
  usagesByTask?: UsagesByTask
): BudgetCheck {
  if (budgetUsd === null) return { event: null, budgetNotified: null }
  const spentUsd = projectCost(tasks, usagesByTask).totalUsd
  // What was announced for another budget says nothing about this one; a 'near' kept by an older
  // version was never the crossing itself.
  const previous = announced && announced.budgetUsd === budgetUsd && announced.level === 'over' ? 'over' : null
  const state = budgetState(spentUsd, budgetUsd)
  const { crossed, notified } = budgetCrossing(previous, state === 'over' ? 'over' : 'ok')
  return {
    event: crossed ? { ...base, kind: 'budget', level: crossed, spentUsd, budgetUsd } : null,
    budgetNotified: notified ? { budgetUsd, level: notified } : null
  }
}

/**
 * The budget checked after a poll: what is announced goes into the next snapshot, a crossing into
 * the poll's events. True when what was announced changed (the state must be saved).
 */
export function settleBudget(
  previous: ProjectSnapshot | undefined,
  snapshot: CompactProjectSnapshot,
  events: MonitorEvent[],
  tasks: readonly Pick<Task, 'id' | 'status' | 'total_price'>[],
  budgetUsd: number | null,
  base: { connectionId: string; projectId: string; at: string },
  usagesByTask: UsagesByTask
): boolean {
  const budget = checkBudget(previous?.budgetNotified ?? null, tasks, budgetUsd, base, usagesByTask)
  if (budget.budgetNotified) snapshot.budgetNotified = budget.budgetNotified
  else delete snapshot.budgetNotified
  if (budget.event) events.push(budget.event)
  return JSON.stringify(previous?.budgetNotified ?? null) !== JSON.stringify(budget.budgetNotified ?? null)
}
