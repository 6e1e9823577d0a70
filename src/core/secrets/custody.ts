// A key may go only to the origin it was given for: each entry holds the key with its origin in one write, so whoever
// can write config.json cannot point a connection elsewhere and have the key sent there.
import { parseBaseUrl } from '../../shared/base-url'
import { connectionIdProblem } from '../../shared/ids'
import type { SecretStore } from './types'

/** What one stored entry holds. */
export interface BoundKey {
  origin: string
  baseUrl: string
  key: string
}

const FORMAT = 'agent-tray-key/1'

export function encodeBoundKey(bound: BoundKey): string {
  return JSON.stringify({ format: FORMAT, origin: bound.origin, baseUrl: bound.baseUrl, key: bound.key })
}

/** Bound, or a plain key an earlier version stored (origin unknown); null for JSON that is not ours (a forwarding
 * target's entry, say). */
export function decodeBoundKey(stored: string): BoundKey | { origin: null; key: string } | null {
  let v: unknown
  try {
    v = JSON.parse(stored)
  } catch {
    return { origin: null, key: stored } // Not JSON: a plain key, even one that starts with '{'.
  }
  // JSON by chance (a key of digits, say) is a plain key; a string or a list is JSON-shaped, no key.
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return { origin: null, key: stored }
  if (typeof v !== 'object' || Array.isArray(v)) return null
  const o = v as Record<string, unknown>
  if (
    o.format === FORMAT &&
    typeof o.origin === 'string' &&
    typeof o.baseUrl === 'string' &&
    typeof o.key === 'string'
  ) {
    return { origin: o.origin, baseUrl: o.baseUrl, key: o.key }
  }
  return null
}

function originOf(baseUrl: string): string {
  const parsed = parseBaseUrl(baseUrl)
  if (!parsed.ok) throw new Error(`Not a service address: ${parsed.problem}`)
  return parsed.origin
}

/** A stored key that is not sent for this connection: the window and the command ask for a key again. */
export class KeyNotSentError extends Error {
  // Stryker disable next-line StringLiteral: equivalent, only its subclasses are made, and each sets its own name
  override name = 'KeyNotSentError'
}

/** A connection's address in config.json is not where its key was given: the key is not sent. */
export class KeyOriginChangedError extends KeyNotSentError {
  override name = 'KeyOriginChangedError'
  constructor(
    readonly storedOrigin: string,
    readonly origin: string
  ) {
    super(
      `Its address changed from ${storedOrigin} to ${origin}; its API key was given for ${storedOrigin} and is not sent anywhere else.`
    )
  }
}

/** The connection's entry holds something other than an API key: it is neither sent nor bound. */
export class NotAnApiKeyError extends KeyNotSentError {
  override name = 'NotAnApiKeyError'
  constructor(readonly connectionId: string) {
    super(
      `The key store's entry for "${connectionId}" is not an API key, so it is not sent anywhere; give this connection its key again.`
    )
  }
}

/** An id that no connection may have (shared/ids.ts): its account in the key store is not touched. */
export class ConnectionIdError extends Error {
  override name = 'ConnectionIdError'
}

function checkConnectionId(connectionId: string): string {
  const problem = connectionIdProblem(connectionId)
  if (problem !== null)
    throw new ConnectionIdError(
      `Not a connection id: ${JSON.stringify(connectionId.slice(0, 80))} ${problem}; no key is read or stored for it.`
    )
  return connectionId
}

/** A stored entry, without its key. */
export interface StoredEntry {
  connectionId: string
  origin: string
  baseUrl: string
}

export interface KeyCustody {
  /** null when none is kept; KeyOriginChangedError for another origin, NotAnApiKeyError when the entry is no key,
   * ConnectionIdError for an id no connection may have. */
  get(connectionId: string, baseUrl: string): Promise<string | null>
  set(connectionId: string, baseUrl: string, apiKey: string): Promise<void>
  /** Keeps a key in memory for this run only, stored nowhere (the demo's); `delete` forgets it. */
  holdForSession(connectionId: string, baseUrl: string, apiKey: string): void
  has(connectionId: string): Promise<boolean>
  delete(connectionId: string): Promise<boolean>
  /** The entries that know their origin (an entry from before origins were kept knows none). Empty where the store cannot list. */
  entries(): Promise<StoredEntry[]>
  /** Removes every key given for `baseUrl`'s origin; returns their connection ids. */
  deleteOrigin(baseUrl: string): Promise<string[]>
}

/** A plain key an earlier version stored is bound on first read to its connection's origin then: config.json is
 * trusted that once. */
export function keyCustody(
  store: Pick<SecretStore, 'get' | 'set' | 'delete' | 'list'> & Partial<Pick<SecretStore, 'has'>>,
  /** Other places a key may have been left (safeStorage ciphertexts in config.json): a removed key goes from these too. */
  leftovers: readonly { delete(connectionId: string): Promise<boolean> }[] = []
): KeyCustody {
  async function entries(): Promise<StoredEntry[]> {
    // Stryker disable next-line ArrayDeclaration: equivalent, a stand-in text has no secret, which decodes as no bound key: not listed either way
    const all = (await store.list?.()) ?? []
    const out: StoredEntry[] = []
    for (const { connectionId, secret } of all) {
      // An account no connection may have (a forwarding entry left in this service) is no connection to restore.
      if (connectionIdProblem(connectionId) !== null) continue
      const bound = decodeBoundKey(secret)
      if (bound !== null && bound.origin !== null)
        out.push({ connectionId, origin: bound.origin, baseUrl: bound.baseUrl })
    }
    return out
  }
  const set = async (connectionId: string, baseUrl: string, key: string): Promise<void> =>
    store.set(checkConnectionId(connectionId), encodeBoundKey({ origin: originOf(baseUrl), baseUrl, key }))
  const held = new Map<string, string>()
  return {
    async get(connectionId, baseUrl) {
      checkConnectionId(connectionId)
      const stored = held.get(connectionId) ?? (await store.get(connectionId))
      if (stored === null) return null
      const origin = originOf(baseUrl)
      const bound = decodeBoundKey(stored)
      if (bound === null) throw new NotAnApiKeyError(connectionId)
      if (bound.origin === null) {
        await set(connectionId, baseUrl, bound.key)
        return bound.key
      }
      if (bound.origin !== origin) throw new KeyOriginChangedError(bound.origin, origin)
      return bound.key
    },
    set,
    holdForSession(connectionId, baseUrl, key) {
      held.set(checkConnectionId(connectionId), encodeBoundKey({ origin: originOf(baseUrl), baseUrl, key }))
    },
    has: async (connectionId) =>
      held.has(checkConnectionId(connectionId)) ||
      (store.has ? store.has(connectionId) : (await store.get(connectionId)) !== null),
    delete: async (connectionId) => {
      const wasHeld = held.delete(checkConnectionId(connectionId))
      let removed = await store.delete(connectionId)
      for (const other of leftovers) removed = (await other.delete(connectionId)) || removed
      return removed || wasHeld
    },
    entries,
    async deleteOrigin(baseUrl) {
      const origin = originOf(baseUrl)
      const removed: string[] = []
      for (const entry of await entries()) {
        if (entry.origin === origin && (await store.delete(entry.connectionId))) removed.push(entry.connectionId)
      }
      return removed
    }
  }
}
