// Against a real keychain: gnome-keyring on a private D-Bus session (see test-keyring.ts).
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addConnection, watchProject } from '../settings/edit'
import { openSettings } from '../settings/store'
import { chooseSecretStore } from './choose'
import { createKeytarSecretStore, KEYCHAIN_PROBE_ACCOUNT, loadKeytar, probeKeychain } from './keytar-store'
import { listFiles } from './test-files'
import { startTestKeyring, type TestKeyring } from './test-keyring'
import { KEYCHAIN_SERVICE, type KeytarLike } from './types'

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
      watchProject(draft, 'work', 'p1', new Date())
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

/** The real keytar, with a log of which calls were made (service and account, never a password). */
function recording(keytar: KeytarLike): { keytar: KeytarLike; calls: string[] } {
  const calls: string[] = []
  const wrap =
    <K extends keyof KeytarLike>(name: K) =>
    (...args: unknown[]) => {
      calls.push(`${name}(${args.slice(0, 2).join(', ')})`)
      return (keytar[name] as (...a: unknown[]) => unknown)(...args)
    }
  return {
    calls,
    keytar: {
      getPassword: wrap('getPassword') as KeytarLike['getPassword'],
      setPassword: wrap('setPassword') as KeytarLike['setPassword'],
      deletePassword: wrap('deletePassword') as KeytarLike['deletePassword'],
      findCredentials: wrap('findCredentials') as KeytarLike['findCredentials']
    }
  }
}

describe('the keychain probe', () => {
  it('asks for one empty account only: no stored key is loaded (macOS would prompt per item)', async () => {
    const store = createKeytarSecretStore()
    await store.set('probe-c1', 'sk-probe-key-0001')
    await store.set('probe-c2', 'sk-probe-key-0002')
    const probe = `getPassword(${KEYCHAIN_SERVICE}, ${KEYCHAIN_PROBE_ACCOUNT})`

    const direct = recording(await loadKeytar())
    await probeKeychain(direct.keytar, 10_000)
    expect(direct.calls).toEqual([probe])

    const chosen = recording(await loadKeytar())
    const secrets = await chooseSecretStore({
      loadKeytar: async () => chosen.keytar,
      allowBasicText: false,
      ciphertexts: { ids: async () => [], get: async () => null, set: async () => {}, delete: async () => false }
    })
    expect(secrets.backend).toBe('keychain')
    expect(chosen.calls).toEqual([probe])
    await store.delete('probe-c1')
    await store.delete('probe-c2')
  })
})
