// The key goes in and out of these stores and nowhere else: never into an error message, a log, the settings object or
// the renderer.
import { escapeUnsafeCharacters } from '../../shared/controls'
import type { SecretBackend } from '../../shared/settings'
import { redactSecrets } from './redact'

/** The keychain service of API keys; the account is the connection id. */
export const KEYCHAIN_SERVICE = 'agent-tray'
/** Not prefixed by KEYCHAIN_SERVICE: Windows' credential search matches by prefix. */
export const FORWARDING_KEYCHAIN_SERVICE = 'forwarding.agent-tray'

/** Forwarding secrets, kept by the same store as the API keys but apart from them, so no connection's key is ever
 * read from a target's entry or written over it. */
export interface ForwardingSecretStore {
  get(account: string): Promise<string | null>
  set(account: string, secret: string): Promise<void>
  delete(account: string): Promise<boolean>
  /** Every entry kept, where the store can list them (the log learns their tokens). */
  list?(): Promise<Array<{ account: string; secret: string }>>
}

export interface SecretStore {
  readonly backend: SecretBackend
  /** One plain sentence for the user: where the key is kept, and why there. */
  readonly detail: string
  get(connectionId: string): Promise<string | null>
  set(connectionId: string, apiKey: string): Promise<void>
  delete(connectionId: string): Promise<boolean>
  has(connectionId: string): Promise<boolean>
  /** Every entry kept, where the store can list them (the keychain, memory). */
  list?(): Promise<Array<{ connectionId: string; secret: string }>>
  /** Forwarding's entries, apart from these; opened (and entries an earlier version kept here moved) on first use. */
  readonly forwarding: ForwardingSecretStore
}

/** The part of keytar we use. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>
}

/** The asynchronous safeStorage calls: the synchronous ones are deprecated in Electron 45. */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>
  /** Linux only: 'basic_text' | 'gnome_libsecret' | 'kwallet' | ... | 'unknown'. */
  getSelectedStorageBackend?(): string
  encryptStringAsync(plainText: string): Promise<Buffer>
  /** `shouldReEncrypt`: the OS key was rotated or a better one is available; encrypt it again. */
  decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>
}

/** Where safeStorage ciphertexts (base64) are kept: the settings store's `ciphertexts`. */
export interface CiphertextStore {
  /** The connections that have one. */
  ids(): Promise<string[]>
  get(connectionId: string): Promise<string | null>
  set(connectionId: string, ciphertext: string): Promise<void>
  delete(connectionId: string): Promise<boolean>
}

/** The keychain library cannot load, or no keychain answers. The message is one line. */
export class KeychainUnavailableError extends Error {
  override name = 'KeychainUnavailableError'
}

/** The first line of an error's message, redacted and with control characters written out, for one-line reports (main's log). */
export function firstLine(error: unknown, secret?: string): string {
  const message = error instanceof Error ? error.message : String(error)
  return escapeUnsafeCharacters(
    redactSecrets(message.split('\n').find((line) => line.trim() !== '') ?? 'unknown error', [secret]).trim()
  )
}
