// What is news in an account's fresh task list against what was last seen: a task that starts waiting for you (told
// once per question, across restarts, since the last seen state is stored) and a task that changes status.
import { createHash } from 'node:crypto'
import type { ProviderStatus, ProviderTask, Waiting } from '../../shared/provider'

/** What is kept of a task between polls (state.json): its status and, while it waits, which question was told. */
export interface SeenAgentTask {
  status: ProviderStatus
  /** The told question's identity (`waitingKey`), or null when not waiting. */
  waiting: string | null
}

export type SeenAgentTasks = Record<string, SeenAgentTask>

export type AgentTaskChange =
  | { kind: 'waiting'; task: ProviderTask; waiting: Waiting }
  | { kind: 'status'; task: ProviderTask; from: ProviderStatus | null }

/** A question's identity: its kind and a digest of what is asked, so a new question on the same task is told again. */
export function waitingKey(waiting: Waiting): string {
  const digest = createHash('sha256')
    .update(waiting.text ?? '')
    .digest('hex')
    .slice(0, 16)
  return `${waiting.kind}:${digest}`
}

/**
 * The changes from `seen` to `tasks`, and what to keep. With `seen` null (the account's first poll), only what waits
 * for you is told: the rest is the baseline. A task missing from the list is forgotten, not told.
 */
export function agentTaskChanges(
  seen: SeenAgentTasks | null,
  tasks: readonly ProviderTask[]
): { changes: AgentTaskChange[]; seen: SeenAgentTasks } {
  const changes: AgentTaskChange[] = []
  const next: SeenAgentTasks = {}
  for (const task of tasks) {
    const before = seen?.[task.id]
    const key = task.status === 'waiting' && task.waiting !== null ? waitingKey(task.waiting) : null
    next[task.id] = { status: task.status, waiting: key }
    if (key !== null && task.waiting !== null) {
      if (before?.waiting !== key) changes.push({ kind: 'waiting', task, waiting: task.waiting })
      continue
    }
    if (seen === null) continue
    if (before === undefined) {
      // A task that appeared between polls and already ended is news; one that just started is told by its end.
      if (task.status !== 'queued' && task.status !== 'running') changes.push({ kind: 'status', task, from: null })
    } else if (before.status !== task.status) {
      changes.push({ kind: 'status', task, from: before.status })
    }
  }
  return { changes, seen: next }
}
