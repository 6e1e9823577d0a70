// `watch` for an account of an agent service: its every task polled on the monitors' schedule (`nextDelay`: the active
// interval while a task is under way, else the idle one; a failed poll backing off), never sooner than the service's
// etiquette asks (`waitMs`), and what changed told once (core/providers/changes.ts): a task that starts waiting for
// you, a task that changes status. Where the account streams a running task (`LiveFeed`), each step is told as it
// comes, and a status the stream says moved cuts the wait short (never the etiquette's, nor a backoff).
import { isServiceError } from '../core/client'
import { nextDelay, type PollOutcome } from '../core/monitor/scheduler'
import type { LiveNews } from '../core/providers/account'
import { type AgentTaskChange, agentTaskChanges, type SeenAgentTasks } from '../core/providers/changes'
import type { AgentAccount } from '../core/providers/registry'
import type { MonitorEvent } from '../shared/monitor'
import { isProviderActive, type ProviderStep, type ProviderTask } from '../shared/provider'
import type { Connection, PollingPrefs } from '../shared/settings'

/** The account's `onLive` relayed to the watch that takes it (the account is opened before its watch starts). */
export interface LiveFeed {
  on: ((news: LiveNews) => void) | null
}

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
  /** Where the account was opened with `onLive`: what its stream tells between polls. */
  live?: LiveFeed
  /** A step a stream told, new or changed since, with its task as last polled (undefined if not listed yet). */
  step?(taskId: string, step: ProviderStep, task: ProviderTask | undefined): void
  signal: AbortSignal
}

type Told = { id: string; status: string | null }[]

/** Polls until `signal`; resolves with the words of a rejected key (which no poll heals), or null when stopped. */
export async function watchAgentAccount(o: AgentWatchOptions): Promise<string | null> {
  let seen: SeenAgentTasks | null = null
  let active = false
  let errors = 0
  let tasks = new Map<string, ProviderTask>()
  /** Per task, the steps told so far in the stream's order. */
  const told = new Map<string, Told>()
  /** The wait under way, cut short by a move; a move while none is under way cuts the next one. */
  let wake: AbortController | null = null
  let moved = false
  if (o.live)
    o.live.on = (news) => {
      if (news.kind === 'steps') return tellSteps(news.taskId, news.steps)
      if (errors > 0) return // Backing off: the stream's news does not bring the next poll forward.
      if (wake) wake.abort()
      else moved = true
    }
  function tellSteps(taskId: string, steps: readonly ProviderStep[]): void {
    const before = told.get(taskId) ?? []
    // The steps so far replace those told: a shorter or different list is another run's, told afresh.
    const same = steps.length >= before.length && before.every((s, i) => steps[i]?.id === s.id)
    const base = same ? before : []
    steps.forEach((step, i) => {
      const was = base[i]
      if (was?.id !== step.id || was.status !== step.serviceStatus) o.step?.(taskId, step, tasks.get(taskId))
    })
    told.set(
      taskId,
      steps.map((s) => ({ id: s.id, status: s.serviceStatus }))
    )
  }
  try {
    while (!o.signal.aborted) {
      let outcome: PollOutcome
      try {
        const polled = await o.account.poll(o.signal)
        if (polled.changed) {
          const { changes, seen: next } = agentTaskChanges(seen, polled.tasks)
          seen = next
          tasks = new Map(polled.tasks.map((t) => [t.id, t]))
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
      if (o.signal.aborted) break
      const etiquette = o.account.waitMs()
      const delay =
        moved && errors === 0 ? etiquette : Math.max(nextDelay(outcome, errors, o.polling, o.random), etiquette)
      moved = false
      // One controller for both a stop and a move (no AbortSignal.any: a signal it makes may be collected unfired).
      const waking = (wake = new AbortController())
      const stop = (): void => waking.abort()
      o.signal.addEventListener('abort', stop, { once: true })
      try {
        await o.sleep(delay, waking.signal)
        // Woken by a move: the service's etiquette still comes first.
        if (waking.signal.aborted && !o.signal.aborted && o.account.waitMs() > 0)
          await o.sleep(o.account.waitMs(), o.signal)
      } catch {
        // Stopped while waiting (the loop ends), or woken by a move.
      } finally {
        o.signal.removeEventListener('abort', stop)
        wake = null
      }
    }
  } finally {
    if (o.live) o.live.on = null
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
