// What the tray icon shows, derived from the app's state. One state at a time, picked by
// priority, so the icon answers "do I need to look?" at a glance.
import { attentionTotal, countAttention } from '../../shared/attention-count'
import type { AppState } from '../../shared/ipc'

export type TrayState = 'idle' | 'running' | 'attention' | 'offline' | 'error'

/** Highest first: offline explains errors behind it, an error makes what we know stale, and what needs the user beats a
 * running task, which only needs patience. */
export const TRAY_STATE_PRIORITY: readonly TrayState[] = ['offline', 'error', 'attention', 'running', 'idle']

export interface TraySummary {
  state: TrayState
  /** Watched projects of the active connection. */
  projects: number
  running: number
  /** Failed tasks, old and new: information, not a call for attention. */
  failed: number
  /** Budgets at or past their limit in their current period (information too). */
  overBudget: number
  /** Tasks seen failing since the user last looked: these ask for attention. */
  newFailed: number
  /** Projects whose budget was crossed since the user last looked: these ask too. */
  budgetsCrossed: number
  /** Projects whose last poll failed. */
  erroring: number
  /** With several connections: the names of those with a project that cannot be reached. */
  erroringConnections: string[]
  notificationsPaused: boolean
}

/** Whether any budget of a project is at or past its limit in its current period. */
export function isOverBudget(app: Pick<AppState, 'budgets'>, connectionId: string, projectId: string): boolean {
  return app.budgets.some(
    (b) => b.state === 'over' && b.connectionId === connectionId && b.budget.projectId === projectId
  )
}

export function summariseTray(app: AppState, online: boolean): TraySummary {
  let running = 0
  let failed = 0
  let overBudget = 0
  let erroring = 0
  const erroringIds = new Set<string>()
  for (const p of app.projects) {
    running += p.counts.running
    // A muted project still shows what runs, but does not ask for attention.
    if (!p.watched.muted) failed += p.counts.failed
    if (p.health.state === 'error') {
      erroring += 1
      erroringIds.add(p.connectionId)
    }
  }
  const mutedProjects = new Set(
    app.projects.filter((p) => p.watched.muted).map((p) => `${p.connectionId}\u0000${p.watched.projectId}`)
  )
  for (const b of app.budgets) {
    if (
      b.state === 'over' &&
      (b.budget.projectId === null || !mutedProjects.has(`${b.connectionId}\u0000${b.budget.projectId}`))
    )
      overBudget += 1
  }
  // What asks (shared with the window's badge): new failures, budgets crossed since the user
  // looked, account-wide limits crossed in their period.
  const asking = countAttention(app)
  const { newFailed, budgetsCrossed } = asking
  // Which account is in trouble matters only when there are several.
  const erroringConnections =
    app.connections.length > 1 ? app.connections.filter((c) => erroringIds.has(c.id)).map((c) => c.name) : []
  const candidates: TrayState[] = ['idle']
  if (!online) candidates.push('offline')
  if (erroring > 0) candidates.push('error')
  // Only what is new asks: an old failure the user has seen must not pin the icon for good.
  if (attentionTotal(asking) > 0) candidates.push('attention')
  if (running > 0) candidates.push('running')
  return {
    state: highest(candidates),
    projects: app.projects.length,
    running,
    failed,
    overBudget,
    newFailed,
    budgetsCrossed,
    erroring,
    erroringConnections,
    notificationsPaused: app.monitor.notificationsPausedUntil !== null
  }
}

function highest(states: TrayState[]): TrayState {
  for (const s of TRAY_STATE_PRIORITY) if (states.includes(s)) return s
  return 'idle'
}

const APP_NAME = 'Agent Tray'

/** e.g. "Agent Tray — 2 running, 1 failed". */
export function trayTooltip(s: TraySummary): string {
  const parts: string[] = []
  if (s.state === 'offline') parts.push('offline')
  if (s.erroring > 0) {
    const where = s.erroringConnections.length > 0 ? ` (${s.erroringConnections.join(', ')})` : ''
    parts.push(`${s.erroring} ${s.erroring === 1 ? 'project' : 'projects'} unreachable${where}`)
  }
  if (s.running > 0) parts.push(`${s.running} running`)
  if (s.failed > 0) parts.push(`${s.failed} failed`)
  if (s.overBudget > 0) parts.push(`${s.overBudget} over budget`)
  if (parts.length === 0) parts.push(s.projects === 0 ? 'no projects watched' : 'idle')
  const paused = s.notificationsPaused ? ' (notifications paused)' : ''
  return `${APP_NAME} — ${parts.join(', ')}${paused}`
}
