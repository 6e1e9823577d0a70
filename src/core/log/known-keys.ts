// The keys (and forwarding targets' tokens) this process has held, so the log can take them out of
// every line: the key store wrapped to remember each key that goes in or comes out. A key passes
// through here before any client or log line can see it (the controller gets its keys only from the store).
import { storedTargetSecrets } from '../forward/target-secrets'
import { decodeBoundKey } from '../secrets/custody'
import type { SecretStore } from '../secrets/types'

export interface KnownKeys {
  store: SecretStore
  /** Every key seen in this run (removed keys too: a line may still quote one). */
  list(): string[]
  /** A key that did not come through the store (e.g. the demo's). */
  add(key: string): void
}

export function rememberKeys(inner: SecretStore): KnownKeys {
  const keys = new Set<string>()
  // A stored entry holds the key with its origin (core/secrets/custody.ts): the key is what a line
  // may quote. A forwarding target's entry holds its URL: each token in it, and its signing secret.
  const add = (stored: string | null): void => {
    const key = stored ? decodeBoundKey(stored)?.key : undefined
    if (key) keys.add(key)
  }
  const addTarget = (stored: string | null): void => {
    if (stored) for (const secret of storedTargetSecrets(stored)) keys.add(secret)
  }
  const store: SecretStore = {
    get backend() {
      return inner.backend
    },
    get detail() {
      return inner.detail
    },
    ...learning(inner, add),
    delete: (connectionId) => inner.delete(connectionId),
    has: (connectionId) => inner.has(connectionId),
    forwarding: { ...learning(inner.forwarding, addTarget), delete: (account) => inner.forwarding.delete(account) }
  }
  return { store, list: () => [...keys], add: (key) => void keys.add(key) }
}

/**
 * A store's reads, writes and listing, each telling `learn` the entry it passes. Listed entries
 * hold keys too (restoring connections reads them): remembered like any read.
 */
function learning<E extends { secret: string }>(
  inner: {
    get(id: string): Promise<string | null>
    set(id: string, value: string): Promise<void>
    list?(): Promise<E[]>
  },
  learn: (stored: string | null) => void
) {
  return {
    async get(id: string): Promise<string | null> {
      const stored = await inner.get(id)
      learn(stored)
      return stored
    },
    async set(id: string, value: string): Promise<void> {
      learn(value)
      await inner.set(id, value)
    },
    async list(): Promise<E[]> {
      const all = (await inner.list?.()) ?? []
      for (const { secret } of all) learn(secret)
      return all
    }
  }
}
