// `watch` for an account of an agent service: its every task polled on the monitors' schedule (`nextDelay`: the active
// interval while a task is under way, else the idle one; a failed poll backing off), never sooner than the service's
// etiquette asks (`waitMs`), and what changed told once (core/providers/changes.ts): a task that starts waiting for
// you, a task that changes status.
import { isServiceError } from '../core/client'
import { nextDelay, type PollOutcome } from '../core/monitor/scheduler'
import { type AgentTaskChange, agentTaskChanges, type SeenAgentTasks } from '../core/providers/changes'
import type { AgentAccount } from '../core/providers/registry'
import type { MonitorEvent } from '../shared/monitor'
import { isProviderActive, type ProviderTask } from '../shared/provider'
import type { Connection, PollingPrefs } from '../shared/settings'

export interface AgentWatchOptions {
  connection: Connection
  account: AgentAccount
  /** The intervals (active while a task is under way, idle otherwise) the schedule starts from. */
  polling: PollingPrefs
  /** The schedule's jitter. */
  random(): number
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  now(): Date
  /** Each change, with the task it is about. */
  tell(event: MonitorEvent, task: ProviderTask): void
  /** A failed poll that will be tried again. */
  retrying(message: string): void
  signal: AbortSignal
}

/** Polls until `signal`; resolves with the words of a rejected key (which no poll heals), or null when stopped. */
export async function watchAgentAccount(o: AgentWatchOptions): Promise<string | null> {
  let seen: SeenAgentTasks | null = null
  let active = false
  let errors = 0
  while (!o.signal.aborted) {
    let outcome: PollOutcome
    try {
      const polled = await o.account.poll(o.signal)
      if (polled.changed) {
        const { changes, seen: next } = agentTaskChanges(seen, polled.tasks)
        seen = next
        active = polled.tasks.some((t) => isProviderActive(t.status))
        const at = o.now().toISOString()
        for (const change of changes) o.tell(agentEvent(o.connection, o.account, change, at), change.task)
      }
      errors = 0
      outcome = { ok: true, active }
    } catch (e) {
      if (o.signal.aborted) break
      if (isServiceError(e) && e.kind === 'auth') return e.message
      o.retrying(e instanceof Error ? e.message : String(e))
      errors++
      const retryAfterMs = isServiceError(e) ? e.retryAfterMs : undefined
      outcome = {
        ok: false,
        kind: isServiceError(e) ? e.kind : 'invalid_response',
        ...(retryAfterMs === undefined ? {} : { retryAfterMs })
      }
    }
    try {
      await o.sleep(Math.max(nextDelay(outcome, errors, o.polling, o.random), o.account.waitMs()), o.signal)
    } catch {
      break // Stopped while waiting.
    }
  }
  return null
}

export function agentEvent(
  connection: Connection,
  account: AgentAccount,
  change: AgentTaskChange,
  at: string
): MonitorEvent {
  const { task } = change
  const base = {
    connectionId: connection.id,
    projectId: task.project?.id ?? '',
    at,
    service: account.descriptor.kind,
    serviceName: account.descriptor.displayName,
    taskId: task.id,
    taskName: task.title,
    url: task.links.page ?? task.waiting?.where ?? null
  }
  return change.kind === 'waiting'
    ? { ...base, kind: 'agent-waiting', waiting: change.waiting }
    : { ...base, kind: 'agent-status', from: change.from, to: task.status, serviceStatus: task.serviceStatus }
}
