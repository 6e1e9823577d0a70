// Against a real keychain: gnome-keyring on a private D-Bus session (see test-keyring.ts).
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addConnection, watchProject } from '../settings/edit'
import { openSettings } from '../settings/store'
import { chooseSecretStore } from './choose'
import { ConnectionIdError, keyCustody, NotAnApiKeyError } from './custody'
import { createKeytarSecretStore, KEYCHAIN_PROBE_ACCOUNT, loadKeytar, probeKeychain } from './keytar-store'
import { listFiles } from './test-files'
import { startTestKeyring, type TestKeyring } from './test-keyring'
import { FORWARDING_KEYCHAIN_SERVICE, KEYCHAIN_SERVICE, type KeytarLike } from './types'

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
      ciphertexts: settings.ciphertexts,
      forwardingCiphertexts: settings.forwardingCiphertexts
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
    expect(files.map((f) => path.basename(f)).sort()).toEqual([
      'config.json',
      'config.last-good.json',
      'state.json',
      'state.last-good.json'
    ])
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
      ciphertexts: { ids: async () => [], get: async () => null, set: async () => {}, delete: async () => false },
      forwardingCiphertexts: {
        ids: async () => [],
        get: async () => null,
        set: async () => {},
        delete: async () => false
      }
    })
    expect(secrets.backend).toBe('keychain')
    expect(chosen.calls).toEqual([probe])
    await store.delete('probe-c1')
    await store.delete('probe-c2')
  })
})

/** A forwarding target's entry as every version stored it: its URL (with the token) as JSON. */
const TARGET_ENTRY = JSON.stringify({ url: 'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX' })

describe("forwarding's entries, apart from the API keys", () => {
  it("are under a service the API keys' does not prefix (Windows lists credentials by prefix)", () => {
    expect(FORWARDING_KEYCHAIN_SERVICE.toLowerCase().startsWith(KEYCHAIN_SERVICE.toLowerCase())).toBe(false)
  })

  it('are kept under their own service: no connection reads or lists them', async () => {
    const store = createKeytarSecretStore()
    const keytar = await loadKeytar()
    await store.forwarding.set('forward:apart-1', TARGET_ENTRY)
    expect(await keytar.getPassword(FORWARDING_KEYCHAIN_SERVICE, 'forward:apart-1')).toBe(TARGET_ENTRY)
    expect(await store.get('forward:apart-1')).toBeNull()
    expect((await store.list?.())?.map((e) => e.connectionId)).not.toContain('forward:apart-1')
    expect(await store.forwarding.list?.()).toEqual([{ account: 'forward:apart-1', secret: TARGET_ENTRY }])
    expect(await store.forwarding.delete('forward:apart-1')).toBe(true)
  })

  it("move from the API keys' service on forwarding's first use, never before; one already moved is kept", async () => {
    const keytar = await loadKeytar()
    // As an earlier version kept them: among the API keys, under the targets' accounts.
    await keytar.setPassword(KEYCHAIN_SERVICE, 'forward:old-1', TARGET_ENTRY)
    await keytar.setPassword(KEYCHAIN_SERVICE, 'forward:old-2', '{"url":"https://stale.example/x"}')
    await keytar.setPassword(FORWARDING_KEYCHAIN_SERVICE, 'forward:old-2', '{"url":"https://newer.example/x"}')
    await keytar.setPassword(KEYCHAIN_SERVICE, 'move-c1', 'sk-stays-0001')
    const watched = recording(keytar)
    const store = createKeytarSecretStore(watched.keytar)
    expect(await store.get('move-c1')).toBe('sk-stays-0001')
    expect(watched.calls.some((c) => c.includes(FORWARDING_KEYCHAIN_SERVICE) || c.startsWith('findCredentials'))).toBe(
      false
    )

    expect(await store.forwarding.get('forward:old-1')).toBe(TARGET_ENTRY)
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, 'forward:old-1')).toBeNull()
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, 'forward:old-2')).toBeNull()
    expect(await store.forwarding.get('forward:old-2')).toBe('{"url":"https://newer.example/x"}')
    expect(await store.get('move-c1')).toBe('sk-stays-0001')
    // Once per process: the next use does not list the keys again.
    const listed = watched.calls.filter((c) => c.startsWith('findCredentials')).length
    await store.forwarding.get('forward:old-1')
    expect(watched.calls.filter((c) => c.startsWith('findCredentials')).length).toBe(listed)
    for (const account of ['forward:old-1', 'forward:old-2']) await store.forwarding.delete(account)
    await store.delete('move-c1')
  })
})

describe('a connection named after a forwarding target (the attack of issue 33)', () => {
  it("never gets the target's URL as its key, and the target's entry is not written over", async () => {
    const keytar = await loadKeytar()
    await keytar.setPassword(KEYCHAIN_SERVICE, 'forward:t1', TARGET_ENTRY)
    const keys = keyCustody(createKeytarSecretStore())
    // config.json's connection forward:t1 at the attacker's host, read as a poll reads it.
    await expect(keys.get('forward:t1', 'https://collector.example')).rejects.toThrow(ConnectionIdError)
    await expect(keys.has('forward:t1')).rejects.toThrow(ConnectionIdError)
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, 'forward:t1')).toBe(TARGET_ENTRY)
    // The same entry under an id a connection may have is still no key: refused, never bound.
    await keytar.setPassword(KEYCHAIN_SERVICE, 'collector', TARGET_ENTRY)
    await expect(keys.get('collector', 'https://collector.example')).rejects.toThrow(NotAnApiKeyError)
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, 'collector')).toBe(TARGET_ENTRY)
    await keytar.deletePassword(KEYCHAIN_SERVICE, 'forward:t1')
    await keytar.deletePassword(KEYCHAIN_SERVICE, 'collector')
  })
})
