// What the tray icon shows, derived from the app's state. One state at a time, picked by
// priority, so the icon answers "do I need to look?" at a glance.
import { askingAgentTasks, attentionTotal, countAttention } from '../../shared/attention-count'
import type { AppState } from '../../shared/ipc'
import { agentPlace, waitingPhrase } from '../../shared/waiting'

export type TrayState = 'needs-you' | 'idle' | 'running' | 'attention' | 'offline' | 'error'

/** Highest first: a task waiting for an answer goes nowhere until given one (offline or not, it waited when last seen);
 * offline explains errors behind it, an error makes what we know stale, and what needs the user beats a running task,
 * which only needs patience. */
export const TRAY_STATE_PRIORITY: readonly TrayState[] = [
  'needs-you',
  'offline',
  'error',
  'attention',
  'running',
  'idle'
]

/** A task of another service waiting for you, as the tray says it and opens it. */
export interface NeedsYou {
  /** "Jules · Personal: approve the plan for 'Add dark mode'" */
  sentence: string
  connectionId: string
  projectId: string
  taskId: string
}

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
  online: boolean
  /** Tasks of other services waiting for you (muted accounts left out), the longest waiting first. */
  needsYou: NeedsYou[]
  /** Their failures not opened yet: these ask too. */
  agentFailures: number
}

/** A task's title in the tray's line: Windows cuts a tooltip at 127 characters, and the account must still show. */
const MAX_TITLE_IN_LINE = 40

function clip(text: string, max: number): string {
  const points = Array.from(text)
  return points.length > max ? `${points.slice(0, max - 1).join('')}…` : text
}

/** The waiting tasks of unmuted accounts, each said with its service and account. */
export function needsYou(app: Pick<AppState, 'agentTasks' | 'connections' | 'services'>): NeedsYou[] {
  const waiting = askingAgentTasks(app).filter((t) => t.status === 'waiting')
  // Stryker disable next-line StringLiteral: equivalent, a task without a time sorts the same against '' or any string below ISO times
  const since = (t: { updatedAt: string | null }) => t.updatedAt ?? ''
  return waiting
    .sort((a, b) => since(a).localeCompare(since(b)))
    .map((t) => {
      const service = app.services.find((d) => d.kind === t.service)?.displayName ?? t.service
      const account = app.connections.find((c) => c.id === t.connectionId)?.name ?? t.connectionId
      const asked = waitingPhrase(t.waiting?.kind ?? 'question', clip(t.title, MAX_TITLE_IN_LINE))
      return {
        sentence: `${agentPlace(service, account)}: ${asked}`,
        connectionId: t.connectionId,
        projectId: t.project?.id ?? '',
        taskId: t.id
      }
    })
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
  // Another service's tasks run too (waiting ones are said apart).
  for (const t of app.agentTasks) if (t.status === 'running' || t.status === 'queued') running += 1
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
  const waiting = needsYou(app)
  const candidates: TrayState[] = ['idle']
  if (waiting.length > 0) candidates.push('needs-you')
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
    notificationsPaused: app.monitor.notificationsPausedUntil !== null,
    online,
    needsYou: waiting,
    agentFailures: asking.agentFailures
  }
}

function highest(states: TrayState[]): TrayState {
  for (const s of TRAY_STATE_PRIORITY) if (states.includes(s)) return s
  return 'idle'
}

const APP_NAME = 'Agent Tray'

/** What needs you, in a line: the first waiting task, and how many more. */
export function needsYouLine(waiting: readonly NeedsYou[]): string {
  const first = waiting[0]
  if (first === undefined) return ''
  const more = waiting.length - 1
  return more === 0 ? first.sentence : `${first.sentence} (and ${more} more)`
}

/** e.g. "Agent Tray — 2 running, 1 failed"; what needs you first. */
export function trayTooltip(s: TraySummary): string {
  const parts: string[] = []
  if (s.needsYou.length > 0) parts.push(needsYouLine(s.needsYou))
  // Offline under what needs you too: what the tray says may be stale.
  if (!s.online) parts.push('offline')
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
