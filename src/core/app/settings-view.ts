// The part of the settings the window may read and change.
import type { SettingsView } from '../../shared/ipc'
import type { Settings } from '../../shared/settings'

export function toSettingsView(settings: Settings): SettingsView {
  return {
    notifications: settings.notifications,
    polling: settings.polling,
    launchAtLogin: settings.launchAtLogin,
    theme: settings.theme,
    allowBasicTextSecrets: settings.allowBasicTextSecrets,
    shortcut: settings.shortcut,
    pinned: settings.pinned,
    hideDockIcon: settings.hideDockIcon,
    checkForUpdates: settings.checkForUpdates
  }
}

/** Applies a (validated) partial view to a settings draft; only the view keys are touched. */
export function applySettingsUpdate(draft: Settings, update: Partial<SettingsView>): void {
  if (update.notifications !== undefined) draft.notifications = structuredClone(update.notifications)
  if (update.polling !== undefined) draft.polling = { ...update.polling }
  if (update.launchAtLogin !== undefined) draft.launchAtLogin = update.launchAtLogin
  if (update.theme !== undefined) draft.theme = update.theme
  if (update.allowBasicTextSecrets !== undefined) draft.allowBasicTextSecrets = update.allowBasicTextSecrets
  if (update.shortcut !== undefined) draft.shortcut = update.shortcut
  if (update.pinned !== undefined) draft.pinned = update.pinned
  if (update.hideDockIcon !== undefined) draft.hideDockIcon = update.hideDockIcon
  if (update.checkForUpdates !== undefined) draft.checkForUpdates = update.checkForUpdates
}
