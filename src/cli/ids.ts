// Project and task ids go into URL paths. What could never be one (src/shared/ids.ts) is refused
// here, as a usage error, before anything is sent.
import { idProblem } from '../shared/ids'
import { usageError } from './cli-error'

/** Returns the id, or throws a usage error naming it (escaped and shortened, so it prints safely). */
export function checkId(value: string, what: 'project' | 'task' | 'product'): string {
  const problem = idProblem(value)
  if (problem === null) return value
  const shown = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
  throw usageError(`Not a ${what} id: ${shown} (it ${problem}).`)
}

export function checkIds(values: readonly string[], what: 'project' | 'task'): string[] {
  return values.map((value) => checkId(value, what))
}
