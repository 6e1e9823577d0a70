// A locked keychain may take 30 s to answer its unlock prompt, so the app starts at once with this store, and every
// read or write waits for the chosen one.
import type { SecretStore } from './types'

export const CHECKING_DETAIL = 'Checking the system keychain…'

export function createPendingSecretStore(chosen: Promise<SecretStore>): SecretStore {
  let settled: SecretStore | null = null
  void chosen.then(
    (store) => void (settled = store),
    () => {}
  )
  return {
    get backend() {
      return settled?.backend ?? 'checking'
    },
    get detail() {
      return settled?.detail ?? CHECKING_DETAIL
    },
    get: async (connectionId) => (await chosen).get(connectionId),
    set: async (connectionId, apiKey) => (await chosen).set(connectionId, apiKey),
    delete: async (connectionId) => (await chosen).delete(connectionId),
    has: async (connectionId) => (await chosen).has(connectionId),
    list: async () => (await (await chosen).list?.()) ?? [],
    forwarding: {
      get: async (account) => (await chosen).forwarding.get(account),
      set: async (account, secret) => (await chosen).forwarding.set(account, secret),
      delete: async (account) => (await chosen).forwarding.delete(account),
      list: async () => (await (await chosen).forwarding.list?.()) ?? []
    }
  }
}
