// The API key's stores and the no-echo prompt, for the app (src/main) and the command (src/cli).
export * from './types'
export { createKeytarSecretStore, loadKeytar } from './keytar-store'
export { createSafeStorageSecretStore, SafeStorageError } from './safe-storage-store'
export { createSessionSecretStore } from './session-store'
export { chooseSecretStore, type ChooseSecretStoreOptions } from './choose'
export { readSecretFromTerminal, PromptCancelledError, type ReadSecretOptions } from './prompt'
export { keyCustody, KeyNotSentError, KeyOriginChangedError, NotAnApiKeyError, ConnectionIdError, decodeBoundKey, type KeyCustody, type StoredEntry } from './custody'
