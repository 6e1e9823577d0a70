// The API key in memory only, for when nothing else can keep it: asked for again after a restart.
// Forwarding's entries in a map of their own, as the keychain keeps them under their own service.
import type { ForwardingSecretStore, SecretStore } from './types'

function forwardingEntries(): ForwardingSecretStore {
  const entries = new Map<string, string>()
  return {
    get: async (account) => entries.get(account) ?? null,
    set: async (account, secret) => void entries.set(account, secret),
    delete: async (account) => entries.delete(account),
    list: async () => [...entries].map(([account, secret]) => ({ account, secret }))
  }
}

export function createSessionSecretStore(detail: string): SecretStore {
  const keys = new Map<string, string>()
  return {
    backend: 'session-only',
    detail,
    get: async (id) => keys.get(id) ?? null,
    set: async (id, apiKey) => {
      keys.set(id, apiKey)
    },
    delete: async (id) => keys.delete(id),
    has: async (id) => keys.has(id),
    list: async () => [...keys].map(([connectionId, secret]) => ({ connectionId, secret })),
    forwarding: forwardingEntries()
  }
}
