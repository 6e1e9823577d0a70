// The API key encrypted by Electron's safeStorage, the ciphertext kept in the settings file.
import { firstLine, type CiphertextStore, type SafeStorageLike, type SecretStore } from './types'

export class SafeStorageError extends Error {
  override name = 'SafeStorageError'
}

export function createSafeStorageSecretStore(
  safeStorage: SafeStorageLike,
  ciphertexts: CiphertextStore,
  detail: string
): SecretStore {
  async function store(id: string, apiKey: string): Promise<void> {
    let encrypted: Buffer
    try {
      encrypted = await safeStorage.encryptStringAsync(apiKey)
    } catch (error) {
      throw new SafeStorageError(`The API key could not be encrypted: ${firstLine(error, apiKey)}`)
    }
    await ciphertexts.set(id, encrypted.toString('base64'))
  }
  return {
    backend: 'safe-storage',
    detail,
    async get(id) {
      const stored = await ciphertexts.get(id)
      if (stored === null) return null
      let decrypted: { shouldReEncrypt: boolean; result: string }
      try {
        decrypted = await safeStorage.decryptStringAsync(Buffer.from(stored, 'base64'))
      } catch (error) {
        // e.g. the OS encryption key changed: the ciphertext is useless, the user must log in again.
        throw new SafeStorageError(`The saved API key could not be decrypted; log in again: ${firstLine(error)}`)
      }
      // The OS rotated its key: the ciphertext is written again under the new one, as Electron asks.
      if (decrypted.shouldReEncrypt) await store(id, decrypted.result)
      return decrypted.result
    },
    set: (id, apiKey) => store(id, apiKey),
    delete: (id) => ciphertexts.delete(id),
    has: async (id) => (await ciphertexts.get(id)) !== null
  }
}
