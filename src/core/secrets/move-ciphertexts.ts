// Keys kept as safeStorage ciphertexts in config.json (no keychain answered then, or basic_text
// was allowed) move into the store chosen now (the keychain that is back, or memory once basic_text
// is turned off), and the ciphertexts are wiped: a basic_text one is as good as plain text.
import type { CiphertextStore, SafeStorageLike, SecretStore } from './types'

/** Moves every ciphertext into `into` and wipes it; one that cannot be decrypted any more is useless and wiped too. Returns the ids moved. */
export async function moveCiphertexts(into: SecretStore, safeStorage: SafeStorageLike | undefined, ciphertexts: CiphertextStore): Promise<string[]> {
  const moved: string[] = []
  for (const id of await ciphertexts.ids()) {
    const stored = await ciphertexts.get(id)
    if (stored === null) continue
    let entry: string | null = null
    try {
      if (safeStorage && (await safeStorage.isAsyncEncryptionAvailable())) {
        entry = (await safeStorage.decryptStringAsync(Buffer.from(stored, 'base64'))).result
      }
    } catch {
      entry = null // The OS key is gone: nothing can read it.
    }
    if (entry === null && safeStorage === undefined) continue // The command cannot decrypt: left for the app.
    // The entry as it was stored (the key with its origin, core/secrets/custody.ts), unchanged.
    if (entry !== null && !(await into.has(id))) await into.set(id, entry)
    await ciphertexts.delete(id)
    if (entry !== null) moved.push(id)
  }
  return moved
}
