// The app's state as the window draws it, and the part of the settings the window may change.
import type { Handlers, SettingsView } from '../../../shared/ipc'
import { buildAppState } from '../app-state'
import type { AppContext } from '../context'
import { applySettingsUpdate, toSettingsView } from '../settings-view'

export function settingsHandlers(ctx: AppContext): Pick<Handlers, 'app:get-state' | 'settings:get' | 'settings:update'> {
  return {
    'app:get-state': async () => buildAppState(ctx),
    'settings:get': async () => toSettingsView(ctx.settings()),
    'settings:update': async (update) => {
      const saved = await ctx.update((draft) => applySettingsUpdate(draft, update))
      if (update.polling !== undefined) ctx.session.setPolling(saved.polling)
      try {
        ctx.deps.onSettingsChanged?.()
      } catch (error) {
        ctx.reportError('applying settings', error)
      }
      ctx.changed()
      return toSettingsView(saved) satisfies SettingsView
    }
  }
}
