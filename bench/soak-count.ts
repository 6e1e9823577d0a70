// The soak's verdict: every task transition the reference service recorded against the
// notifications the app showed. A notification counts once for each task it tells of (a summary
// or a "While you were away" names them all in `taskIds`); a task told twice is a repeat, a
// transition never told is missed, and a task told that the service never ended is unexpected.
import type { Notification } from '../src/core/notify/policy'
import type { NotifiableTransition } from '../src/shared/settings'

/** One task's end, as the service recorded it. */
export interface ServiceTransition {
  taskId: string
  to: Extract<NotifiableTransition, 'completed' | 'failed' | 'cancelled'>
}

export interface SoakCount {
  expected: number
  told: number
  missed: string[]
  /** Task ids told more than once, each as often as it was told beyond the first. */
  repeated: string[]
  unexpected: string[]
  /** Told as one task's notification with another outcome than the service recorded. */
  wrongOutcome: string[]
}

/** The tasks a notification tells of. */
export function tasksTold(n: Notification): string[] {
  if (n.taskIds) return n.taskIds
  return n.taskId === undefined ? [] : [n.taskId]
}

export function countSoak(
  transitions: readonly ServiceTransition[],
  notifications: readonly Notification[]
): SoakCount {
  const times = new Map<string, number>()
  const outcomes = new Map<string, string[]>()
  for (const n of notifications) {
    for (const taskId of tasksTold(n)) times.set(taskId, (times.get(taskId) ?? 0) + 1)
    if (n.taskId !== undefined && n.outcome !== undefined)
      outcomes.set(n.taskId, [...(outcomes.get(n.taskId) ?? []), n.outcome])
  }
  const recorded = new Map(transitions.map((t) => [t.taskId, t.to]))
  const repeated: string[] = []
  for (const [taskId, n] of times) for (let i = 1; i < n; i++) repeated.push(taskId)
  return {
    expected: transitions.length,
    told: times.size,
    missed: transitions.filter((t) => !times.has(t.taskId)).map((t) => t.taskId),
    repeated,
    unexpected: [...times.keys()].filter((taskId) => !recorded.has(taskId)),
    wrongOutcome: [...outcomes]
      .filter(([taskId, said]) => recorded.has(taskId) && said.some((o) => o !== recorded.get(taskId)))
      .map(([taskId]) => taskId)
  }
}
