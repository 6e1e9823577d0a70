// Task and project names come from the service, so what could act rather than show is made inert here, for every
// platform.
import { escapeUnsafeCharacters } from '../../shared/controls'
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

/** On Linux many notification servers parse the body as markup, so a name with '<' could break it or add a link. The
 * title is plain by the specification (escaping it would show "&amp;"), so it is left alone. */
export function bodyIsMarkup(platform: string): boolean {
  return platform === 'linux'
}

/** The three characters markup gives a meaning to, as entities. */
export function escapeMarkup(text: string): string {
  return text.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'))
}

export function toDesktopNotification(
  n: Notification,
  prefs: { sound: boolean },
  platform: string
): DesktopNotification {
  const title = clip(escapeUnsafeCharacters(oneLine(n.title)) || 'Agent Tray', MAX_TITLE)
  const body = clip(escapeUnsafeCharacters(n.body.trim(), { keepNewlines: true }), MAX_BODY)
  // Another service's task may have no project (''): its account and id find it.
  const click: DesktopNotification['click'] =
    n.taskId && (n.projectId || (n.service !== undefined && n.connectionId !== undefined))
      ? { type: 'task', projectId: n.projectId ?? '', taskId: n.taskId, connectionId: n.connectionId }
      : { type: 'window' }
  return { options: { title, body: bodyIsMarkup(platform) ? escapeMarkup(body) : body, silent: !prefs.sound }, click }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
