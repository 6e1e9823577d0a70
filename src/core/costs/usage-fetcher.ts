// Fetches politely: a few at a time inside the shared polling limit (polls never starve), never twice at once for a
// task, never again for current records, and not again this run for a task that failed unchanged.
import type { CostUsage } from '../../shared/cost'
import { createLimiter } from '../util/limiter'
import type { UsageStore, UsageTask } from './usage-store'

/** Background fetches queued on the shared limit at once: polls keep their turn between them. */
export const BACKGROUND_FETCHES = 2

export interface FetchProgress {
  /** Tasks whose records were missing when asked. */
  total: number
  done: number
  failed: number
}

export interface UsageFetcherOptions {
  store: UsageStore
  /** GET /tasks/{id}/steps-and-usages on a connection (through the shared limit). */
  fetch(connectionId: string, taskId: string): Promise<{ usages: readonly CostUsage[] }>
  concurrency?: number
}

export interface UsageFetcher {
  /** The tasks whose records are not current: fetched (or joined, when already under way). Never throws. */
  ensure(
    connectionId: string,
    tasks: readonly UsageTask[],
    onProgress?: (progress: FetchProgress) => void
  ): Promise<FetchProgress>
  /** Whether `ensure` would fetch this task now. */
  wants(connectionId: string, task: UsageTask): boolean
}

export function createUsageFetcher(options: UsageFetcherOptions): UsageFetcher {
  const limiter = createLimiter(options.concurrency ?? BACKGROUND_FETCHES)
  const inFlight = new Map<string, Promise<boolean>>()
  /** key → the task's updated_at when its fetch failed: not retried until the task changes. */
  const failedAt = new Map<string, string>()
  const key = (connectionId: string, taskId: string): string => `${connectionId}\u0000${taskId}`

  // A task under way is wanted while its records are not current (ensure then joins its fetch); once
  // they are (the monitor's details came first), a report need not wait for it.
  function wants(connectionId: string, task: UsageTask): boolean {
    if (options.store.isCurrent(connectionId, task)) return false
    return failedAt.get(key(connectionId, task.id)) !== task.updated_at
  }

  function fetchOne(connectionId: string, task: UsageTask): Promise<boolean> {
    const k = key(connectionId, task.id)
    const running = inFlight.get(k)
    if (running) return running
    const promise = limiter
      .run(async () => {
        // Another caller may have brought it meanwhile (the monitor's details).
        if (options.store.isCurrent(connectionId, task)) return true
        const { usages } = await options.fetch(connectionId, task.id)
        // Fetched after `task` was listed: at least as new as it.
        options.store.put(connectionId, task, usages)
        failedAt.delete(k)
        return true
      })
      .catch(() => {
        failedAt.set(k, task.updated_at)
        return false
      })
      .finally(() => inFlight.delete(k))
    inFlight.set(k, promise)
    return promise
  }

  return {
    async ensure(connectionId, tasks, onProgress) {
      const missing = tasks.filter((t) => wants(connectionId, t))
      const progress: FetchProgress = { total: missing.length, done: 0, failed: 0 }
      onProgress?.({ ...progress })
      await Promise.all(
        missing.map(async (task) => {
          const ok = await fetchOne(connectionId, task)
          progress.done++
          if (!ok) progress.failed++
          onProgress?.({ ...progress })
        })
      )
      return progress
    },
    wants
  }
}
