// One-time notices the window lists: repaired settings files, and records the service sent that
// the client could not read and skipped.
import type { InvalidRecordIssue } from '../client/parse'

/** Least time between two notices about skipped records of one kind (tasks, steps, usage records). */
export const INVALID_RECORD_NOTICE_MS = 60_000

const RECORD_NAMES: Record<InvalidRecordIssue['resource'], string> = {
  project: 'a project',
  task: 'a task',
  step: 'a step',
  usage: 'a usage record'
}

/** Shortened, one line: the id comes from the service. */
const shortText = (text: string, max = 60): string => {
  const oneLine = text.replace(/\s+/g, ' ')
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine
}

export function invalidRecordNotice(issue: InvalidRecordIssue): string {
  const id = issue.id === undefined ? '' : ` ${JSON.stringify(shortText(issue.id))}`
  return `The service sent ${RECORD_NAMES[issue.resource]}${id} that could not be read (${issue.path}: ${shortText(issue.message, 120)}); it was left out, the rest is shown.`
}

export class Notices {
  readonly #texts: string[] = []
  /** Per resource kind, the notice about skipped records shown now and when it was made. */
  readonly #recordNotices = new Map<InvalidRecordIssue['resource'], { text: string; at: number }>()

  list(): string[] {
    return [...this.#texts]
  }

  add(texts: readonly string[]): void {
    this.#texts.push(...texts)
  }

  /** One notice per kind, replaced at most once a minute: a record broken on every poll neither floods the list nor
   * brings back a text the user dismissed. Returns whether the list changed. */
  reportInvalidRecord(issue: InvalidRecordIssue, now: number): boolean {
    const shown = this.#recordNotices.get(issue.resource)
    if (shown && now - shown.at < INVALID_RECORD_NOTICE_MS) return false
    const text = invalidRecordNotice(issue)
    const at = shown ? this.#texts.indexOf(shown.text) : -1
    if (at >= 0) this.#texts.splice(at, 1)
    if (!this.#texts.includes(text)) this.#texts.push(text)
    this.#recordNotices.set(issue.resource, { text, at: now })
    return true
  }
}
