// A core notification as the desktop shows it: the OS options and what a click opens.
import type { Notification } from '../notify/policy'

export interface DesktopNotification {
  /** Options for Electron's `new Notification(...)`. */
  options: { title: string; body: string; silent: boolean }
  /** What a click opens: the task when there is one, else the window. */
  click: { type: 'task'; projectId: string; taskId: string; connectionId?: string } | { type: 'window' }
}

// Notification servers cut or drop overlong text differently; keep it readable everywhere.
const MAX_TITLE = 120
const MAX_BODY = 400

export function toDesktopNotification(n: Notification, prefs: { sound: boolean }): DesktopNotification {
  const title = clip(oneLine(n.title) || 'Agent Tray', MAX_TITLE)
  const body = clip(n.body.trim(), MAX_BODY)
  const click: DesktopNotification['click'] =
    n.projectId && n.taskId
      ? { type: 'task', projectId: n.projectId, taskId: n.taskId, ...(n.connectionId !== undefined ? { connectionId: n.connectionId } : {}) }
      : { type: 'window' }
  return { options: { title, body, silent: !prefs.sound }, click }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
