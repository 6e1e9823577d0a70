// Where a key may go (custody.ts): an entry is sent only as the key it is, and only for an id a
// connection may have. Over a store in memory; keychain-level.test.ts has the real keychain.
import { describe, expect, it } from 'vitest'
import { ConnectionIdError, decodeBoundKey, encodeBoundKey, keyCustody, NotAnApiKeyError } from './custody'
import { createSessionSecretStore } from './session-store'

const TARGET_ENTRY = JSON.stringify({ url: 'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX' })

describe('decodeBoundKey', () => {
  it('reads a bound entry, and a plain key of an earlier version (even one that starts with "{")', () => {
    const bound = { origin: 'https://api.example.com', baseUrl: 'https://api.example.com/v1', key: 'sk-1' }
    expect(decodeBoundKey(encodeBoundKey(bound))).toEqual(bound)
    for (const plain of ['sk-live-0001', '{not-json', '"quoted"', '12345', '[1,2]']) expect(decodeBoundKey(plain), plain).toEqual({ origin: null, key: plain })
  })

  it('refuses a JSON object that is not a bound key: no key at all', () => {
    for (const other of [TARGET_ENTRY, ` ${TARGET_ENTRY}`, '{}', JSON.stringify({ format: 'agent-tray-key/1', origin: 'https://a.example' })]) {
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

  it("refuses an id no connection may have (forward:<target>) in get, has, set and delete, and leaves its entry alone", async () => {
    const store = createSessionSecretStore('memory')
    await store.set('forward:t1', TARGET_ENTRY)
    const keys = keyCustody(store)
    await expect(keys.get('forward:t1', 'https://collector.example')).rejects.toThrow(ConnectionIdError)
    await expect(keys.get('forward:t1', 'https://collector.example')).rejects.toThrow(/Not a connection id: "forward:t1" must not contain ':'/)
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
    expect(decodeBoundKey((await store.get('c1'))!)).toMatchObject({ origin: 'https://api.example.com', key: 'sk-old-0001' })
  })
})
