// Drops muted projects and accounts with the gate's own filter, so forwarding and notifications agree on what is muted.
import type { ForwardTarget } from '../../shared/forward-target'
import type { MonitorEvent } from '../../shared/monitor'
import type { Settings } from '../../shared/settings'
import { unmutedEvents } from '../notify/gate'
import { type EventNames, toForwardEvent } from './event'
import type { Outbox } from './outbox'
import { type Moment, targetsFor } from './select'

export interface ForwarderDeps {
  outbox: Pick<Outbox, 'enqueue'>
  settings: () => Pick<Settings, 'connectionNotifications' | 'watched'> & { forwarding: { targets: ForwardTarget[] } }
  names: EventNames
  /** Away and quiet hours at this moment (a headless machine has nobody at it: away). */
  moment: () => Moment
  now: () => number
}

export function createForwarder(deps: ForwarderDeps): (connectionId: string, events: readonly MonitorEvent[]) => void {
  return (connectionId, events) => {
    const settings = deps.settings()
    const targets = settings.forwarding.targets
    if (targets.length === 0) return
    const moment = deps.moment()
    for (const event of unmutedEvents(settings as Settings, connectionId, events)) {
      const forward = toForwardEvent(event, deps.names, deps.now())
      if (forward === null) continue
      const ids = targetsFor(targets, forward, moment)
      if (ids.length > 0) deps.outbox.enqueue(forward, ids)
    }
  }
}
