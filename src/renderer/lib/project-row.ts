// Red only for failures not yet seen, as the tray badge counts them (a muted project asks for nothing).
import type { BudgetStatus } from '../../shared/budgets'
import { formatMoney } from '../../shared/format'
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

/** What the project's states say, worst first: the words of its leading icon and of its meta line. */
function stateWords(signals: ProjectSignals): { text: string; tone?: 'danger' | 'warn' }[] {
  const words: { text: string; tone?: 'danger' | 'warn' }[] = []
  const n = signals.unseenFailed
  if (n > 0) words.push({ text: `${n} new ${n === 1 ? 'failure' : 'failures'}`, tone: 'danger' })
  if (signals.budget !== 'none')
    words.push({ text: signals.budget === 'over' ? 'over budget' : 'near its budget', tone: 'warn' })
  if (signals.running > 0) words.push({ text: `${signals.running} running` })
  return words
}

/** The row's leading icon: the worst of its states (a new failure, then its budget, then running work), named by all of them. */
export function projectStatus(
  view: Pick<ProjectView, 'health' | 'counts'>,
  signals: ProjectSignals
): { kind: StatusKind; label: string } {
  const words = stateWords(signals).map((w) => w.text)
  const label = words.join(', ')
  if (signals.unseenFailed > 0) return { kind: 'failed', label }
  if (signals.budget !== 'none') return { kind: 'budget', label }
  if (signals.running > 0) return { kind: 'running', label }
  if (view.health.state === 'unknown') return { kind: 'todo', label: 'Not checked yet' }
  return view.counts.total > 0 ? { kind: 'completed', label: 'Idle' } : { kind: 'todo', label: 'No tasks yet' }
}

// The list's order follows the leading icon: a new failure, then a budget, then running work; the rest as listed.
const WORST_FIRST: readonly StatusKind[] = ['failed', 'budget', 'running']

/** The projects worst state first (projectStatus's), each state's projects in the order given. */
export function projectsWorstFirst<V extends RowView & Pick<ProjectView, 'health'>>(
  views: readonly V[],
  budgets: readonly BudgetStatus[]
): V[] {
  const rank = (view: V): number => {
    const at = WORST_FIRST.indexOf(projectStatus(view, projectSignals(view, budgets)).kind)
    return at === -1 ? WORST_FIRST.length : at
  }
  return views
    .map((view, index) => ({ view, index, rank: rank(view) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((r) => r.view)
}

export type RowMetaPart = { text: string; tone?: 'danger' | 'warn' } | { activeAt: string }

/** The row's meta line: its states worst first, muted, then when it last moved (an age, drawn by the row). */
export function projectRowMeta(
  view: Pick<ProjectView, 'watched' | 'health' | 'lastActivityAt'>,
  signals: ProjectSignals
): RowMetaPart[] {
  const parts: RowMetaPart[] = stateWords(signals)
  if (view.watched.muted) parts.push({ text: 'Muted' })
  if (view.health.state === 'unknown') parts.push({ text: 'Not checked yet' })
  else parts.push(view.lastActivityAt ? { activeAt: view.lastActivityAt } : { text: 'no activity yet' })
  return parts
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
