// The tray's context menu as plain data. The Electron adapter turns it into a Menu and maps each
// item's action to a call; rebuilding is skipped when the model key has not changed.
import { escapeUnsafeCharacters } from '../../shared/controls'
import type { AppState } from '../../shared/ipc'
import { compareTaskStatus } from '../../shared/status'
import { describeUpdate } from '../../shared/update'
import { projectDisplayName } from '../../shared/watched-project'
import type { TraySummary } from './state'
import { isOverBudget } from './state'
import type { TrayTask } from './tasks'

export type TrayAction =
  | { type: 'open-window' }
  | { type: 'open-task'; projectId: string; taskId: string; connectionId?: string }
  | { type: 'poll-now' }
  | { type: 'pause-notifications'; minutes: number }
  | { type: 'resume-notifications' }
  | { type: 'preferences' }
  | { type: 'install-update' }
  | { type: 'open-logs' }
  | { type: 'quit' }

export type TrayMenuItem =
  | { kind: 'action'; label: string; action: TrayAction; enabled: boolean }
  | { kind: 'label'; label: string }
  | { kind: 'submenu'; label: string; items: TrayMenuItem[] }
  | { kind: 'separator' }

/** Past this, a project's submenu says how many more there are instead of listing them. */
export const MAX_TASKS_PER_KIND = 8
export const PAUSE_MINUTES = 60

export interface TrayMenuInput {
  app: AppState
  summary: TraySummary
  online: boolean
  /** The tasks the tray knows of, per connection and watched project. */
  tasksOf: (connectionId: string, projectId: string) => TrayTask[]
}

export function buildTrayMenu(input: TrayMenuInput): TrayMenuItem[] {
  const { app, summary } = input
  const items: TrayMenuItem[] = [{ kind: 'label', label: statusLine(summary) }, { kind: 'separator' }]
  // What needs you first, each opening its task; the rest of the menu is what can wait.
  if (summary.needsYou.length > 0) {
    for (const w of summary.needsYou.slice(0, MAX_TASKS_PER_KIND)) {
      items.push({
        kind: 'action',
        label: menuText(w.sentence),
        action: { type: 'open-task', projectId: w.projectId, taskId: w.taskId, connectionId: w.connectionId },
        enabled: true
      })
    }
    const more = summary.needsYou.length - MAX_TASKS_PER_KIND
    if (more > 0) items.push({ kind: 'label', label: `${more} more…` })
    items.push({ kind: 'separator' })
  }

  if (app.projects.length === 0) {
    items.push({ kind: 'label', label: 'No projects watched' })
  }
  // With several accounts, each one's projects under its name.
  const named = app.connections.length > 1
  for (const connection of app.connections) {
    const projects = app.projects.filter((p) => p.connectionId === connection.id)
    if (named && projects.length > 0) items.push({ kind: 'label', label: menuText(connection.name) })
    for (const p of projects) {
      items.push({
        kind: 'submenu',
        label: projectLabel(
          projectDisplayName(p.watched, p.project),
          p.counts,
          p.health.state === 'error',
          isOverBudget(app, p.connectionId, p.watched.projectId)
        ),
        items: projectItems(
          p.connectionId,
          p.watched.projectId,
          p.counts,
          input.tasksOf(p.connectionId, p.watched.projectId)
        )
      })
    }
  }

  items.push(
    { kind: 'separator' },
    { kind: 'action', label: 'Open Window', action: { type: 'open-window' }, enabled: true },
    {
      kind: 'action',
      label: 'Refresh',
      action: { type: 'poll-now' },
      enabled: input.online && app.activeConnectionId !== null && app.projects.length > 0
    },
    app.monitor.notificationsPausedUntil !== null
      ? { kind: 'action', label: 'Resume Notifications', action: { type: 'resume-notifications' }, enabled: true }
      : {
          kind: 'action',
          label: 'Pause Notifications for an Hour',
          action: { type: 'pause-notifications', minutes: PAUSE_MINUTES },
          enabled: true
        },
    { kind: 'separator' },
    ...updateItems(app.update),
    { kind: 'action', label: 'Preferences…', action: { type: 'preferences' }, enabled: true },
    { kind: 'action', label: 'Open Logs', action: { type: 'open-logs' }, enabled: true },
    { kind: 'action', label: 'Quit Agent Tray', action: { type: 'quit' }, enabled: true }
  )
  return items
}

