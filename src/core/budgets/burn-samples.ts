// Task prices as the monitor saw them over time: the pace where no usage records are known. Bounded to a few samples
// per running task, as far back as the burn window needs.
import { BURN_WINDOW_MS, type PriceSample } from './pace'

/** A 5 s poll over the whole window would be 180 samples; what the rate needs is its ends. */
export const MAX_SAMPLES_PER_TASK = 32

export class BurnSamples {
  private readonly byTask = new Map<string, PriceSample[]>()

  /** Records the price of a running task; an ended task is forgotten. */
  observe(taskId: string, priceUsd: number | null, running: boolean, atMs: number): void {
    if (!running || priceUsd === null || !Number.isFinite(priceUsd)) {
      if (!running) this.byTask.delete(taskId)
      return
    }
    const ring = this.byTask.get(taskId) ?? []
    // Unchanged since the last two sights: only the time of the latest moves on (keeps the ring
    // for real changes).
    if (ring.at(-1)?.priceUsd === priceUsd && ring.at(-2)?.priceUsd === priceUsd) ring.pop()
    ring.push({ atMs, priceUsd })
    // Keep one sample at or before the window's start as the baseline, drop what is older.
    while (ring.length > 1 && (ring[1] as PriceSample).atMs <= atMs - BURN_WINDOW_MS) ring.shift()
    // Full: the oldest goes, so the baseline is always a price really seen at its time (the rate
    // then covers a little less than the window, never a stale price).
    while (ring.length > MAX_SAMPLES_PER_TASK) ring.shift()
    this.byTask.set(taskId, ring)
  }

  samples(taskId: string): readonly PriceSample[] {
    return this.byTask.get(taskId) ?? []
  }

  get size(): number {
    return this.byTask.size
  }
}
