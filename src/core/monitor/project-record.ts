// One record per watched project, so unwatching drops all its state at once; what outlives an unwatch is listed in
// ARCHITECTURE.md ("The monitor's state").
import type { CompactProjectSnapshot, ProjectHealth } from '../../shared/monitor'
import type { Task } from '../../shared/service'
import { newScheduleEntry, type ScheduleEntry } from './scheduler'
import type { ProjectSummary } from './summary'

export interface PollWaiter {
  /** The poll must have started at or after this number. */
  minSeq: number
  resolve: () => void
}

/** The records are the scheduler's timetable, so polling a thousand projects walks one map, not two. */
export interface ProjectRecord extends ScheduleEntry {
  /** The last seen state, persisted; none until the first successful poll of a project new to this run. */
  snapshot: CompactProjectSnapshot | undefined
  /** The snapshot is from before this run: the next changes found are told as "While you were away". */
  away: boolean
  /** Counts, latest activity and prices, after the first successful poll. */
  summary: ProjectSummary | undefined
  /** The ETag of the list the snapshot was taken from. */
  etag: string | null
  health: ProjectHealth
  /** The full task list, only while the project is focused or lately loaded (see keepList). */
  list: { tasks: Task[]; usedAt: number } | undefined
  /** The number of the latest poll started, and how to abort it (which does nothing once it has ended). */
  pollSeq: number
  poll: AbortController | null
  /** pollNow callers, waiting for a poll of this project to finish. */
  waiters: PollWaiter[]
}

/** A project just watched: it polls right away; `snapshot` is its last seen state from a former run. */
export function newProjectRecord(projectId: string, now: number, snapshot?: CompactProjectSnapshot): ProjectRecord {
  return {
    ...newScheduleEntry(projectId, now),
    snapshot,
    away: snapshot !== undefined,
    summary: undefined,
    etag: null,
    health: { state: 'unknown' },
    list: undefined,
    pollSeq: 0,
    poll: null,
    waiters: []
  }
}

/** Lets go the waiters a finished poll numbered `seq` satisfies (Infinity: all of them). */
export function releaseWaiters(record: ProjectRecord, seq: number): void {
  const done = record.waiters.filter((w) => w.minSeq <= seq)
  if (done.length === 0) return
  record.waiters = record.waiters.filter((w) => w.minSeq > seq)
  for (const w of done) w.resolve()
}

/** Full task lists are big, so at most `capacity` records keep one (LRU); the others keep their summary. */
export class KeptLists {
  private uses = 0

  constructor(
    private readonly records: ReadonlyMap<string, ProjectRecord>,
    private readonly capacity: number
  ) {
    if (!(capacity >= 1)) throw new RangeError('at least one task list must be kept')
  }

  keep(record: ProjectRecord, tasks: Task[]): void {
    record.list = { tasks, usedAt: ++this.uses }
    let held = 0
    let oldest: ProjectRecord | undefined
    for (const r of this.records.values()) {
      if (!r.list) continue
      held++
      if (!oldest || r.list.usedAt < (oldest.list?.usedAt ?? 0)) oldest = r
    }
    if (held > this.capacity && oldest) oldest.list = undefined
  }

  /** The kept list, counted as a use. */
  use(record: ProjectRecord): Task[] | undefined {
    if (!record.list) return undefined
    record.list.usedAt = ++this.uses
    return record.list.tasks
  }
}
