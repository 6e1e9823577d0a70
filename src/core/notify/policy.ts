// Which changes the user wants told and how a round is worded. Pure; whether to tell now was the gate's decision.
import { periodTitle } from '../../shared/budgets'
import { knownTotalPrice } from '../../shared/cost'
import { formatAmount, formatMoney, formatRunTime } from '../../shared/format'
import type { MonitorEvent } from '../../shared/monitor'
import type { NotifiableTransition, NotificationPrefs, QuietHours } from '../../shared/settings'
import { minutesOfDay } from '../../shared/time-of-day'
import { agentPlace, askedLine, needsYouTitle } from '../../shared/waiting'

export interface Notification {
  title: string
  body: string
  /** Where a click leads: the task when there is one, else the project, on this connection. */
  connectionId?: string
  projectId?: string
  taskId?: string
  /** Every task a summary (or a "While you were away" of several) tells of, so each is accounted for once. */
  taskIds?: string[]
  kind: 'task' | 'summary' | 'away' | 'budget' | 'cost' | 'waiting'
  /** For one task's notification: how it ended (or that it started, or waits for you); the desktop adapts to it. */
  outcome?: NotifiableTransition
  /** A task of another service (its kind): the notification names its account itself. */
  service?: string
}

export interface NotificationBatch {
  events: readonly MonitorEvent[]
  away: boolean
}

export interface NotificationContext {
  /** A watched project's name, as every surface shows it (projectDisplayName: never empty). */
  projectName: (connectionId: string, projectId: string) => string
  /** An account's name, said by a notification about another service's task (its id without it). */
  accountName?: (connectionId: string) => string
}

type AgentWaiting = Extract<MonitorEvent, { kind: 'agent-waiting' }>
type AgentStatus = Extract<MonitorEvent, { kind: 'agent-status' }>

/** Past this many tasks waiting in one round, one notification says how many and where. */
export const MAX_WAITING_APART = 3

/** "Jules needs you: approve the plan for 'Add dark mode'", then the account and what is asked. */
export function waitingNotification(event: AgentWaiting, accountName: string): Notification {
  const asked = askedLine(event.waiting.text)
  return {
    kind: 'waiting',
    title: needsYouTitle(event.serviceName, event.waiting.kind, event.taskName),
    body: `${accountName}: ${asked ?? 'open the task to see what is asked.'}`,
    connectionId: event.connectionId,
    projectId: event.projectId,
    taskId: event.taskId,
    outcome: 'waiting',
    service: event.service
  }
}

type BudgetEvent = Extract<MonitorEvent, { kind: 'budget' }>

/** "on 2026-11-23", "in 2026-11", "in total". */
function periodWhen(event: Pick<BudgetEvent, 'period' | 'periodKey'>): string {
  return event.period === 'day'
    ? `on ${event.periodKey}`
    : event.period === 'month'
      ? `in ${event.periodKey}`
      : 'in total'
}

/** "Budget reached: project 'Shop', daily" and "$10.40 spent on 2026-11-23 of a $10.00 budget." */
export function budgetNotification(event: BudgetEvent, projectName: string | null): Notification {
  const scope = projectName === null ? 'all watched projects' : `project '${projectName}'`
  const period = periodTitle(event.period).toLowerCase()
  const when = periodWhen(event)
  const n: Notification = {
    kind: 'budget',
    connectionId: event.connectionId,
    title: event.level === 'over' ? `Budget reached: ${scope}, ${period}` : `Nearing the ${period} budget of ${scope}`,
    body: `${formatMoney(event.spentUsd)} spent ${when} of a ${formatMoney(event.budgetUsd)} budget.`
  }
  if (event.projectId !== null) n.projectId = event.projectId
  return n
}

type UnitBudgetEvent = Extract<MonitorEvent, { kind: 'unit-budget' }>

/** "Nearing the monthly ACU budget of Devin · Work" and "85 ACU spent in 2026-11 of a 100 ACU budget." */
export function unitBudgetNotification(event: UnitBudgetEvent, accountName: string): Notification {
  const period = periodTitle(event.period).toLowerCase()
  const when = periodWhen(event)
  const scope = `the ${period} ${event.unit} budget of ${accountName}`
  return {
    kind: 'budget',
    connectionId: event.connectionId,
    title: event.level === 'over' ? `Budget reached: ${scope}` : `Nearing ${scope}`,
    body: `${formatAmount(event.spent, event.unit)} spent ${when} of a ${formatAmount(event.limit, event.unit)} budget.`
  }
}

interface TaskChange {
  transition: Exclude<NotifiableTransition, 'waiting'>
  /** Where the task is, as a sentence names it: a watched project, or a service and account ("Jules · Personal"). */
  place: { key: string; name: string; agent: boolean }
  service?: string
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
  if (event.kind === 'agent-waiting') return 'waiting'
  if (event.kind === 'agent-status') return agentTransition(event)
  const to = event.kind === 'task-status' ? event.to : event.kind === 'task-added' ? event.status : null
  if (to === 'completed' || to === 'failed' || to === 'cancelled') return to
  if (to === 'in_progress') {
    // A task that starts; a new task already running counts as started too.
    if (event.kind === 'task-added' || (event.kind === 'task-status' && event.from === 'todo')) return 'started'
  }
  return null
}

/** An agent task's status change as Workser's are told: ended, or started (queued before, or new and running). A task
 * that starts waiting is told by its agent-waiting event; one answered and running again is not news. */
