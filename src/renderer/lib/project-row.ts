// Red only for failures not yet seen, as the tray badge counts them (a muted project asks for nothing).
import type { BudgetStatus } from '../../shared/budgets'
import { formatDate, formatMoney } from '../../shared/format'
import type { ProjectView } from '../../shared/ipc'

export type ProjectBudgetLevel = 'none' | 'near' | 'over'

export interface ProjectSignals {
  /** Failures the user has not seen yet: the only red in the row. */
  unseenFailed: number
  running: number
  budget: ProjectBudgetLevel
}

type RowView = Pick<ProjectView, 'connectionId' | 'watched' | 'counts' | 'attention'>

/** The worst state among this project's own budgets (its day, month and total ones). */
export function projectBudgetLevel(
  budgets: readonly BudgetStatus[],
  view: Pick<ProjectView, 'connectionId' | 'watched'>
): ProjectBudgetLevel {
  let level: ProjectBudgetLevel = 'none'
  for (const b of budgets) {
    if (b.connectionId !== view.connectionId || b.budget.projectId !== view.watched.projectId) continue
    if (b.state === 'over') return 'over'
    if (b.state === 'near') level = 'near'
  }
  return level
}

export function projectSignals(view: RowView, budgets: readonly BudgetStatus[]): ProjectSignals {
  return {
    unseenFailed: view.watched.muted ? 0 : view.attention.failedTaskIds.length,
    running: view.counts.running,
    budget: projectBudgetLevel(budgets, view)
  }
}

/** The failed tasks the user has not seen: the only failures drawn red in the project's task list. */
export function unseenFailures(view: Pick<ProjectView, 'watched' | 'attention'> | null): ReadonlySet<string> {
  return new Set(view === null || view.watched.muted ? [] : view.attention.failedTaskIds)
}

/** The row's meta line: muted, then when it last moved (the one date form). */
export function projectRowMeta(
  view: Pick<ProjectView, 'watched' | 'health' | 'lastActivityAt'>,
  now: number,
  timeZone?: string
): string {
  const parts: string[] = []
  if (view.watched.muted) parts.push('Muted')
  if (view.health.state === 'unknown') parts.push('Not checked yet')
  else parts.push(view.lastActivityAt ? `active ${formatDate(view.lastActivityAt, now, timeZone)}` : 'no activity yet')
  return parts.join(' · ')
}

/** The project screen's one meta line: its lifetime counts and costs (money to cents). */
export function projectMetaLine(
  view: Pick<ProjectView, 'watched' | 'counts' | 'costTodayUsd' | 'costTotalUsd'>
): string {
  const { total, running, failed } = view.counts
  const parts = [total === 1 ? '1 task' : `${total} tasks`]
  if (running > 0) parts.push(`${running} running`)
  if (failed > 0) parts.push(`${failed} failed`)
  parts.push(`${formatMoney(view.costTodayUsd)} today`, `${formatMoney(view.costTotalUsd)} total`)
  if (view.watched.muted) parts.push('muted')
  return parts.join(' · ')
}
