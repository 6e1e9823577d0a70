// Skipped records are said on stderr, so a short list is never silently short, and the run exits 6; once per record
// per run, or `watch` would repeat them every poll.
import type { InvalidRecordIssue } from '../core/client'
import type { CliIo } from './io'
import { oneLine } from './table'

const MAX_ID = 60

/** How many of the run's skipped records were of this kind. */
export function skippedOf(skipped: readonly InvalidRecordIssue[], resource: InvalidRecordIssue['resource']): number {
  return skipped.filter((i) => i.resource === resource).length
}

/** One line naming the record's place in its list, from 0 as in the path. */
export function describeInvalidRecord(issue: InvalidRecordIssue): string {
  const id = issue.id === undefined ? '' : ` (id ${oneLine(issue.id, MAX_ID + 1)})`
  return `skipped ${issue.resource} #${issue.index}${id}: ${oneLine(issue.path, 200)}: ${oneLine(issue.message, 200)}`
}

/** A line per skipped record on stderr, each also added to `skipped`, which decides the run's exit code. */
export function invalidRecordWarner(
  stderr: CliIo['stderr'],
  json: boolean,
  skipped: InvalidRecordIssue[] = []
): (issue: InvalidRecordIssue) => void {
  const seen = new Set<string>()
  return (issue) => {
    const key = `${issue.resource}\u0000${issue.id ?? `#${issue.index}`}\u0000${issue.path}`
    if (seen.has(key)) return
    seen.add(key)
    skipped.push(issue)
    const warning = describeInvalidRecord(issue)
    stderr.write(json ? `${JSON.stringify({ warning, ...issue })}\n` : `agent-tray: warning: ${warning}\n`)
  }
}
