// Budget crossings outlast quiet hours and pauses. The monitor counts a crossing as announced as
// soon as it sees it (so it is never announced twice); one seen while notifications are held back
// waits here instead of being lost, the latest per project, and is told once they are not: with
// the next round of changes, or at the app's next check (once a minute while anything waits).
// Only what still holds is told: the project is still watched, not muted, with the same budget.
// In memory: a restart during the quiet period loses what waits (the snapshot says announced).
// The gate (gate.ts) is its one user.
import type { MonitorEvent } from '../../shared/monitor'

export type BudgetEvent = Extract<MonitorEvent, { kind: 'budget' }>

/** What is true of a project now, or undefined when it is no longer watched. */
export type WatchedNow = (event: BudgetEvent) => { budgetUsd: number | null; muted: boolean } | undefined

export class BudgetHold {
  private readonly held = new Map<string, BudgetEvent>()

  get size(): number {
    return this.held.size
  }

  /** Keeps the budget crossings of a round whose notifications are held back (the gate has left out muted projects). */
  hold(events: readonly MonitorEvent[]): void {
    for (const event of events) {
      if (event.kind !== 'budget') continue
      const key = `${event.connectionId}\u0000${event.projectId}`
      this.held.delete(key)
      this.held.set(key, event)
    }
  }

  /** Empties the hold: the crossings still worth telling, oldest first. */
  release(now: WatchedNow): BudgetEvent[] {
    const out: BudgetEvent[] = []
    for (const event of this.held.values()) {
      const watched = now(event)
      if (watched && !watched.muted && watched.budgetUsd === event.budgetUsd) out.push(event)
    }
    this.held.clear()
    return out
  }
}
