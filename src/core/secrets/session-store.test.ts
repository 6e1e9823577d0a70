// The store in memory (no keychain, basic_text refused; the e2e host's): forwarding's entries apart
// from the API keys, as the keychain keeps them under their own service.
import { expect, it } from 'vitest'
import { createSessionSecretStore } from './session-store'

it("keeps forwarding's entries apart from the API keys: no connection reads or lists them", async () => {
  const store = createSessionSecretStore('memory')
  await store.set('c1', 'sk-session-0001')
  await store.forwarding.set('forward:t1', '{"url":"https://hooks.example/T0ken"}')
  expect(await store.get('forward:t1')).toBeNull()
  expect(await store.has('forward:t1')).toBe(false)
  expect(await store.list?.()).toEqual([{ connectionId: 'c1', secret: 'sk-session-0001' }])
  expect(await store.forwarding.list?.()).toEqual([
    { account: 'forward:t1', secret: '{"url":"https://hooks.example/T0ken"}' }
  ])
  expect(await store.forwarding.get('c1')).toBeNull()
})
