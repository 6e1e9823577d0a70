// safeStorage ciphertexts in config.json move to the store chosen now and are wiped, as a basic_text one is as good as
// plain text. Forwarding ciphertexts go to the forwarding entries, never among the keys.
import { isForwardSecretAccount } from '../../shared/forward-target'
import type { CiphertextStore, SafeStorageLike, SecretStore } from './types'

interface Destination {
  has(id: string): Promise<boolean>
  set(id: string, entry: string): Promise<void>
}

/** Moves every ciphertext into `into` and wipes it; one that cannot be decrypted any more is useless and wiped too. Returns the ids moved. */
export async function moveCiphertexts(
  into: SecretStore,
  safeStorage: SafeStorageLike | undefined,
  ciphertexts: CiphertextStore,
  forwardingCiphertexts: CiphertextStore
): Promise<string[]> {
  const keys: Destination = { has: (id) => into.has(id), set: (id, entry) => into.set(id, entry) }
  const forwarding: Destination = {
    has: async (id) => (await into.forwarding.get(id)) !== null,
    set: (id, entry) => into.forwarding.set(id, entry)
  }
  // An earlier version kept targets' ciphertexts among the keys', under their `forward:` account.
  const moved = await moveEach(safeStorage, ciphertexts, (id) => (isForwardSecretAccount(id) ? forwarding : keys))
  return [...moved, ...(await moveEach(safeStorage, forwardingCiphertexts, () => forwarding))]
}

async function moveEach(
  safeStorage: SafeStorageLike | undefined,
  ciphertexts: CiphertextStore,
  destination: (id: string) => Destination
): Promise<string[]> {
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
    const into = destination(id)
    if (entry !== null && !(await into.has(id))) await into.set(id, entry)
    await ciphertexts.delete(id)
    if (entry !== null) moved.push(id)
  }
  return moved
}
