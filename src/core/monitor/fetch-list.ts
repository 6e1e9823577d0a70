// Asks conditionally where it can (a 304 skips parse and diff), in full only when someone needs the list itself, else
// as digests.
import type { Task } from '../../shared/service'
import type { ListedTask } from './diff'
import type { TaskSource } from './types'

/** A poll's answer: unchanged (304), or the list, as digests or in full (then `full` is the list to keep). */
export type Fetched =
  { changed: false } | { changed: true; tasks: readonly ListedTask[]; full: Task[] | null; etag: string | null }

/** `etag`: of the list last taken in (null: none); `wantsFull`: the full list is kept, so no 304 either. */
export async function fetchList(
  source: TaskSource,
  projectId: string,
  options: { wantsFull: boolean; etag: string | null },
  signal: AbortSignal
): Promise<Fetched> {
  if (options.wantsFull || (!source.listTasksIfChanged && !source.listTaskDigestsIfChanged)) {
    // Unconditionally: a source that can answer 304 is here only when the list is wanted.
    const answer = source.listTasksIfChanged
      ? await source.listTasksIfChanged(projectId, null, signal)
      : { changed: true as const, tasks: await source.listTasks(projectId, signal), etag: null }
    return answer.changed ? { changed: true, tasks: answer.tasks, full: answer.tasks, etag: answer.etag } : answer
  }
  const answer: { changed: false } | { changed: true; tasks: readonly ListedTask[]; etag: string | null } =
    source.listTaskDigestsIfChanged
      ? await source.listTaskDigestsIfChanged(projectId, options.etag, signal)
      : await (source.listTasksIfChanged as NonNullable<TaskSource['listTasksIfChanged']>)(
          projectId,
          options.etag,
          signal
        )
  return answer.changed ? { changed: true, tasks: answer.tasks, full: null, etag: answer.etag } : answer
}