function agentTransition(event: AgentStatus): Exclude<NotifiableTransition, 'waiting'> | null {
  if (event.to === 'completed' || event.to === 'failed' || event.to === 'cancelled') return event.to
  if (event.to === 'running' && (event.from === null || event.from === 'queued')) return 'started'
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
const ORDER: TaskChange['transition'][] = ['failed', 'completed', 'cancelled', 'started']

export function decideNotifications(
  batch: NotificationBatch,
  prefs: Pick<NotificationPrefs, 'transitions'> & Partial<Pick<NotificationPrefs, 'unusualCost'>>,
  context: NotificationContext
): Notification[] {
  const name = (c: { connectionId: string; projectId: string }): string =>
    context.projectName(c.connectionId, c.projectId)
  const account = (connectionId: string): string => context.accountName?.(connectionId) ?? connectionId

  // The last notifying change of each task: a round may hold a task's start and its end.
  const byTask = new Map<string, TaskChange>()
  const budgets: Notification[] = []
  const waiting = new Map<string, AgentWaiting>()
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
    if (event.kind === 'unit-budget') {
      budgets.push(unitBudgetNotification(event, account(event.connectionId)))
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
    // Its own toggle only: whichever endings the user asked for, a task that waits for them is said.
    if (event.kind === 'agent-waiting') {
      // Stryker disable next-line ConditionalExpression: equivalent, settings files read before the toggle existed get it on (schema default)
      if (prefs.transitions.waiting === false) continue
      waiting.set(`${event.connectionId}\u0000${event.taskId}`, event)
      continue
    }
    const transition = notifiableTransition(event)
    if (!transition || transition === 'waiting' || !prefs.transitions[transition]) continue
    if (event.kind === 'agent-status') {
      const key = `${event.connectionId}\u0000${event.taskId}`
      byTask.delete(key)
      byTask.set(key, {
        transition,
        place: {
          key: `agent\u0000${event.connectionId}`,
          name: agentPlace(event.serviceName, account(event.connectionId)),
          agent: true
        },
        service: event.service,
        connectionId: event.connectionId,
        projectId: event.projectId,
        taskId: event.taskId,
        taskName: event.taskName
      })
      continue
    }
    if (event.kind !== 'task-status' && event.kind !== 'task-added') continue
    const key = `${event.projectId}\u0000${event.taskId}`
    byTask.delete(key)
    const change: TaskChange = {
      transition,
      place: { key: `${event.connectionId}\u0000${event.projectId}`, name: name(event), agent: false },
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
  const out: Notification[] = waitingNotifications([...waiting.values()], account)
  if (changes.length === 1) {
    const c = changes[0]!
    // The title says the outcome first; the body says where, how long and how much.
    const one: Notification = {
      kind: batch.away ? 'away' : 'task',
      title: batch.away ? `While you were away: task ${c.transition}` : `Task ${c.transition}`,
      body: taskSentence(c, c.place.name),
      connectionId: c.connectionId,
      projectId: c.projectId,
      taskId: c.taskId,
      outcome: c.transition
    }
    if (c.service !== undefined) one.service = c.service
    out.push(one)
  } else if (changes.length > 1) {
    const counts = ORDER.map((t) => [t, changes.filter((c) => c.transition === t).length] as const).filter(
      ([, n]) => n > 0
    )
    const allEnded = !changes.some((c) => c.transition === 'started')
    const head = `${changes.length} ${allEnded ? 'tasks finished' : 'task updates'}: ${counts.map(([t, n]) => `${n} ${t}`).join(', ')}`
    const places = [...new Map(changes.map((c) => [c.place.key, c])).values()]
    const where = placesPhrase(places)
    const taskIds = changes.map((c) => c.taskId)
    const summary: Notification = batch.away
      ? { kind: 'away', title: 'While you were away', body: `${head} ${where}`, taskIds }
      : { kind: 'summary', title: head, body: where.charAt(0).toUpperCase() + where.slice(1), taskIds }
    if (places.length === 1) {
      summary.connectionId = places[0]!.connectionId
      // A service's account has no project to open: a click opens the window.
      if (!places[0]!.place.agent) summary.projectId = places[0]!.projectId
      else summary.service = places[0]!.service!
    }
    out.push(summary)
  }
  return [...out, ...budgets]
}

/** "in project 'Shop'", "in projects 'Shop', 'Blog'", "on Jules · Personal", or the two mixed. */
function placesPhrase(places: readonly TaskChange[]): string {
  const projects = places.filter((p) => !p.place.agent).map((p) => `'${p.place.name}'`)
  const accounts = places.filter((p) => p.place.agent).map((p) => p.place.name)
  const inProjects =
    projects.length === 0 ? '' : `in ${projects.length === 1 ? 'project' : 'projects'} ${projects.join(', ')}`
  const onAccounts = accounts.length === 0 ? '' : `on ${accounts.join(', ')}`
  return [inProjects, onAccounts].filter(Boolean).join(', ')
}

/** Each task that waits, apart; past MAX_WAITING_APART, one notification for them all (a click opens the window). */
function waitingNotifications(events: readonly AgentWaiting[], account: (id: string) => string): Notification[] {
  if (events.length <= MAX_WAITING_APART) return events.map((e) => waitingNotification(e, account(e.connectionId)))
  const places = [...new Set(events.map((e) => agentPlace(e.serviceName, account(e.connectionId))))]
  const summary: Notification = {
    kind: 'waiting',
    title: `${events.length} tasks need you`,
    body: `On ${places.join(', ')}`,
    taskIds: events.map((e) => e.taskId),
    outcome: 'waiting'
  }
  const connections = new Set(events.map((e) => e.connectionId))
  if (connections.size === 1) {
    summary.connectionId = events[0]!.connectionId
    summary.service = events[0]!.service
  }
  return [summary]
}
