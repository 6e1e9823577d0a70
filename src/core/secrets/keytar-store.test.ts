// Against a real keychain: gnome-keyring on a private D-Bus session (see test-keyring.ts).
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addConnection, watchProject } from '../settings/edit'
import { openSettings } from '../settings/store'
import { chooseSecretStore } from './choose'
import { createKeytarSecretStore, loadKeytar } from './keytar-store'
import { listFiles } from './test-files'
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

describe('chooseSecretStore with a keychain that answers', () => {
  it('picks the keychain, and the key is in no file of the settings directory', async () => {
    const dir = path.join(keyring.home, 'settings')
    const settings = await openSettings({ dir })
    const secrets = await chooseSecretStore({
      loadKeytar,
      allowBasicText: false,
      ciphertexts: settings.ciphertexts
    })
    expect(secrets.backend).toBe('keychain')
    expect(secrets.detail).toMatch(/system keychain/)
    const apiKey = 'sk-live-keychain-5b1e77d0'
    await settings.update((draft) => {
      addConnection(draft, { name: 'Work', baseUrl: 'https://api.example.com' }, 'work')
      watchProject(draft, 'work', 'p1', new Date(), { budgetUsd: 3 })
    })
    await secrets.set('work', apiKey)
    await settings.writeLastSeen('work', { p1: { polledAt: new Date().toISOString(), tasks: {} } })
    expect(await secrets.get('work')).toBe(apiKey)

    const files = listFiles(dir)
    expect(files.map((f) => path.basename(f)).sort()).toEqual(['config.json', 'state.json'])
    for (const file of files) expect(fs.readFileSync(file).includes(apiKey), file).toBe(false)
    expect(await settings.ciphertexts.get('work')).toBeNull()
  })
})
