// Settings and state, for the app (src/main) and the command (src/cli).
export { settingsDir, CONFIG_FILE, STATE_FILE } from './paths'
export {
  openSettings,
  settingsConfOptions,
  SettingsValidationError,
  type ConfLike,
  type OpenSettingsOptions,
  type SettingsStore
} from './store'
export { SettingsFileError } from './file-error'
export { SettingsLockError } from './lock'
export { defaultSettings, SETTINGS_VERSION } from './schema'
export type { BudgetsNotified } from './state-document'
export * from './edit'
