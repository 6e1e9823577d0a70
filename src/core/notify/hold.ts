// The tracker counts a crossing told when seen, so one seen while notifications are held waits here rather than lost,
// latest per budget and period or task; saved in state.json so a restart in quiet hours loses nothing. A task waiting
// for you is told once per question too, so it waits here the same way.
import type { MonitorEvent } from '../../shared/monitor'
import type { HeldEvent } from '../settings/state-document'

export type { HeldEvent }

/** At most this many wait (oldest dropped first): far more than budgets × periods and costly tasks at once. */
export const MAX_HELD = 500

/** What to do with a held event now: tell it (as given: its figures may be newer), drop it, or keep it waiting. */
export type HeldVerdict = HeldEvent | null | 'wait'

function isHeld(event: MonitorEvent): event is HeldEvent {
  return (
    event.kind === 'budget' ||
    event.kind === 'unit-budget' ||
    event.kind === 'task-cost-unusual' ||
    event.kind === 'agent-waiting'
  )
}

function keyOf(event: HeldEvent): string {
  if (event.kind === 'budget' || event.kind === 'unit-budget')
    return `budget\u0000${event.connectionId}\u0000${event.budgetId}\u0000${event.periodKey}`
  if (event.kind === 'agent-waiting') return `waiting\u0000${event.connectionId}\u0000${event.taskId}`
  return `task\u0000${event.connectionId}\u0000${event.taskId}`
}

export class Hold {
  private readonly held = new Map<string, HeldEvent>()

  /** `saved`: what waited when the app last ran; `save` is called with what waits after every change. */
  constructor(
    saved: readonly HeldEvent[] = [],
    private readonly save: (events: HeldEvent[]) => void = () => {}
  ) {
    for (const event of saved) this.keep(event)
  }

  get size(): number {
    return this.held.size
  }

  /** Keeps what outlasts a round whose notifications are held back (the gate has left out muted projects). */
  hold(events: readonly MonitorEvent[]): void {
    let changed = false
    for (const event of events) {
      if (!isHeld(event)) continue
      this.keep(event)
      changed = true
    }
    if (changed) this.save([...this.held.values()])
  }

  /** Lets out what `verdict` tells now, oldest first, drops what it drops; what must wait stays. */
  release(verdict: (event: HeldEvent) => HeldVerdict): HeldEvent[] {
    const out: HeldEvent[] = []
    let changed = false
    for (const [key, event] of this.held) {
      const now = verdict(event)
      if (now === 'wait') continue
      this.held.delete(key)
      changed = true
      if (now !== null) out.push(now)
    }
    if (changed) this.save([...this.held.values()])
    return out
  }

  private keep(event: HeldEvent): void {
    const key = keyOf(event)
    this.held.delete(key)
    this.held.set(key, event)
    if (this.held.size > MAX_HELD) this.held.delete(this.held.keys().next().value!)
  }
}
