// Every key and target token this process holds passes through the wrapped store first, so the log can take each out
// of every line before any client or log line sees it.
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

// Listed entries hold keys too (restoring connections reads them), so they are remembered like any read.
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
