// What a straightforward client does: on every interval, GET every watched project's tasks and
// (unless `details` is false) GET steps-and-usages for every one of those tasks, then compare
// statuses with the last round. With `details: false` it is the list-only poller that Gitify-like
// apps are: every project's list every interval, nothing more. Neither sends If-None-Match.
// It keeps only what it needs to raise the same notifications as the monitor (task statuses).
import type { ServiceClient } from '../src/core/client/index'
import type { MonitorEvent } from '../src/shared/monitor'
import type { Task } from '../src/shared/service'

export interface NaivePollerOptions {
  client: Pick<ServiceClient, 'listTasks' | 'getStepsAndUsages'>
  connectionId: string
  projectIds: readonly string[]
  /** Requests in flight at once. */
  concurrency: number
  /** Default true: each task's steps and usages too, every round. */
  details?: boolean
}

/** Runs `jobs` with at most `limit` in flight. */
async function inPool<T>(items: readonly T[], limit: number, job: (item: T) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) await job(items[next++] as T)
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
}

export class NaivePoller {
  private readonly statuses = new Map<string, Map<string, Task['status']>>()

  constructor(private readonly options: NaivePollerOptions) {}

  /** One interval: every project, every task's details. Returns the task changes seen (none on the first round). */
  async pollAll(at: string): Promise<MonitorEvent[]> {
    const { client, projectIds, concurrency, connectionId } = this.options
    const lists = new Map<string, Task[]>()
    await inPool(projectIds, concurrency, async (projectId) => {
      lists.set(projectId, await client.listTasks(projectId))
    })
    const taskIds =
      this.options.details === false ? [] : projectIds.flatMap((p) => (lists.get(p) ?? []).map((t) => t.id))
    await inPool(taskIds, concurrency, async (taskId) => {
      await client.getStepsAndUsages(taskId)
    })

    const events: MonitorEvent[] = []
    for (const projectId of projectIds) {
      const before = this.statuses.get(projectId)
      const now = new Map<string, Task['status']>()
      for (const task of lists.get(projectId) ?? []) {
        now.set(task.id, task.status)
        if (!before) continue
        const was = before.get(task.id)
        const base = { connectionId, projectId, at, taskId: task.id, taskName: task.name }
        if (was === undefined) events.push({ ...base, kind: 'task-added', status: task.status })
        else if (was !== task.status) events.push({ ...base, kind: 'task-status', from: was, to: task.status })
      }
      this.statuses.set(projectId, now)
    }
    return events
  }
}
