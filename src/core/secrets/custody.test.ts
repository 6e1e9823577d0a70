// Where a key may go (custody.ts): an entry is sent only as the key it is, and only for an id a
// connection may have. Over a store in memory; keytar-store.test.ts and app/key-custody.test.ts have the real keychain.
import { describe, expect, it } from 'vitest'
import {
  ConnectionIdError,
  decodeBoundKey,
  encodeBoundKey,
  keyCustody,
  KeyNotSentError,
  KeyOriginChangedError,
  NotAnApiKeyError
} from './custody'
import { createSessionSecretStore } from './session-store'
import type { SecretStore } from './types'

const TARGET_ENTRY = JSON.stringify({ url: 'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX' })

describe('decodeBoundKey', () => {
  it('reads a bound entry, and a plain key of an earlier version (even one that starts with "{")', () => {
    const bound = { origin: 'https://api.example.com', baseUrl: 'https://api.example.com/v1', key: 'sk-1' }
    expect(decodeBoundKey(encodeBoundKey(bound))).toEqual(bound)
    for (const plain of ['sk-live-0001', '{not-json', '12345', 'true', 'null'])
      expect(decodeBoundKey(plain), plain).toEqual({ origin: null, key: plain })
  })

  it('refuses a JSON object that is not a bound key: no key at all', () => {
    for (const other of [
      TARGET_ENTRY,
      ` ${TARGET_ENTRY}`,
      '{}',
      '"quoted"',
      '[1,2]',
      '[]',
      JSON.stringify({ format: 'agent-tray-key/1', origin: 'https://a.example' })
    ]) {
      expect(decodeBoundKey(other), other).toBeNull()
    }
  })
})

describe('keyCustody', () => {
  it('a JSON entry that is not a key is neither sent nor bound: a clear error, the entry as it was', async () => {
    const store = createSessionSecretStore('memory')
    await store.set('c1', TARGET_ENTRY)
    const keys = keyCustody(store)
    const read = keys.get('c1', 'https://collector.example')
    await expect(read).rejects.toThrow(NotAnApiKeyError)
    await expect(read).rejects.toThrow(/entry for "c1" is not an API key/)
    expect(await store.get('c1')).toBe(TARGET_ENTRY)
    expect(await keys.entries()).toEqual([])
  })

  it('refuses an id no connection may have (forward:<target>) in get, has, set and delete, and leaves its entry alone', async () => {
    const store = createSessionSecretStore('memory')
    await store.set('forward:t1', TARGET_ENTRY)
    const keys = keyCustody(store)
    await expect(keys.get('forward:t1', 'https://collector.example')).rejects.toThrow(ConnectionIdError)
    await expect(keys.get('forward:t1', 'https://collector.example')).rejects.toThrow(
      /Not a connection id: "forward:t1" must not contain ':'/
    )
    await expect(keys.has('forward:t1')).rejects.toThrow(ConnectionIdError)
    await expect(keys.delete('forward:t1')).rejects.toThrow(ConnectionIdError)
    await expect(keys.set('forward:t1', 'https://collector.example', 'sk-x')).rejects.toThrow(ConnectionIdError)
    expect(() => keys.holdForSession('forward:t1', 'https://collector.example', 'sk-x')).toThrow(ConnectionIdError)
    expect(await store.get('forward:t1')).toBe(TARGET_ENTRY)
  })

  it('binds a plain key of an earlier version to the origin its connection has on first read', async () => {
    const store = createSessionSecretStore('memory')
    await store.set('c1', 'sk-old-0001')
    const keys = keyCustody(store)
    expect(await keys.get('c1', 'https://api.example.com')).toBe('sk-old-0001')
    expect(decodeBoundKey((await store.get('c1'))!)).toMatchObject({
      origin: 'https://api.example.com',
      key: 'sk-old-0001'
    })
  })
})

const ORIGIN = 'https://api.example.com'
const BASE_URL = `${ORIGIN}/v1`

