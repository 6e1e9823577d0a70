// The API key in memory only, for when nothing else can keep it: asked for again after a restart.
import type { SecretStore } from './types'

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
    list: async () => [...keys].map(([connectionId, secret]) => ({ connectionId, secret }))
  }
}
