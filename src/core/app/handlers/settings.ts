// The app's state as the window draws it, and the part of the settings the window may change.
import type { Handlers, SettingsView } from '../../../shared/ipc'
import { invalidArgument } from '../app-error'
import { buildAppState } from '../app-state'
import type { AppContext } from '../context'
import { applySettingsUpdate, toSettingsView } from '../settings-view'

export function settingsHandlers(
  ctx: AppContext
): Pick<Handlers, 'app:get-state' | 'settings:get' | 'settings:update'> {
  return {
    'app:get-state': async () => buildAppState(ctx),
    'settings:get': async () => toSettingsView(ctx.settings()),
    'settings:update': async (update) => {
      const before = ctx.settings().shortcut
      const newShortcut = update.shortcut !== undefined && update.shortcut !== before ? update.shortcut : null
      if (newShortcut !== null) {
        // Taken first, saved after: a shortcut the system refuses is never stored, the old one stays.
        const problem = ctx.ports.changeShortcut?.(newShortcut) ?? null
        if (problem !== null) throw invalidArgument(problem)
      }
      let saved
      try {
        saved = await ctx.update((draft) => applySettingsUpdate(draft, update))
      } catch (error) {
        if (newShortcut !== null) ctx.ports.changeShortcut?.(before)
        throw error
      }
      if (update.polling !== undefined) ctx.session.setPolling(saved.polling)
      try {
        const current = ctx.settings()
        ctx.updater.setEnabled(current.checkForUpdates)
        ctx.ports.onSettingsChanged?.(current)
      } catch (error) {
        ctx.reportError('applying settings', error)
      }
      ctx.changed()
      return toSettingsView(saved) satisfies SettingsView
    }
  }
}
