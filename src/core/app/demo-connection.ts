// The demo's key is never stored, and its loopback port may belong to someone else after the run, so the connection
// a run left in config.json is removed at the next start, before anything is polled.
import type { Settings } from '../../shared/settings'
import type { KeyCustody } from '../secrets/custody'

export const DEMO_CONNECTION_ID = 'demo'

/** Removes a demo connection an earlier run left behind, with its key and what was seen; true if there was one. */
export async function forgetLeftoverDemo(
  keys: KeyCustody,
  settings: () => Settings,
  update: (mutate: (draft: Settings) => void) => Promise<Settings>,
  forgetLastSeen: (connectionId: string) => Promise<void>
): Promise<boolean> {
  // Earlier versions stored the demo's key: gone from every store whether or not the connection is there.
  const hadKey = await keys.delete(DEMO_CONNECTION_ID)
  if (!settings().connections.some((c) => c.id === DEMO_CONNECTION_ID)) return hadKey
  await update((draft) => {
    draft.connections = draft.connections.filter((c) => c.id !== DEMO_CONNECTION_ID)
    delete draft.watched[DEMO_CONNECTION_ID]
    delete draft.attention[DEMO_CONNECTION_ID]
    delete draft.connectionNotifications[DEMO_CONNECTION_ID]
    if (draft.activeConnectionId === DEMO_CONNECTION_ID) draft.activeConnectionId = draft.connections[0]?.id ?? null
  })
  await forgetLastSeen(DEMO_CONNECTION_ID)
  return true
}
