// The identity is the idempotency key: the same task ending the same way, the same budget level in the same period, or
// the same question of a task waiting for you, is the same event across restarts.
import { createHash } from 'node:crypto'
import { knownTotalPrice } from '../../shared/cost'
import { deepLinkUrl } from '../../shared/deep-link'
import type { ForwardEventKind } from '../../shared/forward-target'
import type { MonitorEvent } from '../../shared/monitor'
import type { WaitingKind } from '../../shared/provider'
import { isSafeExternalUrl } from '../../shared/url'
import { agentPlace } from '../../shared/waiting'
import {
  budgetNotification,
  notifiableTransition,
  taskSentence,
  unitBudgetNotification,
  unusualCostSentence,
  waitingNotification
} from '../notify/policy'

export interface ForwardEvent {
  /** The idempotency key: a digest of the event's identity (header-safe, the same on every run). */
  id: string
  kind: ForwardEventKind | 'test'
  /** ISO time the app saw it. */
  at: string
  title: string
  /** One sentence, as the desktop notification says it; all of it may be the service's text. */
  text: string
  account: { id: string; name: string }
  project: { id: string; name: string } | null
  task: {
    id: string
    name: string
    status: string
    costUsd: number | null
    durationMs: number | null
    /** The task's page on its service (another service's task); null for a watched project's, or one not safe to send. */
    url?: string | null
  } | null
  /** Another service's task: which service (its kind and name); null for a watched project's. */
  service?: { kind: string; name: string } | null
  /** A task waiting for you: the kind of answer, and what is asked as the service said it (untrusted). */
  waiting?: { kind: WaitingKind; text: string | null } | null
  budget: {
    id: string
    period: string
    periodKey: string
    level: 'near' | 'over'
    spentUsd: number
    budgetUsd: number
  } | null
  /** A per-unit budget of an agent account (its amounts in its unit, never USD); null for every other event. */
  unitBudget?: {
    id: string
    unit: string
    period: string
    periodKey: string
    level: 'near' | 'over'
    spent: number
    limit: number
  } | null
  links: { app: string }
}

export interface EventNames {
  projectName: (connectionId: string, projectId: string) => string
  accountName: (connectionId: string) => string
}

export function eventId(...identity: string[]): string {
  return createHash('sha256').update(identity.join('\u0000')).digest('hex').slice(0, 32)
}

/** The forwardable event a monitor event stands for, or null (steps, prices, starts, health). */
export function toForwardEvent(event: MonitorEvent, names: EventNames, at: number): ForwardEvent | null {
  const account = { id: event.connectionId, name: names.accountName(event.connectionId) }
  const iso = new Date(at).toISOString()
  if (event.kind === 'budget') {
    const project =
      event.projectId === null
        ? null
        : { id: event.projectId, name: names.projectName(event.connectionId, event.projectId) }
    const words = budgetNotification(event, project?.name ?? null)
    return {
      id: eventId(event.connectionId, 'budget', event.budgetId, event.periodKey, event.level),
      kind: 'budget',
      at: iso,
      title: words.title,
      text: words.body,
      account,
      project,
      task: null,
      budget: {
        id: event.budgetId,
        period: event.period,
        periodKey: event.periodKey,
        level: event.level,
        spentUsd: event.spentUsd,
        budgetUsd: event.budgetUsd
      },
      links: { app: deepLinkUrl(event.projectId ?? undefined) }
    }
  }
  if (event.kind === 'unit-budget') {
    const words = unitBudgetNotification(event, account.name)
    return {
      id: eventId(event.connectionId, 'budget', event.budgetId, event.periodKey, event.level),
      kind: 'budget',
      at: iso,
      title: words.title,
      text: words.body,
      account,
      project: null,
      task: null,
      budget: null,
      unitBudget: {
        id: event.budgetId,
        unit: event.unit,
        period: event.period,
        periodKey: event.periodKey,
        level: event.level,
        spent: event.spent,
        limit: event.limit
      },
      links: { app: deepLinkUrl() }
    }
  }
  const project = { id: event.projectId, name: names.projectName(event.connectionId, event.projectId) }
  if (event.kind === 'task-cost-unusual') {
    return {
      id: eventId(event.connectionId, event.projectId, event.taskId, 'unusual'),
      kind: 'unusual',
      at: iso,
      title: 'Costing more than usual',
      text: unusualCostSentence(event, project.name),
      account,
      project,
      task: { id: event.taskId, name: event.taskName, status: 'in_progress', costUsd: event.costUsd, durationMs: null },
      budget: null,
      links: { app: deepLinkUrl(event.projectId, event.taskId) }
    }
  }
  if (event.kind === 'agent-waiting' || event.kind === 'agent-status') return agentEvent(event, names, iso)
  const transition = notifiableTransition(event)
  if (
    transition === null ||
    transition === 'started' ||
    transition === 'waiting' ||
    (event.kind !== 'task-added' && event.kind !== 'task-status')
  )
    return null
  const ran =
    event.createdAt && event.updatedAt ? Date.parse(event.updatedAt) - Date.parse(event.createdAt) : Number.NaN
  return {
    id: eventId(event.connectionId, event.projectId, event.taskId, transition),
    kind: transition,
    at: iso,
    title: `Task ${transition}`,
    text: taskSentence({ ...event, transition }, project.name),
    account,
    project,
    task: {
      id: event.taskId,
      name: event.taskName,
      status: transition,
      costUsd: knownTotalPrice(event.totalPrice),
      durationMs: Number.isFinite(ran) && ran >= 0 ? ran : null
    },
    budget: null,
    links: { app: deepLinkUrl(event.projectId, event.taskId) }
  }
}

