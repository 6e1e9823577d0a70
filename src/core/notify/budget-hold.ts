// Budget crossings outlast quiet hours and pauses. The budget tracker counts a crossing as told as
// soon as it sees it (so it is never told twice); one seen while notifications are held back
// waits here instead of being lost, the latest per budget and period, and is told once they are
// not: with the next round of changes, or at the gate's next check (once a minute while anything
// waits). What waits is saved with every change (state.json) and read back at start, so a restart
// during quiet hours loses nothing. Only what still holds is told: the budget still exists with
// the same limit, and its project (or account) is watched and not muted.
// The gate (gate.ts) is its one user.
import type { MonitorEvent } from '../../shared/monitor'

export type BudgetEvent = Extract<MonitorEvent, { kind: 'budget' }>

/** What is true of a budget now, or undefined when it no longer exists (or its project is not watched). */
export type BudgetNow = (event: BudgetEvent) => { limitUsd: number; muted: boolean } | undefined

function keyOf(event: BudgetEvent): string {
  return `${event.connectionId}\u0000${event.budgetId}\u0000${event.periodKey}`
}

export class BudgetHold {
  private readonly held = new Map<string, BudgetEvent>()

  /** `saved`: what waited when the app last ran; `save` is called with what waits after every change. */
  constructor(saved: readonly BudgetEvent[] = [], private readonly save: (events: BudgetEvent[]) => void = () => {}) {
    for (const event of saved) this.held.set(keyOf(event), event)
  }

  get size(): number {
    return this.held.size
  }

  /** Keeps the budget crossings of a round whose notifications are held back (the gate has left out muted projects). */
  hold(events: readonly MonitorEvent[]): void {
    let changed = false
    for (const event of events) {
      if (event.kind !== 'budget') continue
      const key = keyOf(event)
      this.held.delete(key)
      this.held.set(key, event)
      changed = true
    }
    if (changed) this.save([...this.held.values()])
  }

  /** Empties the hold: the crossings still worth telling, oldest first. */
  release(now: BudgetNow): BudgetEvent[] {
    const out: BudgetEvent[] = []
    for (const event of this.held.values()) {
      const budget = now(event)
      if (budget && !budget.muted && budget.limitUsd === event.budgetUsd) out.push(event)
    }
    const had = this.held.size > 0
    this.held.clear()
    if (had) this.save([])
    return out
  }
}
