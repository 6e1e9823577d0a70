// Which changes the user wants told and how a round is worded. Pure; whether to tell now was the gate's decision.
import { periodTitle } from '../../shared/budgets'
import { knownTotalPrice } from '../../shared/cost'
import { formatMoney, formatRunTime } from '../../shared/format'
import type { MonitorEvent } from '../../shared/monitor'
import type { NotifiableTransition, NotificationPrefs, QuietHours } from '../../shared/settings'
import { minutesOfDay } from '../../shared/time-of-day'

export interface Notification {
  title: string
  body: string
  /** Where a click leads: the task when there is one, else the project, on this connection. */
  connectionId?: string
  projectId?: string
  taskId?: string
  /** Every task a summary (or a "While you were away" of several) tells of, so each is accounted for once. */
  taskIds?: string[]
  kind: 'task' | 'summary' | 'away' | 'budget' | 'cost'
  /** For one task's notification: how it ended (or that it started); the desktop adapts to it (urgency, actions). */
  outcome?: NotifiableTransition
}

export interface NotificationBatch {
  events: readonly MonitorEvent[]
  away: boolean
}

export interface NotificationContext {
  /** A watched project's name, as every surface shows it (projectDisplayName: never empty). */
  projectName: (connectionId: string, projectId: string) => string
}

type BudgetEvent = Extract<MonitorEvent, { kind: 'budget' }>

/** "Budget reached: project 'Shop', daily" and "$10.40 spent on 2026-11-23 of a $10.00 budget." */
export function budgetNotification(event: BudgetEvent, projectName: string | null): Notification {
  const scope = projectName === null ? 'all watched projects' : `project '${projectName}'`
  const period = periodTitle(event.period).toLowerCase()
  const when =
    event.period === 'day' ? `on ${event.periodKey}` : event.period === 'month' ? `in ${event.periodKey}` : 'in total'
  const n: Notification = {
    kind: 'budget',
    connectionId: event.connectionId,
    title: event.level === 'over' ? `Budget reached: ${scope}, ${period}` : `Nearing the ${period} budget of ${scope}`,
    body: `${formatMoney(event.spentUsd)} spent ${when} of a ${formatMoney(event.budgetUsd)} budget.`
  }
  if (event.projectId !== null) n.projectId = event.projectId
  return n
}

interface TaskChange {
  transition: NotifiableTransition
  connectionId: string
  projectId: string
  taskId: string
  taskName: string
  createdAt?: string
  updatedAt?: string
  totalPrice?: number | null
}

/** One change as a sentence; an ended task says how long it ran and what it cost, when the service said. */
export function taskSentence(
  change: Pick<TaskChange, 'transition' | 'taskName' | 'createdAt' | 'updatedAt' | 'totalPrice'>,
  projectName: string
): string {
  const head = `${projectName}: '${change.taskName}'`
  if (change.transition === 'started') return `${head} started`
  // Stryker disable next-line LogicalOperator: equivalent, Date.parse(undefined) is NaN: a missing time gives no run time without this check too
  const ranMs =
    change.createdAt && change.updatedAt ? Date.parse(change.updatedAt) - Date.parse(change.createdAt) : Number.NaN
  const ran = formatRunTime(ranMs)
  const verb =
    change.transition === 'completed' ? 'completed' : change.transition === 'failed' ? 'failed' : 'was cancelled'
  const when = ran === null ? '' : change.transition === 'completed' ? ` in ${ran}` : ` after ${ran}`
  const price = knownTotalPrice(change.totalPrice)
  const cost = price === null ? '' : ` · ${formatMoney(price)}`
  return `${head} ${verb}${when}${cost}`
}

/** "Shop: 'Checkout' has cost $4.20 so far; its completed tasks cost $1.10 (median)." */
export function unusualCostSentence(
  event: Pick<Extract<MonitorEvent, { kind: 'task-cost-unusual' }>, 'taskName' | 'costUsd' | 'usualUsd'>,
  projectName: string
): string {
  return `${projectName}: '${event.taskName}' has cost ${formatMoney(event.costUsd)} so far; its completed tasks cost ${formatMoney(event.usualUsd)} (median).`
}

/** The transition an event stands for, if it is one the user can be told about. */
export function notifiableTransition(event: MonitorEvent): NotifiableTransition | null {
  const to = event.kind === 'task-status' ? event.to : event.kind === 'task-added' ? event.status : null
  if (to === 'completed' || to === 'failed' || to === 'cancelled') return to
  if (to === 'in_progress') {
    // A task that starts; a new task already running counts as started too.
    if (event.kind === 'task-added' || (event.kind === 'task-status' && event.from === 'todo')) return 'started'
  }
  return null
}

