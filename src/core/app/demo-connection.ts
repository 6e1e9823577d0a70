// The demo's key is never stored, and its loopback port may belong to someone else after the run, so the connection
// a run left in config.json is removed at the next start, before anything is polled.
import type { Settings } from '../../shared/settings'
import { SERVICES } from '../providers/registry'
import type { KeyCustody } from '../secrets/custody'

export const DEMO_CONNECTION_ID = 'demo'

/** The demo's account of an agent service (Workser's is DEMO_CONNECTION_ID). */
export const demoConnectionId = (service: string): string => `${DEMO_CONNECTION_ID}-${service}`

/** Every id a demo's connection may have. */
const demoIds = (): string[] => [DEMO_CONNECTION_ID, ...SERVICES.map((s) => demoConnectionId(s.kind))]

/** Removes the demo connections an earlier run left behind, with their keys and what was seen; true if there were. */
export async function forgetLeftoverDemo(
  keys: KeyCustody,
  settings: () => Settings,
  update: (mutate: (draft: Settings) => void) => Promise<Settings>,
  forgetLastSeen: (connectionId: string) => Promise<void>
): Promise<boolean> {
  const ids = demoIds()
  // Earlier versions stored the demo's key: gone from every store whether or not the connection is there.
  let hadKey = false
  for (const id of ids) hadKey = (await keys.delete(id)) || hadKey
  const left = ids.filter((id) => settings().connections.some((c) => c.id === id))
  if (left.length === 0) return hadKey
  await update((draft) => {
    draft.connections = draft.connections.filter((c) => !left.includes(c.id))
    for (const id of left) {
      delete draft.watched[id]
      delete draft.attention[id]
      delete draft.connectionNotifications[id]
    }
    if (draft.activeConnectionId !== null && left.includes(draft.activeConnectionId))
      draft.activeConnectionId = draft.connections[0]?.id ?? null
  })
  for (const id of left) await forgetLastSeen(id)
  return true
}
