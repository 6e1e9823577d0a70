// Quiet hours apply only to a target that asks to keep them (they are the desktop's otherwise). Muted projects never
// get here: the forwarder keeps only what the gate's mute filter keeps.
import type { ForwardTarget } from '../../shared/forward-target'
import type { ForwardEvent } from './event'

export type TargetRules = Pick<ForwardTarget, 'id' | 'on' | 'when' | 'paused' | 'quietHours'>

export interface Moment {
  away: boolean
  quiet: boolean
}

export function targetWants(target: TargetRules, event: ForwardEvent, now: Moment): boolean {
  if (target.paused) return false
  if (event.kind !== 'test' && !target.on.includes(event.kind)) return false
  if (target.when === 'away' && !now.away) return false
  if (target.quietHours && now.quiet) return false
  return true
}

export function targetsFor(targets: readonly TargetRules[], event: ForwardEvent, now: Moment): string[] {
  return targets.filter((t) => targetWants(t, event, now)).map((t) => t.id)
}
