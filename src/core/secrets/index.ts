// The API key's stores and the no-echo prompt, for the app (src/main) and the command (src/cli).
export { chooseSecretStore, type ChooseSecretStoreOptions } from './choose'
export {
  ConnectionIdError,
  decodeBoundKey,
  type KeyCustody,
  keyCustody,
  KeyNotSentError,
  KeyOriginChangedError,
  NotAnApiKeyError,
  type StoredEntry
} from './custody'
export { createKeytarSecretStore, loadKeytar } from './keytar-store'
export { PromptCancelledError, readSecretFromTerminal, type ReadSecretOptions } from './prompt'
export { createSafeStorageSecretStore, SafeStorageError } from './safe-storage-store'
export { createSessionSecretStore } from './session-store'
export * from './types'
