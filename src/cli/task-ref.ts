// A task's id across accounts, as `now` prints it and `approve`/`reply` take it.
import { connectionIdProblem } from '../shared/ids'
import { usageError } from './cli-error'
import { checkId } from './ids'

/**
 * A task across accounts: `<account id>:<task id>`. An account id never holds ':' (the id rule), so the first ':'
 * splits it, and the whole passes the id rule too.
 */
export function taskRef(connectionId: string, taskId: string): string {
  return `${connectionId}:${taskId}`
}

export function parseTaskRef(ref: string): { connectionId: string; taskId: string } {
  checkId(ref, 'task')
  const at = ref.indexOf(':')
  const connectionId = at === -1 ? '' : ref.slice(0, at)
  const taskId = at === -1 ? '' : ref.slice(at + 1)
  if (connectionId === '' || taskId === '' || connectionIdProblem(connectionId) !== null)
    throw usageError(
      `Not a task id of \`agent-tray now\`: ${JSON.stringify(ref.slice(0, 60))} (it is ACCOUNT:TASK, as \`agent-tray now\` prints it).`
    )
  return { connectionId, taskId }
}
