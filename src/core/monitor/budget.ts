// Budget crossings of one project, announced once each; what was announced is kept in the
// project's snapshot so a restart does not announce it again.
import { budgetCrossing, budgetState, projectCost, type UsagesByTask } from '../../shared/cost'
import type { MonitorEvent, ProjectSnapshot } from '../../shared/monitor'
import type { Task } from '../../shared/service'

export interface BudgetCheck {
  event: MonitorEvent | null
  budgetNotified: ProjectSnapshot['budgetNotified']
}

export function checkBudget(
  announced: ProjectSnapshot['budgetNotified'],
  tasks: readonly Task[],
  budgetUsd: number | null,
  base: { connectionId: string; projectId: string; at: string },
  usagesByTask?: UsagesByTask
): BudgetCheck {
  if (budgetUsd === null) return { event: null, budgetNotified: null }
  const spentUsd = projectCost(tasks, usagesByTask).totalUsd
  // What was announced for another budget says nothing about this one.
  const previous = announced && announced.budgetUsd === budgetUsd ? announced.level : null
  const { crossed, notified } = budgetCrossing(previous, budgetState(spentUsd, budgetUsd))
  return {
    event: crossed ? { ...base, kind: 'budget', level: crossed, spentUsd, budgetUsd } : null,
    budgetNotified: notified ? { budgetUsd, level: notified } : null
  }
}