/** 'Restart to Update' once a version is downloaded; while one downloads, its progress. */
function updateItems(update: AppState['update']): TrayMenuItem[] {
  if (update.phase === 'ready') {
    return [
      {
        kind: 'action',
        label: `Restart to Update (${menuText(update.version)})`,
        action: { type: 'install-update' },
        enabled: true
      },
      { kind: 'separator' }
    ]
  }
  if (update.phase === 'available' || update.phase === 'downloading') {
    // Whole percents only: the menu is rebuilt when its text changes.
    return [{ kind: 'label', label: menuText(describeUpdate(update)) }, { kind: 'separator' }]
  }
  return []
}

function statusLine(s: TraySummary): string {
  switch (s.state) {
    case 'needs-you':
      // Each is said in full by its own item below.
      return s.needsYou.length === 1 ? '1 task needs you' : `${s.needsYou.length} tasks need you`
    case 'offline':
      return 'Offline: polling paused'
    case 'error': {
      const what = s.erroring === 1 ? '1 project cannot be reached' : `${s.erroring} projects cannot be reached`
      return s.erroringConnections.length > 0 ? `${s.erroringConnections.join(', ')}: ${what}` : what
    }
    case 'attention':
      return [
        s.newFailed + s.agentFailures > 0 ? `${s.newFailed + s.agentFailures} newly failed` : '',
        s.budgetsCrossed > 0 ? `${s.budgetsCrossed} ${s.budgetsCrossed === 1 ? 'budget' : 'budgets'} crossed` : ''
      ]
        .filter(Boolean)
        .join(', ')
    case 'running':
      return `${s.running} running`
    case 'idle':
      return s.projects === 0 ? 'Nothing to watch yet' : 'All quiet'
  }
}

function projectLabel(
  name: string,
  counts: { running: number; failed: number },
  erroring: boolean,
  overBudget: boolean
): string {
  const marks: string[] = []
  if (counts.running > 0) marks.push(`${counts.running} running`)
  if (counts.failed > 0) marks.push(`${counts.failed} failed`)
  if (overBudget) marks.push('over budget')
  if (erroring) marks.push('unreachable')
  // Menu labels treat '&' as a mnemonic marker on Windows and Linux; double it to show it.
  const safe = menuText(name)
  return marks.length > 0 ? `${safe} (${marks.join(', ')})` : safe
}

function projectItems(
  connectionId: string,
  projectId: string,
  counts: { running: number; failed: number },
  tasks: TrayTask[]
): TrayMenuItem[] {
  const sorted = [...tasks].sort((a, b) => compareTaskStatus(a.status, b.status) || a.name.localeCompare(b.name))
  const running = sorted.filter((t) => t.status === 'in_progress' || t.status === 'todo')
  const failed = sorted.filter((t) => t.status === 'failed')
  const items: TrayMenuItem[] = []
  const section = (title: string, list: TrayTask[], known: number): void => {
    // Counts come from the monitor's last poll; the task list only from its events, so trust the larger.
    const total = Math.max(list.length, known)
    if (total === 0) return
    items.push({ kind: 'label', label: `${title} (${total})` })
    for (const t of list.slice(0, MAX_TASKS_PER_KIND)) {
      items.push({
        kind: 'action',
        label: menuText(t.name || t.taskId),
        action: { type: 'open-task', projectId, taskId: t.taskId, connectionId },
        enabled: true
      })
    }
    const shown = Math.min(list.length, MAX_TASKS_PER_KIND)
    if (total > shown) items.push({ kind: 'label', label: `${total - shown} more…` })
  }
  section('Running', running, counts.running)
  section('Failed', failed, counts.failed)
  if (items.length === 0) items.push({ kind: 'label', label: 'Nothing running or failed' })
  items.push(
    { kind: 'separator' },
    { kind: 'action', label: 'Open Window', action: { type: 'open-window' }, enabled: true }
  )
  return items
}

/** Menu labels: one line, bounded length, '&' shown literally, controls and bidi overrides written out. */
export function menuText(text: string): string {
  const line = escapeUnsafeCharacters(text.replace(/\s+/g, ' ').trim())
  const short = line.length > 60 ? `${line.slice(0, 59)}…` : line
  return short.replace(/&/g, '&&')
}

/** A key that changes exactly when the menu would. */
export function trayMenuKey(items: TrayMenuItem[]): string {
  return JSON.stringify(items)
}

/** Calls `build` only when the model differs from the last one built. */
export function createMenuMemo<T>(
  build: (items: TrayMenuItem[]) => T
): (items: TrayMenuItem[]) => { value: T; rebuilt: boolean } {
  let lastKey: string | null = null
  let last: T | undefined
  return (items) => {
    const key = trayMenuKey(items)
    if (key === lastKey && last !== undefined) return { value: last, rebuilt: false }
    last = build(items)
    lastKey = key
    return { value: last, rebuilt: true }
  }
}
