// What each platform adds to a notification, decided here so main only passes it on: on Linux a
// failure is critical (it stays until dismissed); on macOS a completed task offers 'Open the agent
// interface' (Electron shows actions only there, and only for a signed app).
import type { Notification } from '../notify/policy'

export const OPEN_INTERFACE_ACTION = 'Open the agent interface'

export interface NotificationExtras {
  urgency?: 'normal' | 'critical' | 'low'
  actions?: { type: 'button'; text: string }[]
  /** What the first action opens. */
  action?: { type: 'open-interface'; projectId: string }
}

export function notificationExtras(n: Notification, platform: string, options: { hasInterface: (projectId: string) => boolean }): NotificationExtras {
  const extras: NotificationExtras = {}
  if (platform === 'linux') extras.urgency = n.outcome === 'failed' ? 'critical' : 'normal'
  if (platform === 'darwin' && n.outcome === 'completed' && n.projectId !== undefined && options.hasInterface(n.projectId)) {
    extras.actions = [{ type: 'button', text: OPEN_INTERFACE_ACTION }]
    extras.action = { type: 'open-interface', projectId: n.projectId }
  }
  return extras
}
