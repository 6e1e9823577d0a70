// The API key encrypted by Electron's safeStorage, the ciphertext kept in the settings file.
// Forwarding targets' secrets the same way, in a map of their own in that file.
import { isForwardSecretAccount } from '../../shared/forward-target'
import {
  type CiphertextStore,
  firstLine,
  type ForwardingSecretStore,
  type SafeStorageLike,
  type SecretStore
} from './types'

export class SafeStorageError extends Error {
  override name = 'SafeStorageError'
}

/** What each kind of entry is called in an error, and what the user does when one is lost. */
interface Words {
  what: string
  lost: string
}

function encrypted(safeStorage: SafeStorageLike, ciphertexts: CiphertextStore, words: Words) {
  async function set(id: string, secret: string): Promise<void> {
    let sealed: Buffer
    try {
      sealed = await safeStorage.encryptStringAsync(secret)
    } catch (error) {
      throw new SafeStorageError(`The ${words.what} could not be encrypted: ${firstLine(error, secret)}`)
    }
    await ciphertexts.set(id, sealed.toString('base64'))
  }
  async function get(id: string): Promise<string | null> {
    const stored = await ciphertexts.get(id)
    if (stored === null) return null
    let decrypted: { shouldReEncrypt: boolean; result: string }
    try {
      decrypted = await safeStorage.decryptStringAsync(Buffer.from(stored, 'base64'))
    } catch (error) {
      // e.g. the OS encryption key changed: the ciphertext is useless.
      throw new SafeStorageError(`The saved ${words.what} could not be decrypted; ${words.lost}: ${firstLine(error)}`)
    }
    // The OS rotated its key: the ciphertext is written again under the new one, as Electron asks.
    if (decrypted.shouldReEncrypt) await set(id, decrypted.result)
    return decrypted.result
  }
  return { get, set, delete: (id: string) => ciphertexts.delete(id) }
}

/** Forwarding's map; its first use moves the ciphertexts an earlier version kept among the API keys' (as they are). */
function forwardingEntries(
  safeStorage: SafeStorageLike,
  keys: CiphertextStore,
  forwarding: CiphertextStore
): ForwardingSecretStore {
  const entries = encrypted(safeStorage, forwarding, {
    what: "forwarding target's secret",
    lost: 'remove the target and add it again'
  })
  let moved: Promise<void> | undefined
  const open = (): Promise<void> =>
    (moved ??= (async () => {
      for (const id of (await keys.ids()).filter(isForwardSecretAccount)) {
        const stored = await keys.get(id)
        if (stored !== null && (await forwarding.get(id)) === null) await forwarding.set(id, stored)
        await keys.delete(id)
      }
    })().catch((error: unknown) => {
      moved = undefined
      throw error
    }))
  const opened =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await open()
      return run(...args)
    }
  return {
    get: opened(entries.get),
    set: opened(entries.set),
    delete: opened(entries.delete),
    list: opened(async () => {
      const out: Array<{ account: string; secret: string }> = []
      for (const account of await forwarding.ids()) {
        const secret = await entries.get(account)
        if (secret !== null) out.push({ account, secret })
      }
      return out
    })
  }
}

export function createSafeStorageSecretStore(
  safeStorage: SafeStorageLike,
  ciphertexts: CiphertextStore,
  detail: string,
  /** Forwarding targets' ciphertexts: a map apart from the API keys'. */
  forwardingCiphertexts: CiphertextStore
): SecretStore {
  const keys = encrypted(safeStorage, ciphertexts, { what: 'API key', lost: 'log in again' })
  return {
    backend: 'safe-storage',
    detail,
    ...keys,
    has: async (id) => (await ciphertexts.get(id)) !== null,
    forwarding: forwardingEntries(safeStorage, ciphertexts, forwardingCiphertexts)
  }
}
