// The events of a polling round, held until the round is over: changes seen live, and changes that
// happened while the app was closed (announced apart, as one summary).
import type { MonitorEvent } from '../../shared/monitor'
import type { MonitorCycle } from './types'

export class Rounds {
  private live: MonitorEvent[] = []
  private away: MonitorEvent[] = []
  private since: number | null = null

  add(events: readonly MonitorEvent[], away: boolean, now: number): void {
    if (events.length === 0) return
    ;(away ? this.away : this.live).push(...events)
    this.since ??= now
  }

  /** Rounds close when no poll is in flight, after `maxMs`, or when forced. Away changes come first. */
  close(now: number, options: { inFlight: number; maxMs: number; force: boolean }): MonitorCycle[] {
    if (this.since === null) return []
    const longEnough = now - this.since >= options.maxMs
    if (!options.force && options.inFlight > 0 && !longEnough) return []
    const out: MonitorCycle[] = []
    if (this.away.length > 0) out.push({ events: this.away, away: true })
    if (this.live.length > 0) out.push({ events: this.live, away: false })
    this.away = []
    this.live = []
    this.since = null
    return out
  }
}
