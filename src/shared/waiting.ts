// How every surface says that a task waits for you (notifications, forwarding, the tray): one wording per kind of
// answer, and what is asked cut to one safe line, since it is the service's untrusted text.
import { escapeUnsafeCharacters } from './controls'
import type { WaitingKind } from './provider'

/** What the person is asked to do, before the task's name. */
export const WAITING_VERBS: Record<WaitingKind, string> = {
  plan_approval: 'approve the plan for',
  question: 'answer a question on',
  permission: 'give a permission on'
}

/** What is asked, at most this many characters (a plan can be pages long; a notification shows a few lines). */
export const MAX_ASKED_LENGTH = 200

/** "approve the plan for 'Add dark mode'" */
export function waitingPhrase(kind: WaitingKind, taskName: string): string {
  return `${WAITING_VERBS[kind]} '${oneSafeLine(taskName)}'`
}

/** "Jules needs you: approve the plan for 'Add dark mode'" */
export function needsYouTitle(serviceName: string, kind: WaitingKind, taskName: string): string {
  return `${oneSafeLine(serviceName)} needs you: ${waitingPhrase(kind, taskName)}`
}

/** "Jules · Personal": the service and the account, where a task of another service is named. */
export function agentPlace(serviceName: string, accountName: string): string {
  return `${oneSafeLine(serviceName)} · ${oneSafeLine(accountName)}`
}

/** What is asked as one line: whitespace runs made one space, trimmed, cut at a code point with '…', and any control
 * or bidi character left written out (shared/controls.ts, as for task names); null when nothing is asked. */
export function askedLine(text: string | null): string | null {
  if (text === null) return null
  const line = text.replace(/\s+/g, ' ').trim()
  if (line === '') return null
  const points = Array.from(line)
  const cut = points.length > MAX_ASKED_LENGTH ? `${points.slice(0, MAX_ASKED_LENGTH - 1).join('')}…` : line
  return escapeUnsafeCharacters(cut)
}

function oneSafeLine(text: string): string {
  return escapeUnsafeCharacters(text.replace(/\s+/g, ' ').trim())
}
