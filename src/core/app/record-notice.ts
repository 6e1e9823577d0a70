// What the window is told when the service sent a record the client could not read and skipped.
import type { InvalidRecordIssue } from '../client/parse'

/** Least time between two notices about skipped records of one kind (tasks, steps, usage records). */
export const INVALID_RECORD_NOTICE_MS = 60_000

const RECORD_NAMES: Record<InvalidRecordIssue['resource'], string> = { task: 'a task', step: 'a step', usage: 'a usage record' }

/** Shortened, one line: the id comes from the service. */
const shortText = (text: string, max = 60): string => {
  const oneLine = text.replace(/\s+/g, ' ')
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine
}

export function invalidRecordNotice(issue: InvalidRecordIssue): string {
  const id = issue.id === undefined ? '' : ` ${JSON.stringify(shortText(issue.id))}`
  return `The service sent ${RECORD_NAMES[issue.resource]}${id} that could not be read (${issue.path}: ${shortText(issue.message, 120)}); it was left out, the rest is shown.`
}
