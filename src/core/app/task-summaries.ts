// The monitor replaces a task list on each poll and never edits one in place, so summaries are cached per list:
// reopening a project of 10,000 tasks costs a lookup.
import type { Task } from '../../shared/service'
import { summarizeTask, type TaskSummary } from '../../shared/task-summary'

const made = new WeakMap<readonly Task[], TaskSummary[]>()

/** Shared between callers: send it, never change it. */
export function summariesOf(tasks: readonly Task[]): TaskSummary[] {
  let summaries = made.get(tasks)
  if (summaries === undefined) {
    summaries = tasks.map(summarizeTask)
    made.set(tasks, summaries)
  }
  return summaries
}