/** The session store less what some stores lack (`has`, `list`). */
function storeWithout(store: SecretStore, ...missing: ('has' | 'list')[]): Parameters<typeof keyCustody>[0] {
  const { get, set, delete: del, has, list } = store
  return {
    get,
    set,
    delete: del,
    has: missing.includes('has') ? undefined : has,
    list: missing.includes('list') ? undefined : list
  }
}

describe('decodeBoundKey, the fields of a bound entry', () => {
  it('reads JSON null as a plain key, like any JSON that is not an object', () => {
    expect(decodeBoundKey('null')).toEqual({ origin: null, key: 'null' })
  })

  it('refuses an entry whose format is another, or whose origin, base URL or key is not text', () => {
    const whole = { format: 'agent-tray-key/1', origin: ORIGIN, baseUrl: BASE_URL, key: 'sk-1' }
    for (const damaged of [
      { ...whole, format: 'agent-tray-key/2' },
      { ...whole, origin: 1 },
      { ...whole, baseUrl: null },
      { ...whole, key: ['sk-1'] }
    ]) {
      expect(decodeBoundKey(JSON.stringify(damaged)), JSON.stringify(damaged)).toBeNull()
    }
  })
})

describe('keyCustody, origins', () => {
  it('stores the key with its origin and base URL, and gives it back for any address at that origin', async () => {
    const store = createSessionSecretStore('memory')
    const keys = keyCustody(store)
    await keys.set('c1', BASE_URL, 'sk-1')
    expect(decodeBoundKey((await store.get('c1'))!)).toEqual({ origin: ORIGIN, baseUrl: BASE_URL, key: 'sk-1' })
    expect(await keys.get('c1', BASE_URL)).toBe('sk-1')
    expect(await keys.get('c1', `${ORIGIN}/v2/`)).toBe('sk-1')
  })

  it('refuses to send a key where its connection now points: KeyOriginChangedError, the entry kept as it was', async () => {
    const store = createSessionSecretStore('memory')
    const keys = keyCustody(store)
    await keys.set('c1', BASE_URL, 'sk-1')
    const before = await store.get('c1')
    for (const elsewhere of [
      'https://evil.example/v1',
      'http://api.example.com/v1',
      'https://api.example.com:8443/v1'
    ]) {
      const error = await keys.get('c1', elsewhere).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(KeyOriginChangedError)
      expect(error).toBeInstanceOf(KeyNotSentError)
      expect(error).toMatchObject({
        name: 'KeyOriginChangedError',
        storedOrigin: ORIGIN,
        origin: new URL(elsewhere).origin
      })
      expect((error as Error).message).toBe(
        `Its address changed from ${ORIGIN} to ${new URL(elsewhere).origin}; its API key was given for ${ORIGIN} and is not sent anywhere else.`
      )
      expect((error as Error).message).not.toContain('sk-1')
    }
    expect(await store.get('c1')).toBe(before)
  })

  it('binds an old plain key once: after that, another origin is refused', async () => {
    const store = createSessionSecretStore('memory')
    await store.set('c1', 'sk-old-0001')
    const keys = keyCustody(store)
    expect(await keys.get('c1', BASE_URL)).toBe('sk-old-0001')
    expect(await keys.entries()).toEqual([{ connectionId: 'c1', origin: ORIGIN, baseUrl: BASE_URL }])
    await expect(keys.get('c1', 'https://evil.example')).rejects.toThrow(KeyOriginChangedError)
  })

  it('gives null for a connection with no key, and stores nothing for it', async () => {
    const store = createSessionSecretStore('memory')
    const keys = keyCustody(store)
    expect(await keys.get('c1', BASE_URL)).toBeNull()
    expect(await store.list!()).toEqual([])
  })

  it('names its errors: NotAnApiKeyError, ConnectionIdError', async () => {
    const store = createSessionSecretStore('memory')
    await store.set('c1', '{}')
    const keys = keyCustody(store)
    const notAKey = await keys.get('c1', BASE_URL).catch((e: unknown) => e)
    expect(notAKey).toBeInstanceOf(KeyNotSentError)
    expect(notAKey).toMatchObject({ name: 'NotAnApiKeyError', connectionId: 'c1' })
    expect(await keys.has('a:b').catch((e: unknown) => e)).toMatchObject({ name: 'ConnectionIdError' })
  })

  it('refuses an address that is no service address, in set, get, holdForSession and deleteOrigin', async () => {
    const store = createSessionSecretStore('memory')
    await store.set('c1', 'sk-old-0001')
    const keys = keyCustody(store)
    const problem = /^Not a service address: The service address must be a full URL/
    await expect(keys.set('c2', 'not a url', 'sk-2')).rejects.toThrow(/^Not a service address: /)
    await expect(keys.get('c1', 'api.example.com')).rejects.toThrow(problem)
    expect(() => keys.holdForSession('c3', 'api.example.com', 'sk-3')).toThrow(problem)
    await expect(keys.deleteOrigin('api.example.com')).rejects.toThrow(problem)
    expect(await store.list!()).toEqual([{ connectionId: 'c1', secret: 'sk-old-0001' }])
  })
})

