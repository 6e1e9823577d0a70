// The keychain when one answers, else safeStorage (but not `basic_text`, a fixed public password, unless the user
// accepted it), else memory for this session only. The chosen store says which, and why.
import { createKeytarSecretStore, probeKeychain } from './keytar-store'
import { moveCiphertexts } from './move-ciphertexts'
import { createSafeStorageSecretStore } from './safe-storage-store'
import { createSessionSecretStore } from './session-store'
import { type CiphertextStore, firstLine, type KeytarLike, type SafeStorageLike, type SecretStore } from './types'

export interface ChooseSecretStoreOptions {
  loadKeytar: () => Promise<KeytarLike>
  /** Absent in the command line (no Electron). */
  safeStorage?: SafeStorageLike
  /** Settings.allowBasicTextSecrets. */
  allowBasicText: boolean
  ciphertexts: CiphertextStore
  /** Forwarding targets' ciphertexts (the settings store's forwardingCiphertexts), apart from the keys'. */
  forwardingCiphertexts: CiphertextStore
  /** How long the keychain may take to answer the probe (an unlock prompt may be showing). */
  probeTimeoutMs?: number
}

function sentenceCase(text: string): string {
  return text.replace(/\.$/, '')
}

export async function chooseSecretStore(options: ChooseSecretStoreOptions): Promise<SecretStore> {
  const chosen = await choose(options)
  // Keys left as ciphertexts by an earlier choice move into this one (move-ciphertexts.ts).
  if (chosen.backend !== 'safe-storage')
    await moveCiphertexts(chosen, options.safeStorage, options.ciphertexts, options.forwardingCiphertexts)
  return chosen
}

async function choose(options: ChooseSecretStoreOptions): Promise<SecretStore> {
  let keychainProblem: string
  try {
    const keytar = await options.loadKeytar()
    await probeKeychain(keytar, options.probeTimeoutMs ?? 30_000)
    return createKeytarSecretStore(keytar)
  } catch (error) {
    keychainProblem = sentenceCase(firstLine(error))
  }

  const safe = options.safeStorage
  let safeProblem = "Electron's safeStorage is not available here"
  if (safe) {
    let available = false
    try {
      available = await safe.isAsyncEncryptionAvailable()
    } catch (error) {
      safeProblem = `Electron's safeStorage failed: ${firstLine(error)}`
    }
    if (available) {
      const backend = safe.getSelectedStorageBackend?.()
      if (backend !== 'basic_text') {
        return createSafeStorageSecretStore(
          safe,
          options.ciphertexts,
          `${keychainProblem}. Your API key is encrypted with Electron's safeStorage${backend ? ` (${backend})` : ''} and kept in the settings file.`,
          options.forwardingCiphertexts
        )
      }
      if (options.allowBasicText) {
        return createSafeStorageSecretStore(
          safe,
          options.ciphertexts,
          `${keychainProblem}. As you allowed in Settings, your API key is kept in the settings file under basic_text, which uses a fixed password: anyone who can read that file can read your key.`,
          options.forwardingCiphertexts
        )
      }
      return createSessionSecretStore(
        `${keychainProblem}. The only other store here is Electron's basic_text, which uses a fixed password, so your API key is kept for this session only. Allow basic_text in Settings to keep it across restarts.`
      )
    }
    if (!safeProblem.includes('failed')) safeProblem = "Electron's safeStorage has no encryption available"
  }
  return createSessionSecretStore(
    `${keychainProblem}. ${safeProblem}, so your API key is kept for this session only and will be asked for again after a restart.`
  )
}
