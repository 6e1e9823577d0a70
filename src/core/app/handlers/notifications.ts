// The pause is a setting so the command and a restart see it; the gate decides what a round tells meanwhile.
import type { Handlers } from '../../../shared/ipc'
import { pauseEnd } from '../../notify/pause'
import type { AppContext } from '../context'

export interface NotificationControls {
  handlers: Pick<Handlers, 'monitor:pause-notifications'>
  /** Pauses notifications for `minutes`, or with null lifts a pause. */
  pause(minutes: number | null): Promise<void>
}

export function notificationControls(ctx: AppContext): NotificationControls {
  async function pause(minutes: number | null): Promise<void> {
    const until = minutes === null ? null : pauseEnd(ctx.clock.now(), minutes)
    await ctx.update((draft) => {
      draft.notifications.pausedUntil = until
    })
    ctx.pauses.paused({ all: true }, until)
    ctx.changed()
  }

  return {
    handlers: { 'monitor:pause-notifications': ({ minutes }) => pause(minutes) },
    pause
  }
}
