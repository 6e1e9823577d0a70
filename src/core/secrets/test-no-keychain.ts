// Test helper run as a child process whose D-Bus address points nowhere: reports, as JSON on
// stdout, what the keytar store and chooseSecretStore do when no keychain answers. Electron's
// safeStorage is the only thing faked (it cannot run here): real AES-GCM under a random key.
import crypto from 'node:crypto'
import { openSettings } from '../settings/store'
import { chooseSecretStore } from './choose'
import { createKeytarSecretStore, loadKeytar } from './keytar-store'
import type { SafeStorageLike } from './types'

function fakeSafeStorage(backend: string | undefined, available = true): SafeStorageLike {
  const key = crypto.randomBytes(32)
  return {
    isAsyncEncryptionAvailable: async () => available,
    getSelectedStorageBackend: backend ? () => backend : undefined,
    async encryptStringAsync(text) {
      const iv = crypto.randomBytes(12)
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()])
      return Buffer.concat([iv, cipher.getAuthTag(), body])
    },
    async decryptStringAsync(data) {
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, data.subarray(0, 12))
      decipher.setAuthTag(data.subarray(12, 28))
      return {
        shouldReEncrypt: false,
        result: Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8')
      }
    }
  }
}

const [dir, apiKey] = process.argv.slice(2)
if (!dir || !apiKey) throw new Error('usage: test-no-keychain DIR KEY')
const settings = await openSettings({ dir })
const results: Record<string, unknown> = {}

try {
  await createKeytarSecretStore().set('c1', apiKey)
  results.keytar = { ok: true }
} catch (error) {
  results.keytar = { name: (error as Error).name, message: (error as Error).message }
}

const cases: Record<string, { safeStorage?: SafeStorageLike; allowBasicText: boolean }> = {
  safeStorage: { safeStorage: fakeSafeStorage('gnome_libsecret'), allowBasicText: false },
  macOrWindows: { safeStorage: fakeSafeStorage(undefined), allowBasicText: false },
  basicTextRefused: { safeStorage: fakeSafeStorage('basic_text'), allowBasicText: false },
  basicTextAllowed: { safeStorage: fakeSafeStorage('basic_text'), allowBasicText: true },
  noEncryption: { safeStorage: fakeSafeStorage('gnome_libsecret', false), allowBasicText: false },
  commandLine: { allowBasicText: false }
}
for (const [name, options] of Object.entries(cases)) {
  const store = await chooseSecretStore({
    loadKeytar,
    ciphertexts: settings.ciphertexts,
    forwardingCiphertexts: settings.forwardingCiphertexts,
    ...options
  })
  const id = `conn-${name}`
  await store.set(id, apiKey)
  results[name] = {
    backend: store.backend,
    detail: store.detail,
    readBack: (await store.get(id)) === apiKey,
    has: await store.has(id),
    ciphertext: await settings.ciphertexts.get(id)
  }
}
process.stdout.write(JSON.stringify(results))
