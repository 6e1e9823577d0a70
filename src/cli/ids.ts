// Project and task ids go into URL paths. What could never be one is refused here, as a usage
// error, before anything is sent: the client refuses it too, but as if the service had.
import { usageError } from './errors'

export const MAX_ID_LENGTH = 200

// C0 and C1 control characters, DEL included: never part of an id, and unsafe to echo.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

function problemOf(value: string): string | null {
  if (value === '') return 'it is empty'
  if (value === '.' || value === '..') return 'it cannot be . or ..'
  if (CONTROL.test(value)) return 'it has control characters'
  if (value.length > MAX_ID_LENGTH) return `it is longer than ${MAX_ID_LENGTH} characters`
  return null
}

/** Returns the id, or throws a usage error naming it (escaped and shortened, so it prints safely). */
export function checkId(value: string, what: 'project' | 'task'): string {
  const problem = problemOf(value)
  if (problem === null) return value
  const shown = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
  throw usageError(`Not a ${what} id: ${shown} (${problem}).`)
}

export function checkIds(values: readonly string[], what: 'project' | 'task'): string[] {
  return values.map((value) => checkId(value, what))
}
