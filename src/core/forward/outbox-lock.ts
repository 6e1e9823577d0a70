// One writer at a time: the app and `watch --forward` on one state directory would send the same queue twice. A holder
// that died frees the lock once STALE_MS old.
import fs from 'node:fs'
import path from 'node:path'
import lockfile from 'proper-lockfile'

/** A lock not refreshed this long is a dead holder's (proper-lockfile refreshes it every half of it). */
const STALE_MS = 10_000
/** How often the app tries again to take forwarding over while the command holds it. */
export const OUTBOX_LOCK_RETRY_MS = 15_000

export const FORWARDING_ELSEWHERE =
  'Forwarding is already running in another Agent Tray process (the app or `agent-tray watch --forward`)'
/** The command's refusal: it does not forward beside the app. */
export const FORWARDING_ELSEWHERE_COMMAND = `${FORWARDING_ELSEWHERE}; quit it, or watch without --forward: the app forwards what it watches.`
/** A target's status in the app while the command forwards. */
export const FORWARDING_ELSEWHERE_APP = `${FORWARDING_ELSEWHERE}; this app takes it over once that stops.`

/** Whether a live process holds the outbox (a dead holder's lock counts once STALE_MS old, as for a taker). */
export function outboxLocked(file: string): Promise<boolean> {
  return lockfile.check(file, { realpath: false, stale: STALE_MS })
}

export interface OutboxLock {
  release(): Promise<void>
}

/** Takes the outbox's lock, or null while another process holds it. `onLost`: it was lost later (a sleep longer than STALE_MS). */
export async function lockOutbox(file: string, onLost: (error: Error) => void): Promise<OutboxLock | null> {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  try {
    const release = await lockfile.lock(file, { realpath: false, stale: STALE_MS, retries: 0, onCompromised: onLost })
    return { release: () => release().catch(() => undefined) }
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ELOCKED') return null
    throw error
  }
}
