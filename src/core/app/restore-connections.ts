// A damaged config.json loses connections but their keys stay in the keychain with their address, so at start each
// lost one is stored again (named after its host) and said in the notices.
import { connectionAt } from '../../shared/base-url'
import type { Settings } from '../../shared/settings'
import type { KeyCustody } from '../secrets/custody'

/** Restores every connection whose key the store keeps and config.json lost; returns the notices to show. */
export async function restoreLostConnections(
  keys: KeyCustody,
  settings: () => Settings,
  update: (mutate: (draft: Settings) => void) => Promise<Settings>,
  /** Never restored: connections that live for one run only (the demo's). */
  transient: ReadonlySet<string>
): Promise<string[]> {
  const known = new Set(settings().connections.map((c) => c.id))
  const lost = (await keys.entries()).filter((e) => !known.has(e.connectionId) && !transient.has(e.connectionId))
  if (lost.length === 0) return []
  await update((draft) => {
    for (const entry of lost) {
      if (draft.connections.some((c) => c.id === entry.connectionId)) continue
      draft.connections.push(connectionAt(entry.connectionId, entry.baseUrl))
      draft.watched[entry.connectionId] ??= []
    }
    draft.activeConnectionId ??= draft.connections[0]?.id ?? null
  })
  return lost.map(
    (e) => `Restored the connection to ${e.baseUrl} from the keychain: config.json had lost it. Add its projects again.`
  )
}
