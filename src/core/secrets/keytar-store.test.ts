// Against a real keychain: gnome-keyring on a private D-Bus session (see test-keyring.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKeytarSecretStore, loadKeytar } from './keytar-store'
import { startTestKeyring, type TestKeyring } from './test-keyring'
import { KEYCHAIN_SERVICE } from './types'

let keyring: TestKeyring

beforeAll(async () => {
  keyring = await startTestKeyring()
})
afterAll(async () => {
  await keyring?.stop()
})

describe('the keytar store against gnome-keyring', () => {
  it('stores, reads, replaces and deletes a key per connection', async () => {
    const store = createKeytarSecretStore()
    expect(store.backend).toBe('keychain')
    expect(await store.get('c1')).toBeNull()
    expect(await store.has('c1')).toBe(false)

    await store.set('c1', 'sk-first-key-0001')
    await store.set('c2', 'sk-other-key-0002')
    expect(await store.get('c1')).toBe('sk-first-key-0001')
    expect(await store.has('c1')).toBe(true)

    await store.set('c1', 'sk-replaced-key-0003')
    expect(await store.get('c1')).toBe('sk-replaced-key-0003')
    expect(await store.get('c2')).toBe('sk-other-key-0002')

    // What another program sees through the keychain itself: service agent-tray, account = id.
    const keytar = await loadKeytar()
    const found = await keytar.findCredentials(KEYCHAIN_SERVICE)
    expect(found.map((c) => c.account).sort()).toEqual(['c1', 'c2'])

    expect(await store.delete('c1')).toBe(true)
    expect(await store.delete('c1')).toBe(false)
    expect(await store.get('c1')).toBeNull()
    expect(await store.get('c2')).toBe('sk-other-key-0002')
  })
})
