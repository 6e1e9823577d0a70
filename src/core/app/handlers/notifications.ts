// Pausing notifications for a while: the pause is a setting (so the command and a restart see it);
// whether a round is told meanwhile is the gate's decision (core/notify/gate.ts).
import type { Handlers } from '../../../shared/ipc'
import type { TimerHandle } from '../../util/clock'
import type { AppContext } from '../context'

export interface NotificationControls {
  handlers: Pick<Handlers, 'monitor:pause-notifications'>
  /** Pauses notifications for `minutes`, or with null lifts a pause. */
  pause(minutes: number | null): Promise<void>
  dispose(): void
}

export function notificationControls(ctx: AppContext): NotificationControls {
  let pauseEnd: TimerHandle | null = null
  const clear = (): void => {
    if (pauseEnd !== null) ctx.clock.clearTimeout(pauseEnd)
    pauseEnd = null
  }

  async function pause(minutes: number | null): Promise<void> {
    const until = minutes === null ? null : new Date(ctx.clock.now() + minutes * 60_000).toISOString()
    await ctx.update((draft) => {
      draft.notifications.pausedUntil = until
    })
    clear()
    // The window shows the pause until it ends: tell it when it does.
    if (minutes !== null && !ctx.stopped) {
      pauseEnd = ctx.clock.setTimeout(() => {
        pauseEnd = null
        ctx.changed()
      }, minutes * 60_000 + 1)
    }
    ctx.changed()
  }

  return {
    handlers: { 'monitor:pause-notifications': ({ minutes }) => pause(minutes) },
    pause,
    dispose: clear
  }
}
