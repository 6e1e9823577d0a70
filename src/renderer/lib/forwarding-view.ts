// What Settings → Forwarding says of a target and of the user's presence: pure, so it is tested
// without a DOM. The rules themselves (what is away, what a target gets) are the app's.
import { FORWARD_EVENTS, type ForwardTargetView, KIND_TITLES, type PresenceView } from '../../shared/forward-target'
import type { StatusKind } from './status-kind'

/** The target's icon and its name: paused (its own icon, not a task's status), its last send failed, delivered, or
 * nothing sent yet. */
export function targetState(t: ForwardTargetView): { status: StatusKind | 'paused'; label: string } {
  if (t.paused) return { status: 'paused', label: 'Paused' }
  if (t.lastError !== null && (t.lastDeliveredAt === null || (t.lastErrorAt ?? '') >= t.lastDeliveredAt))
    return { status: 'failed', label: 'Last send failed' }
  if (t.lastDeliveredAt !== null) return { status: 'completed', label: 'Delivered' }
  return { status: 'todo', label: 'Nothing sent yet' }
}

/** One line: kind and host unless its name says them already (a name given by default is both), what it gets and
 * when, e.g. "Slack · hooks.slack.com · failed, budget · when away" ("Paused · …" first when paused). */
export function targetSummary(t: ForwardTargetView): string {
  const on = FORWARD_EVENTS.filter((e) => t.on.includes(e)).join(', ')
  const when = t.when === 'away' ? 'when away' : 'always'
  const kind = KIND_TITLES[t.kind]
  return [
    t.paused ? 'Paused' : null,
    t.name.includes(kind) ? null : kind,
    t.name.includes(t.host) ? null : t.host,
    on,
    `${when}${t.quietHours ? ', not in quiet hours' : ''}`
  ]
    .filter((part) => part !== null)
    .join(' · ')
}

const minutes = (ms: number): string => {
  const m = Math.round(ms / 60_000)
  return `${m} minute${m === 1 ? '' : 's'}`
}

/** Whether the user is seen as away now, and why, in a sentence. */
export function presenceSentence(p: PresenceView): string {
  if (p.locked) return 'You are seen as away: the screen is locked.'
  if (p.away) return `You are seen as away: no input for ${minutes(p.idleSeconds * 1000)}.`
  return `You are seen as at this computer. Away means the screen is locked or no input for ${minutes(p.awayAfterMs)}.`
}
