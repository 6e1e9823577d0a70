// Red only for failures not yet seen, as the tray badge counts them (a muted project asks for nothing).
import type { BudgetStatus } from '../../shared/budgets'
import { formatDate, formatMoney } from '../../shared/format'
import type { ProjectView } from '../../shared/ipc'
import type { StatusKind } from './status-kind'

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

/** One figure of the project's strip: its number (or money) and its word. */
export interface ProjectFigure {
  value: string
  word: string
}

/** The project screen's one line of figures: its lifetime counts and costs (money to cents). */
export function projectFigures(
  view: Pick<ProjectView, 'watched' | 'counts' | 'costTodayUsd' | 'costTotalUsd'>
): ProjectFigure[] {
  const { total, running, failed } = view.counts
  const figures: ProjectFigure[] = [{ value: String(total), word: total === 1 ? 'task' : 'tasks' }]
  if (running > 0) figures.push({ value: String(running), word: 'running' })
  if (failed > 0) figures.push({ value: String(failed), word: 'failed' })
  figures.push(
    { value: formatMoney(view.costTodayUsd), word: 'today' },
    { value: formatMoney(view.costTotalUsd), word: 'total' }
  )
  if (view.watched.muted) figures.push({ value: '', word: 'muted' })
  return figures
}

/** The same figures as words: "6 tasks · 1 running · $0.37 today · $12.50 total". */
export function projectMetaLine(
  view: Pick<ProjectView, 'watched' | 'counts' | 'costTodayUsd' | 'costTotalUsd'>
): string {
  return projectFigures(view)
    .map((f) => (f.value ? `${f.value} ${f.word}` : f.word))
    .join(' · ')
}

/**
 * The project's one status icon (its bar): the worst of its tasks, in the row's order of red,
 * then a budget over its limit, then running work; otherwise quiet.
 */
export function projectStatus(signals: ProjectSignals, total: number): { kind: StatusKind; label: string } {
  const { unseenFailed, running, budget } = signals
  if (unseenFailed > 0)
    return { kind: 'failed', label: unseenFailed === 1 ? '1 new failure' : `${unseenFailed} new failures` }
  if (budget === 'over') return { kind: 'budget', label: 'Over budget' }
  if (running > 0) return { kind: 'running', label: `${running} running` }
  if (total === 0) return { kind: 'todo', label: 'No tasks yet' }
  return { kind: 'completed', label: 'Nothing running' }
}