describe('keyCustody, connection ids', () => {
  it('quotes at most 80 characters of an id it refuses', async () => {
    const keys = keyCustody(createSessionSecretStore('memory'))
    const long = `a:${'b'.repeat(200)}`
    const error = await keys.get(long, BASE_URL).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConnectionIdError)
    expect((error as Error).message).toContain(`"${long.slice(0, 80)}" `)
    expect((error as Error).message).not.toContain(long.slice(0, 81))
  })

  it('writes, holds and removes nothing for an id it refuses', async () => {
    const store = createSessionSecretStore('memory')
    const leftover = createSessionSecretStore('leftover')
    await leftover.set('a:b', 'sk-left')
    const keys = keyCustody(store, [leftover])
    await expect(keys.set('a:b', BASE_URL, 'sk-x')).rejects.toThrow(ConnectionIdError)
    expect(() => keys.holdForSession('', BASE_URL, 'sk-x')).toThrow(ConnectionIdError)
    await expect(keys.delete('a:b')).rejects.toThrow(ConnectionIdError)
    expect(await store.list!()).toEqual([])
    expect(await leftover.get('a:b')).toBe('sk-left')
  })
})

describe('keyCustody, a key held for the session', () => {
  it('is given (bound to its origin), known, and stored nowhere; delete forgets it', async () => {
    const store = createSessionSecretStore('memory')
    const keys = keyCustody(store)
    keys.holdForSession('demo', BASE_URL, 'sk-demo')
    expect(await keys.get('demo', BASE_URL)).toBe('sk-demo')
    await expect(keys.get('demo', 'https://evil.example')).rejects.toThrow(KeyOriginChangedError)
    expect(await keys.has('demo')).toBe(true)
    expect(await store.list!()).toEqual([])
    expect(await keys.entries()).toEqual([])
    expect(await keys.delete('demo')).toBe(true)
    expect(await keys.has('demo')).toBe(false)
    expect(await keys.get('demo', BASE_URL)).toBeNull()
    expect(await keys.delete('demo')).toBe(false)
  })

  it('comes before a stored key of the same id', async () => {
    const store = createSessionSecretStore('memory')
    const keys = keyCustody(store)
    await keys.set('c1', BASE_URL, 'sk-stored')
    keys.holdForSession('c1', BASE_URL, 'sk-held')
    expect(await keys.get('c1', BASE_URL)).toBe('sk-held')
    expect(await keys.delete('c1')).toBe(true)
    expect(await keys.get('c1', BASE_URL)).toBeNull()
  })
})

