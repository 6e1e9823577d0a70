// The steps and usages of the tasks lately fetched: a small LRU, one request per task at a time,
// and the usage records the cost model reads from them.
import type { UsagesByTask } from '../../shared/cost'
import type { StepsAndUsages } from '../../shared/service'
import { LruMap } from '../util/lru'
import type { TaskSource } from './types'

export class TaskDetails {
  private readonly cache: LruMap<string, StepsAndUsages>
  private readonly inFlight = new Map<string, Promise<StepsAndUsages>>()

  constructor(
    private readonly source: TaskSource,
    size: number,
    /** Told of every fresh fetch. */
    private readonly fetched: (taskId: string, details: StepsAndUsages) => void
  ) {
    this.cache = new LruMap(size)
  }

  /** Cached, without fetching or touching the LRU order. */
  peek(taskId: string): StepsAndUsages | undefined {
    return this.cache.peek(taskId)
  }

  /** Cached (as recently used), or fetched; always fetched with `refresh`. */
  get(taskId: string, refresh: boolean, signal?: AbortSignal): Promise<StepsAndUsages> {
    if (!refresh) {
      const cached = this.cache.get(taskId)
      if (cached) return Promise.resolve(cached)
    }
    return this.fetch(taskId, signal)
  }

  /** Fetched now, or joined to the fetch already under way. */
  fetch(taskId: string, signal?: AbortSignal): Promise<StepsAndUsages> {
    const running = this.inFlight.get(taskId)
    if (running) return running
    const promise = this.source
      .getStepsAndUsages(taskId, signal)
      .then((details) => {
        this.cache.set(taskId, details)
        this.fetched(taskId, details)
        return details
      })
      .finally(() => this.inFlight.delete(taskId))
    this.inFlight.set(taskId, promise)
    return promise
  }

  /** Usage records of the tasks whose details are cached, for the cost model. */
  usagesByTask(): UsagesByTask {
    const out: Record<string, StepsAndUsages['usages']> = {}
    for (const [taskId, d] of this.cache.entries()) out[taskId] = d.usages
    return out
  }
}
