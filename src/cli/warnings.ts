// Records the client had to skip (a broken task, step or usage record) are said on stderr, one
// line each, so a list that looks short is never silently short. Once per record per run: `watch`
// would otherwise repeat the same line on every poll.
import type { InvalidRecordIssue } from '../core/client'
import type { CliIo } from './io'
import { oneLine } from './table'

const MAX_ID = 60

/**
 * "skipped task #3 (id x): [3].steps[2].id: expected a string": #n is the record's place in its list,
 * from 0, as in the path. On one line; control characters are escaped on the way out (guardedIo).
 */
export function describeInvalidRecord(issue: InvalidRecordIssue): string {
  const id = issue.id === undefined ? '' : ` (id ${oneLine(issue.id, MAX_ID + 1)})`
  return `skipped ${issue.resource} #${issue.index}${id}: ${oneLine(issue.path, 200)}: ${oneLine(issue.message, 200)}`
}

/** The client's onInvalidRecord for this run: a line on stderr (a JSON line with --json) per skipped record. */
export function invalidRecordWarner(stderr: CliIo['stderr'], json: boolean): (issue: InvalidRecordIssue) => void {
  const seen = new Set<string>()
  return (issue) => {
    const key = `${issue.resource}\u0000${issue.id ?? `#${issue.index}`}\u0000${issue.path}`
    if (seen.has(key)) return
    seen.add(key)
    const warning = describeInvalidRecord(issue)
    stderr.write(json ? `${JSON.stringify({ warning, ...issue })}\n` : `agent-tray: warning: ${warning}\n`)
  }
}