describe('keyCustody, has and delete', () => {
  it("has: asks the store's own has where there is one (safeStorage's answers without decrypting), else reads", async () => {
    const store = createSessionSecretStore('memory')
    await store.set('c1', 'sk-1')
    const reads: string[] = []
    const counted = { ...storeWithout(store), get: async (id: string) => (reads.push(id), store.get(id)) }
    expect(await keyCustody(counted).has('c1')).toBe(true)
    expect(await keyCustody(counted).has('c2')).toBe(false)
    expect(reads).toEqual([])
    const noHas = { ...storeWithout(store, 'has'), get: counted.get }
    expect(await keyCustody(noHas).has('c1')).toBe(true)
    expect(await keyCustody(noHas).has('c2')).toBe(false)
    expect(reads).toEqual(['c1', 'c2'])
  })

  it('removes the key from the store and from every leftover place; true when any held it', async () => {
    const store = createSessionSecretStore('memory')
    const ciphertexts = createSessionSecretStore('ciphertexts')
    const other = createSessionSecretStore('other')
    const keys = keyCustody(store, [ciphertexts, other])
    await store.set('both', 'sk-1')
    await ciphertexts.set('both', 'cipher-1')
    await ciphertexts.set('left', 'cipher-2')
    await other.set('last', 'cipher-3')
    await store.set('stored', 'sk-4')
    expect(await keys.delete('both')).toBe(true)
    expect(await keys.delete('left')).toBe(true)
    expect(await keys.delete('last')).toBe(true)
    expect(await keys.delete('stored')).toBe(true)
    expect(await keys.delete('none')).toBe(false)
    for (const s of [store, ciphertexts, other]) expect(await s.list!()).toEqual([])
  })

  it('without leftovers, removes from the store alone', async () => {
    const store = createSessionSecretStore('memory')
    await store.set('c1', 'sk-1')
    const keys = keyCustody(store)
    expect(await keys.delete('c1')).toBe(true)
    expect(await keys.delete('c1')).toBe(false)
    expect(await store.has('c1')).toBe(false)
  })
})

describe('keyCustody, entries and deleteOrigin', () => {
  async function mixedStore(): Promise<SecretStore> {
    const store = createSessionSecretStore('memory')
    const keys = keyCustody(store)
    await keys.set('a1', BASE_URL, 'sk-a1')
    await keys.set('b1', 'https://other.example', 'sk-b1')
    await keys.set('a2', `${ORIGIN}/v2`, 'sk-a2')
    await store.set('plain', 'sk-old') // an earlier version's: origin unknown
    await store.set('target', TARGET_ENTRY) // no key at all
    // What the old attack left: a bound key under an account no connection may have.
    await store.set(
      'forward:t1',
      encodeBoundKey({ origin: 'https://collector.example', baseUrl: 'https://collector.example', key: TARGET_ENTRY })
    )
    return store
  }

  it('lists the entries that know their origin, without their keys', async () => {
    const entries = await keyCustody(await mixedStore()).entries()
    expect(entries).toEqual([
      { connectionId: 'a1', origin: ORIGIN, baseUrl: BASE_URL },
      { connectionId: 'b1', origin: 'https://other.example', baseUrl: 'https://other.example' },
      { connectionId: 'a2', origin: ORIGIN, baseUrl: `${ORIGIN}/v2` }
    ])
    expect(JSON.stringify(entries)).not.toContain('sk-')
  })

  it('deleteOrigin removes every key given for the origin, and only those', async () => {
    const store = await mixedStore()
    const keys = keyCustody(store)
    expect(await keys.deleteOrigin(`${ORIGIN}/anything`)).toEqual(['a1', 'a2'])
    expect((await store.list!()).map((e) => e.connectionId)).toEqual(['b1', 'plain', 'target', 'forward:t1'])
    expect(await keys.deleteOrigin(ORIGIN)).toEqual([])
  })

  it('a store that cannot list: no entries, and deleteOrigin removes nothing', async () => {
    const store = await mixedStore()
    const keys = keyCustody(storeWithout(store, 'list'))
    expect(await keys.entries()).toEqual([])
    expect(await keys.deleteOrigin(ORIGIN)).toEqual([])
    expect(await store.list!()).toHaveLength(6)
  })
})
