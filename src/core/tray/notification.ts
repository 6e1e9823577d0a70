// A core notification as the desktop shows it: the OS options and what a click opens. Task and
// project names come from the service, so what could act rather than show is made inert here, for
// every platform, and main only hands the result to Electron.
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

/**
 * Whether the body is read as markup. On Linux, Electron hands the body to libnotify as is, and
 * servers with the "body-markup" capability (GNOME, KDE, dunst, mako, xfce) parse it: a name with
 * '<' breaks or styles it, or adds a link. The summary (title) is plain text by the specification
 * and shown literally (escaping it would show "&amp;"), so it is left alone.
 */
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
  const click: DesktopNotification['click'] =
    n.projectId && n.taskId
      ? { type: 'task', projectId: n.projectId, taskId: n.taskId, connectionId: n.connectionId }
      : { type: 'window' }
  return { options: { title, body: bodyIsMarkup(platform) ? escapeMarkup(body) : body, silent: !prefs.sound }, click }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}
