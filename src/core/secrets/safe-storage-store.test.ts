// The safeStorage store through Electron's asynchronous calls. safeStorage cannot run here: its
// stand-in is real AES-GCM under a key that can be "rotated", as an OS keyring rotates its own.
import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createSafeStorageSecretStore, SafeStorageError } from './safe-storage-store'
import type { CiphertextStore, SafeStorageLike } from './types'

function rotatingSafeStorage(): SafeStorageLike & { rotate(): void } {
  let current = crypto.randomBytes(32)
  let previous: Buffer | null = null
  const seal = (text: string): Buffer => {
    const iv = crypto.randomBytes(12)
    const cipher = crypto.createCipheriv('aes-256-gcm', current, iv)
    const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()])
    return Buffer.concat([iv, cipher.getAuthTag(), body])
  }
  const open = (key: Buffer, data: Buffer): string => {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key, data.subarray(0, 12))
    decipher.setAuthTag(data.subarray(12, 28))
    return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8')
  }
  return {
    isAsyncEncryptionAvailable: async () => true,
    encryptStringAsync: async (text) => seal(text),
    async decryptStringAsync(data) {
      try {
        return { shouldReEncrypt: false, result: open(current, data) }
      } catch (error) {
        if (!previous) throw error
        return { shouldReEncrypt: true, result: open(previous, data) }
      }
    },
    rotate() {
      previous = current
      current = crypto.randomBytes(32)
    }
  }
}

function memoryCiphertexts(): CiphertextStore & { map: Map<string, string> } {
  const map = new Map<string, string>()
  return {
    map,
    ids: async () => [...map.keys()],
    get: async (id) => map.get(id) ?? null,
    set: async (id, c) => void map.set(id, c),
    delete: async (id) => map.delete(id)
  }
}

const KEY = 'sk-test-0123456789abcdef'

describe('createSafeStorageSecretStore', () => {
  it('keeps only the ciphertext, and reads the key back', async () => {
    const ciphertexts = memoryCiphertexts()
    const store = createSafeStorageSecretStore(rotatingSafeStorage(), ciphertexts, 'detail', memoryCiphertexts())
    await store.set('c1', KEY)
    expect(ciphertexts.map.get('c1')).not.toContain(KEY)
    expect(await store.get('c1')).toBe(KEY)
  })

  it('writes the ciphertext again when Electron says the key should be re-encrypted', async () => {
    const safe = rotatingSafeStorage()
    const ciphertexts = memoryCiphertexts()
    const store = createSafeStorageSecretStore(safe, ciphertexts, 'detail', memoryCiphertexts())
    await store.set('c1', KEY)
    const before = ciphertexts.map.get('c1')
    safe.rotate()
    expect(await store.get('c1')).toBe(KEY)
    const after = ciphertexts.map.get('c1')
    expect(after).not.toBe(before)
    // Sealed under the new key: readable without the old one.
    expect((await safe.decryptStringAsync(Buffer.from(after!, 'base64'))).shouldReEncrypt).toBe(false)
  })

  it('says to log in again when the ciphertext cannot be decrypted, without quoting the key', async () => {
    const ciphertexts = memoryCiphertexts()
    const store = createSafeStorageSecretStore(rotatingSafeStorage(), ciphertexts, 'detail', memoryCiphertexts())
    await ciphertexts.set('c1', Buffer.from('not a ciphertext at all, thirty bytes').toString('base64'))
    await expect(store.get('c1')).rejects.toBeInstanceOf(SafeStorageError)
    await expect(store.get('c1')).rejects.toThrow(/log in again/)
  })
  it("keeps forwarding's entries in a map of their own; those an earlier version kept among the keys' move there on first use", async () => {
    const keys = memoryCiphertexts()
    const forwarding = memoryCiphertexts()
    const safe = rotatingSafeStorage()
    const target = JSON.stringify({ url: 'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX' })
    const old = (await safe.encryptStringAsync(target)).toString('base64')
    await keys.set('forward:t1', old)
    const store = createSafeStorageSecretStore(safe, keys, 'detail', forwarding)
    await store.set('c1', KEY)
    expect([...keys.map.keys()].sort()).toEqual(['c1', 'forward:t1'])

    expect(await store.forwarding.get('forward:t1')).toBe(target)
    expect([...keys.map.keys()]).toEqual(['c1'])
    expect(forwarding.map.get('forward:t1')).toBe(old)
    await store.forwarding.set('forward:t2', target)
    expect([...forwarding.map.keys()].sort()).toEqual(['forward:t1', 'forward:t2'])
    expect(await store.get('forward:t2')).toBeNull()
    expect((await store.forwarding.list?.())?.map((e) => e.account).sort()).toEqual(['forward:t1', 'forward:t2'])
  })
})
