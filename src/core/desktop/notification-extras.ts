// On Linux a failure, or a task waiting for you, is critical (it stays until dismissed); macOS shows actions only for
// a signed app.
import type { Notification } from '../notify/policy'

export const OPEN_INTERFACE_ACTION = 'Open the agent interface'

/** A watched project whose agent interface may be opened; without `connectionId`, on any account. */
export interface InterfaceRef {
  projectId: string
  connectionId?: string
}

export interface NotificationExtras {
  urgency?: 'normal' | 'critical' | 'low'
  actions?: { type: 'button'; text: string }[]
  /** What the first action opens. */
  action?: { type: 'open-interface'; projectId: string; connectionId?: string }
}

export function notificationExtras(
  n: Notification,
  platform: string,
  options: { hasInterface: (project: InterfaceRef) => boolean }
): NotificationExtras {
  const extras: NotificationExtras = {}
  if (platform === 'linux') extras.urgency = n.outcome === 'failed' || n.outcome === 'waiting' ? 'critical' : 'normal'
  if (platform === 'darwin' && n.outcome === 'completed' && n.projectId !== undefined) {
    // The project on the account the notification is about: two accounts may watch one project id.
    const project: InterfaceRef =
      n.connectionId === undefined
        ? { projectId: n.projectId }
        : { projectId: n.projectId, connectionId: n.connectionId }
    if (options.hasInterface(project)) {
      extras.actions = [{ type: 'button', text: OPEN_INTERFACE_ACTION }]
      extras.action = { type: 'open-interface', ...project }
    }
  }
  return extras
}
