import { describe, expect, it } from 'vitest'
import { createPendingSecretStore } from './pending'
import { createSessionSecretStore } from './session-store'
import type { SecretStore } from './types'

function gate(): { promise: Promise<SecretStore>; release: (store: SecretStore) => void } {
  let release: (store: SecretStore) => void = () => {}
  const promise = new Promise<SecretStore>((resolve) => (release = resolve))
  return { promise, release }
}

describe('createPendingSecretStore', () => {
  it('says it is checking until the keychain has answered, then says what was chosen', async () => {
    const g = gate()
    const store = createPendingSecretStore(g.promise)
    expect(store.backend).toBe('checking')
    expect(store.detail).toMatch(/Checking/)
    const chosen = createSessionSecretStore('Kept for this session.')
    g.release(chosen)
    await g.promise
    await Promise.resolve()
    expect(store.backend).toBe('session-only')
    expect(store.detail).toBe('Kept for this session.')
  })

  it('holds every read and write until the store is chosen, then passes them on in order', async () => {
    const g = gate()
    const store = createPendingSecretStore(g.promise)
    let readDone = false
    const write = store.set('c1', 'key-one-1234567890')
    const read = store.get('c1').then((key) => ((readDone = true), key))
    await Promise.resolve()
    expect(readDone).toBe(false)
    g.release(createSessionSecretStore('x'))
    await write
    expect(await read).toBe('key-one-1234567890')
    expect(await store.has('c1')).toBe(true)
    expect(await store.delete('c1')).toBe(true)
    expect(await store.has('c1')).toBe(false)
  })

  it("passes forwarding's entries to the chosen store's forwarding, apart from the keys", async () => {
    const g = gate()
    const store = createPendingSecretStore(g.promise)
    const write = store.forwarding.set('forward:t1', '{"url":"https://hooks.example/T0ken"}')
    const chosen = createSessionSecretStore('x')
    g.release(chosen)
    await write
    expect(await chosen.forwarding.get('forward:t1')).toBe('{"url":"https://hooks.example/T0ken"}')
    expect(await store.get('forward:t1')).toBeNull()
    expect(await store.forwarding.list?.()).toEqual([
      { account: 'forward:t1', secret: '{"url":"https://hooks.example/T0ken"}' }
    ])
    expect(await store.forwarding.delete('forward:t1')).toBe(true)
  })
})