/** Whether `now` falls in the quiet hours, [start, end) in local time, wrapping past midnight; the host's zone without an offset. */
export function inQuietHours(quiet: QuietHours, now: Date, tzOffsetMinutes?: number): boolean {
  if (!quiet.enabled) return false
  const start = minutesOfDay(quiet.start)
  const end = minutesOfDay(quiet.end)
  // An unreadable or empty range silences nothing rather than everything.
  if (start === null || end === null || start === end) return false
  const minutes =
    tzOffsetMinutes === undefined
      ? now.getHours() * 60 + now.getMinutes()
      : (((Math.floor(now.getTime() / 60_000) + tzOffsetMinutes) % 1440) + 1440) % 1440
  return start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end
}

// A failure is said first.
const ORDER: NotifiableTransition[] = ['failed', 'completed', 'cancelled', 'started']

export function decideNotifications(
  batch: NotificationBatch,
  prefs: Pick<NotificationPrefs, 'transitions'> & Partial<Pick<NotificationPrefs, 'unusualCost'>>,
  context: NotificationContext
): Notification[] {
  const name = (c: { connectionId: string; projectId: string }): string =>
    context.projectName(c.connectionId, c.projectId)

  // The last notifying change of each task: a round may hold a task's start and its end.
  const byTask = new Map<string, TaskChange>()
  const budgets: Notification[] = []
  for (const event of batch.events) {
    if (event.kind === 'budget') {
      budgets.push(
        budgetNotification(
          event,
          event.projectId === null ? null : name({ connectionId: event.connectionId, projectId: event.projectId })
        )
      )
      continue
    }
    if (event.kind === 'task-cost-unusual') {
      if (prefs.unusualCost !== true) continue
      budgets.push({
        kind: 'cost',
        connectionId: event.connectionId,
        projectId: event.projectId,
        taskId: event.taskId,
        title: 'Costing more than usual',
        body: unusualCostSentence(event, name(event))
      })
      continue
    }
    const transition = notifiableTransition(event)
    if (!transition || !prefs.transitions[transition]) continue
    if (event.kind !== 'task-status' && event.kind !== 'task-added') continue
    const key = `${event.projectId}\u0000${event.taskId}`
    byTask.delete(key)
    const change: TaskChange = {
      transition,
      connectionId: event.connectionId,
      projectId: event.projectId,
      taskId: event.taskId,
      taskName: event.taskName
    }
    if (event.createdAt !== undefined) change.createdAt = event.createdAt
    if (event.updatedAt !== undefined) change.updatedAt = event.updatedAt
    if (event.totalPrice !== undefined) change.totalPrice = event.totalPrice
    byTask.set(key, change)
  }

  const changes = [...byTask.values()]
  const out: Notification[] = []
  if (changes.length === 1) {
    const c = changes[0]!
    // The title says the outcome first; the body says where, how long and how much.
    out.push({
      kind: batch.away ? 'away' : 'task',
      title: batch.away ? `While you were away: task ${c.transition}` : `Task ${c.transition}`,
      body: taskSentence(c, name(c)),
      connectionId: c.connectionId,
      projectId: c.projectId,
      taskId: c.taskId,
      outcome: c.transition
    })
  } else if (changes.length > 1) {
    const counts = ORDER.map((t) => [t, changes.filter((c) => c.transition === t).length] as const).filter(
      ([, n]) => n > 0
    )
    const allEnded = !changes.some((c) => c.transition === 'started')
    const head = `${changes.length} ${allEnded ? 'tasks finished' : 'task updates'}: ${counts.map(([t, n]) => `${n} ${t}`).join(', ')}`
    const projects = [...new Map(changes.map((c) => [`${c.connectionId}\u0000${c.projectId}`, c])).values()]
    const where =
      projects.length === 1
        ? `in project '${name(projects[0]!)}'`
        : `in projects ${projects.map((p) => `'${name(p)}'`).join(', ')}`
    const taskIds = changes.map((c) => c.taskId)
    const summary: Notification = batch.away
      ? { kind: 'away', title: 'While you were away', body: `${head} ${where}`, taskIds }
      : { kind: 'summary', title: head, body: where.charAt(0).toUpperCase() + where.slice(1), taskIds }
    if (projects.length === 1) {
      summary.connectionId = projects[0]!.connectionId
      summary.projectId = projects[0]!.projectId
    }
    out.push(summary)
  }
  return [...out, ...budgets]
}
