// A core notification as the desktop shows it: the OS options and what a click opens.

/** The policy's notification, structurally (core/notify owns the type). */
export interface NotificationInput {
  title: string
  body: string
  projectId?: string
  taskId?: string
  kind: string
}

export interface DesktopNotification {
  /** Options for Electron's `new Notification(...)`. */
  options: { title: string; body: string; silent: boolean; urgency: 'normal' | 'critical' }
  /** What a click opens: the task when there is one, else the window. */
  click: { type: 'task'; projectId: string; taskId: string } | { type: 'window' }
  /** The payload of the window's 'notification:shown' event. */
  shown: { title: string; body: string; projectId?: string; taskId?: string }
}

// Notification servers cut or drop overlong text differently; keep it readable everywhere.
const MAX_TITLE = 120
const MAX_BODY = 400

export function toDesktopNotification(n: NotificationInput, prefs: { sound: boolean }): DesktopNotification {
  const title = clip(oneLine(n.title) || 'Agent Tray', MAX_TITLE)
  const body = clip(n.body.trim(), MAX_BODY)
  const click =
    n.projectId && n.taskId
      ? ({ type: 'task', projectId: n.projectId, taskId: n.taskId } as const)
      : ({ type: 'window' } as const)
  const shown: DesktopNotification['shown'] = { title, body }
  if (n.projectId) shown.projectId = n.projectId
  if (n.taskId) shown.taskId = n.taskId
  return {
    // A failure stays on screen until seen (Linux); everything else may time out.
    options: { title, body, silent: !prefs.sound, urgency: /fail/i.test(n.kind) ? 'critical' : 'normal' },
    click,
    shown
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
