// Electron's safeStorage as Electron 46 has it (the asynchronous calls only), for tests: it cannot
// run here. Real AES-GCM under a random key; `rotate()` makes a new key the way an OS key rotation
// does: what the old key encrypted still decrypts, with `shouldReEncrypt`.
import crypto from 'node:crypto'
import type { SafeStorageLike } from './types'

export interface FakeSafeStorage extends SafeStorageLike {
  rotate(): void
  /** How many ciphertexts were made, by generation of the key. */
  readonly encrypted: number
}

export function fakeSafeStorage(backend: string | undefined, available = true): FakeSafeStorage {
  const keys = [crypto.randomBytes(32)]
  let encrypted = 0
  return {
    isAsyncEncryptionAvailable: async () => available,
    getSelectedStorageBackend: backend ? () => backend : undefined,
    async encryptStringAsync(text) {
      if (!available) throw new Error('Encryption is not available.')
      const generation = keys.length - 1
      const iv = crypto.randomBytes(12)
      const cipher = crypto.createCipheriv('aes-256-gcm', keys[generation]!, iv)
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()])
      encrypted++
      return Buffer.concat([Buffer.from([generation]), iv, cipher.getAuthTag(), body])
    },
    async decryptStringAsync(data) {
      const generation = data[0]!
      const decipher = crypto.createDecipheriv('aes-256-gcm', keys[generation]!, data.subarray(1, 13))
      decipher.setAuthTag(data.subarray(13, 29))
      const result = Buffer.concat([decipher.update(data.subarray(29)), decipher.final()]).toString('utf8')
      return { shouldReEncrypt: generation !== keys.length - 1, result }
    },
    rotate: () => void keys.push(crypto.randomBytes(32)),
    get encrypted() {
      return encrypted
    }
  }
}
