// Settings and state, for the app (src/main) and the command (src/cli).
export * from './edit'
export { SettingsFileError } from './file-error'
export { SettingsLockError } from './lock'
export { CONFIG_FILE, settingsDir, STATE_FILE } from './paths'
export { defaultSettings, SETTINGS_VERSION } from './schema'
export type { BudgetsNotified } from './state-document'
export {
  type ConfLike,
  openSettings,
  type OpenSettingsOptions,
  settingsConfOptions,
  type SettingsStore,
  SettingsValidationError
} from './store'
