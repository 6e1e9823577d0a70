// `watch`'s loop: errors that may pass (network, a busy service, a garbled answer) are retried, until several in a
// row make it give up.
import { isServiceError } from '../core/client'
import { diffProject } from '../core/monitor/diff'
import type { MonitorEvent, ProjectSnapshot } from '../shared/monitor'
import type { Task } from '../shared/service'
import type { CliClient } from './deps'

export interface FollowOptions {
  client: CliClient
  connectionId: string
  projectIds: readonly string[]
  intervalMs: number
  signal?: AbortSignal
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  now(): Date
  onEvent(event: MonitorEvent): void
  /** A poll failed but will be tried again. */
  onRetry(projectId: string, error: Error): void
  /** Checked after every round with each project's latest tasks: true ends the loop. */
  until?(tasks: ReadonlyMap<string, readonly Task[]>): boolean
  /** Consecutive failed rounds before giving up (the last error is thrown). */
  maxFailures?: number
}

/** Kinds that will not go away by asking again. */
const FATAL = new Set(['auth', 'not_found', 'bad_request'])

/** Resolves 'done' when `until` held, 'stopped' when the signal ended it; throws what cannot pass. */
export async function follow(o: FollowOptions): Promise<'done' | 'stopped'> {
  const snapshots = new Map<string, ProjectSnapshot>()
  const latest = new Map<string, readonly Task[]>()
  const maxFailures = o.maxFailures ?? 5
  let failures = 0
  while (!o.signal?.aborted) {
    let failedRound = false
    for (const projectId of o.projectIds) {
      if (o.signal?.aborted) return 'stopped'
      let tasks: Task[]
      try {
        tasks = await o.client.listTasks(projectId, o.signal)
      } catch (e) {
        if (o.signal?.aborted) return 'stopped'
        if (!isServiceError(e) || FATAL.has(e.kind) || failures + 1 >= maxFailures) throw e
        failedRound = true
        o.onRetry(projectId, e)
        continue
      }
      const diff = diffProject(snapshots.get(projectId), tasks, o.now().toISOString(), {
        connectionId: o.connectionId,
        projectId
      })
      snapshots.set(projectId, diff.snapshot)
      latest.set(projectId, tasks)
      for (const event of diff.events) o.onEvent(event)
    }
    failures = failedRound ? failures + 1 : 0
    if (o.until && latest.size === o.projectIds.length && o.until(latest)) return 'done'
    try {
      await o.sleep(o.intervalMs, o.signal)
    } catch {
      // An aborted sleep: the loop condition ends it.
    }
  }
  return 'stopped'
}
