// Records the client had to skip (a broken task, step or usage record) are said on stderr, one
// line each, so a list that looks short is never silently short, and the command then exits 6
// (program.ts). Once per record per run: `watch` would otherwise repeat the same line every poll.
import type { InvalidRecordIssue } from '../core/client'
import type { CliIo } from './io'
import { oneLine } from './table'

const MAX_ID = 60

/** How many of the run's skipped records were of this kind. */
export function skippedOf(skipped: readonly InvalidRecordIssue[], resource: InvalidRecordIssue['resource']): number {
  return skipped.filter((i) => i.resource === resource).length
}

/**
 * "skipped task #3 (id x): [3].steps[2].id: expected a string": #n is the record's place in its list,
 * from 0, as in the path. On one line; control characters are escaped on the way out (guardedIo).
 */
export function describeInvalidRecord(issue: InvalidRecordIssue): string {
  const id = issue.id === undefined ? '' : ` (id ${oneLine(issue.id, MAX_ID + 1)})`
  return `skipped ${issue.resource} #${issue.index}${id}: ${oneLine(issue.path, 200)}: ${oneLine(issue.message, 200)}`
}

/**
 * The client's onInvalidRecord for this run: a line on stderr (a JSON line with --json) per skipped
 * record, each also added to `skipped` (the run's list, which decides its exit code).
 */
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
