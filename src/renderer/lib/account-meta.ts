// An account's one meta line in Settings: where it points, whether a key is stored, where its sites
// are published, and whether its notifications are muted or paused (with the one date format).
import { formatDate } from '../../shared/format'
import type { ConnectionView } from '../../shared/ipc'

export function accountMeta(
  connection: Pick<ConnectionView, 'baseUrl' | 'hasKey' | 'publishingDomain' | 'notifications'>,
  now: Date | number,
  timeZone?: string
): string {
  const host = URL.parse(connection.baseUrl)?.host || connection.baseUrl
  const n = connection.notifications
  return [
    host,
    connection.hasKey ? 'key stored' : 'no key stored',
    connection.publishingDomain ? `sites on ${connection.publishingDomain}` : null,
    n.muted ? 'muted' : null,
    n.pausedUntil ? `paused until ${formatDate(n.pausedUntil, now, timeZone)}` : null
  ]
    .filter((part) => part !== null)
    .join(' · ')
}