/** A link to a task's page as every format can carry it: http(s) only, and any character that is markup in one of
 * them percent-encoded (the same address: only characters URLs allow unencoded stay). */
export function sendableUrl(url: string | null): string | null {
  if (url === null || !isSafeExternalUrl(url)) return null
  return new URL(url).href.replace(
    /[^A-Za-z0-9\-.:/?#@!$&+,;=%]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`
  )
}

/** Another service's task: waiting for you (one event per question asked), or ended as a watched task is told. */
function agentEvent(
  event: Extract<MonitorEvent, { kind: 'agent-waiting' | 'agent-status' }>,
  names: EventNames,
  iso: string
): ForwardEvent | null {
  const accountName = names.accountName(event.connectionId)
  const common = {
    at: iso,
    account: { id: event.connectionId, name: accountName },
    project:
      event.projectId === ''
        ? null
        : { id: event.projectId, name: names.projectName(event.connectionId, event.projectId) },
    service: { kind: event.service, name: event.serviceName },
    budget: null,
    // A link of ours names a watched project's task; another service's opens the app.
    links: { app: deepLinkUrl() }
  }
  const task = (status: string) => ({
    id: event.taskId,
    name: event.taskName,
    status,
    costUsd: null,
    durationMs: null,
    url: sendableUrl(event.url)
  })
  if (event.kind === 'agent-waiting') {
    const words = waitingNotification(event, accountName)
    const { kind, text } = event.waiting
    return {
      ...common,
      id: eventId(event.connectionId, 'agent', event.taskId, 'waiting', kind, text ?? ''),
      kind: 'waiting',
      title: words.title,
      text: words.body,
      task: task('waiting'),
      waiting: { kind, text }
    }
  }
  const transition = notifiableTransition(event)
  if (transition !== 'completed' && transition !== 'failed' && transition !== 'cancelled') return null
  return {
    ...common,
    id: eventId(event.connectionId, 'agent', event.taskId, transition),
    kind: transition,
    title: `Task ${transition}`,
    text: taskSentence({ transition, taskName: event.taskName }, agentPlace(event.serviceName, accountName)),
    task: task(transition),
    waiting: null
  }
}

/** The message `forward test` sends: its own identity each time, so it is never taken as a repeat. */
export function testEvent(at: number, nonce: string): ForwardEvent {
  return {
    id: eventId('test', nonce),
    kind: 'test',
    at: new Date(at).toISOString(),
    title: 'Agent Tray test',
    text: 'This target receives what Agent Tray forwards.',
    account: { id: '', name: '' },
    project: null,
    task: null,
    budget: null,
    links: { app: deepLinkUrl() }
  }
}
