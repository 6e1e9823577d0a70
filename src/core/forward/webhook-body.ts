// Version 1 of the body the README documents: fields are added, never renamed or removed, within a version. Text is
// control-character safe but still untrusted for a receiver.
import { plain } from './escape'
import type { ForwardEvent } from './event'

export const WEBHOOK_BODY_VERSION = 1

export interface WebhookBody {
  version: 1
  /** The event's identity, also sent as Idempotency-Key: a receiver drops a repeat by it. */
  id: string
  event: ForwardEvent['kind']
  occurred_at: string
  title: string
  text: string
  account: { id: string; name: string }
  project: { id: string; name: string } | null
  task: {
    id: string
    name: string
    status: string
    cost_usd: number | null
    duration_ms: number | null
    /** The task's page on another service; null for a watched project's task. */
    url: string | null
  } | null
  /** Another service's task: its service; null for a watched project's. */
  service: { kind: string; name: string } | null
  /** A task waiting for you: the kind of answer (plan_approval, question, permission) and what is asked. */
  waiting: { kind: string; text: string | null } | null
  budget: {
    id: string
    period: string
    period_key: string
    level: 'near' | 'over'
    spent_usd: number
    budget_usd: number
  } | null
  /** An agent account's budget in its own unit (`budget` is null then): `spent` and `limit` are in `unit`. */
  unit_budget: {
    id: string
    unit: string
    period: string
    period_key: string
    level: 'near' | 'over'
    spent: number
    limit: number
  } | null
  links: { app: string }
}

export function webhookBody(e: ForwardEvent): WebhookBody {
  return {
    version: WEBHOOK_BODY_VERSION,
    id: e.id,
    event: e.kind,
    occurred_at: e.at,
    title: plain(e.title),
    text: plain(e.text),
    account: { id: e.account.id, name: plain(e.account.name) },
    project: e.project && { id: e.project.id, name: plain(e.project.name) },
    task: e.task && {
      id: e.task.id,
      name: plain(e.task.name),
      status: e.task.status,
      cost_usd: e.task.costUsd,
      duration_ms: e.task.durationMs,
      url: e.task.url ?? null
    },
    service: e.service ? { kind: e.service.kind, name: plain(e.service.name) } : null,
    waiting: e.waiting
      ? { kind: e.waiting.kind, text: e.waiting.text === null ? null : plain(e.waiting.text, true) }
      : null,
    budget: e.budget && {
      id: e.budget.id,
      period: e.budget.period,
      period_key: e.budget.periodKey,
      level: e.budget.level,
      spent_usd: e.budget.spentUsd,
      budget_usd: e.budget.budgetUsd
    },
    unit_budget: e.unitBudget
      ? {
          id: e.unitBudget.id,
          unit: plain(e.unitBudget.unit),
          period: e.unitBudget.period,
          period_key: e.unitBudget.periodKey,
          level: e.unitBudget.level,
          spent: e.unitBudget.spent,
          limit: e.unitBudget.limit
        }
      : null,
    links: e.links
  }
}
