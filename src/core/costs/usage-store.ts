// Usage records per task, kept so a restart downloads nothing again. An ended task's records are complete for good; an
// active task's only while its updated_at and total_price are unchanged.
import path from 'node:path'
import Conf from 'conf'
import type { CostUsage } from '../../shared/cost'
import { unaccountedUsd } from '../../shared/cost-period'
import type { Task } from '../../shared/service'
import { createLatestWriter } from '../app/latest-writer'
import { DocumentFile, settingsConfOptions } from '../settings/document-file'
import { checkSettingsFile, onFile } from '../settings/file-error'
import { inBackgroundWindow } from './background-window'
import {
  type CachedTaskUsages,
  compactUsage,
  interpretUsageCache,
  USAGE_CACHE_FILE,
  type UsageCacheDocument
} from './usage-cache-document'

/** About 250 bytes a record, so some tens of MB at worst; a dropped task is fetched again when a report needs it. */
export const MAX_CACHED_TASKS = 5_000

/** How often remembered tasks that have left the background window are forgotten (one no longer listed, e.g. its project unwatched, ages out). */
export const LISTED_SWEEP_MS = 60 * 60_000

/** Records offered for tasks not listed yet wait for their list only briefly: at most this many tasks' (the first offered go first). */
export const MAX_OFFERS = 1_000

/** What the store reads of a task: the list's task will do. */
export type UsageTask = Pick<Task, 'id' | 'project_id' | 'status' | 'updated_at' | 'total_price'>

export interface UsageStore {
  readonly path: string
  /** The records known for a task (possibly from before its last change), or undefined. */
  usages(connectionId: string, taskId: string): readonly CostUsage[] | undefined
  /** Whether the known records are all there will be for the task as it is now (no fetch needed). */
  isCurrent(connectionId: string, task: UsageTask): boolean
  /** Keeps records fetched after `task` was listed (so they are at least as new as it). */
  put(connectionId: string, task: UsageTask, usages: readonly CostUsage[]): void
  /** A project's fresh task list: records offered before it are stamped with it where they account for it. */
  noteTasks(connectionId: string, tasks: readonly UsageTask[]): void
  /** Records the monitor fetched anyway (its details): kept when they account for the task as last listed. */
  offerDetails(connectionId: string, taskId: string, usages: readonly CostUsage[]): void
  /** How many tasks' last listed state is remembered (see noteTasks for which): for tests and diagnostics. */
  readonly listedCount: number
  /** Resolves once every change so far is written. */
  flush(): Promise<void>
}

export interface UsageStoreOptions {
  /** The directory of state.json. */
  dir: string
  maxTasks?: number
  now?: () => Date
  /** A damaged cache kept aside and rebuilt, a write that failed: for the log, never the user. */
  onNotice?: (message: string) => void
}

const ENDED = new Set(['completed', 'failed', 'cancelled'])

/** An ended task never changes again (the service's rule): its records are kept for good. */
export function hasEnded(status: string): boolean {
  return ENDED.has(status)
}

/** Records that add up to the task's whole cost are current whatever else changed; without a total_price nothing
 * says they are all. */
function accountsFor(task: UsageTask, usages: readonly CostUsage[]): boolean {
  return task.total_price !== null && unaccountedUsd(task, usages) === 0
}

/** Opens the cache; a file that cannot be used leaves a store that keeps records in memory only. */
export async function openUsageStore(options: UsageStoreOptions): Promise<UsageStore> {
  const now = options.now ?? (() => new Date())
  const tell = options.onNotice ?? (() => undefined)
  const maxTasks = options.maxTasks ?? MAX_CACHED_TASKS
  const file = path.join(options.dir, USAGE_CACHE_FILE)
  let doc: UsageCacheDocument = { version: 1, tasks: {} }
  let disk: DocumentFile<UsageCacheDocument> | null = null
  const notices: string[] = []
  const drainNotices = (): void => {
    for (const n of notices.splice(0))
      tell(`${n} (usage-cache.json is a cache of the service's usage records: what is missing is fetched again.)`)
  }
  try {
    checkSettingsFile(file)
    const conf = onFile(
      file,
      'read',
      () => new Conf({ ...settingsConfOptions(options.dir), configName: 'usage-cache' })
    )
    disk = new DocumentFile<UsageCacheDocument>(
      conf,
      interpretUsageCache,
      (d) => ({ ...d }),
      (finding) => `${file} was damaged (${finding.kind}) and was rebuilt from what could be read.`,
      now,
      notices
    )
    doc = await disk.open()
  } catch (error) {
    disk = null
    tell(`Usage records are kept in memory only: ${error instanceof Error ? error.message : String(error)}`)
  }
  drainNotices()

  // Entries changed since the last write, merged into what is on disk then (another process may
  // have written its own).
  const dirty = new Map<string, Change>()
  // Kept only for tasks in the background window whose records are not final yet, not every task ever listed; an older
  // task waits for its next list.
  const lastListed = new Map<string, UsageTask>()
  let sweptAt = Number.NEGATIVE_INFINITY
  const offered = new Map<string, CostUsage[]>()
  const key = (connectionId: string, taskId: string): string => `${connectionId}\u0000${taskId}`

  const writer = createLatestWriter<null>(
    async () => {
      if (!disk) return
      const changes = [...dirty.values()]
      dirty.clear()
      const merged = await disk.update((onDisk) => {
        merge(onDisk, changes)
        bound(onDisk, maxTasks)
      })
      // What was kept while the file was written goes on top, and out with the next write.
      merge(merged, [...dirty.values()])
      doc = merged
      drainNotices()
    },
    (error) => tell(`Could not save usage records: ${error instanceof Error ? error.message : String(error)}`)
  )

  const entryOf = (connectionId: string, taskId: string): CachedTaskUsages | undefined =>
    doc.tasks[connectionId]?.[taskId]

  function put(connectionId: string, task: UsageTask, usages: readonly CostUsage[]): void {
    const there = entryOf(connectionId, task.id)
    if (there && hasEnded(there.status)) return
    const entry: CachedTaskUsages = {
      projectId: task.project_id,
      status: task.status,
      updatedAt: task.updated_at,
      totalPrice: task.total_price ?? null,
      fetchedAt: now().toISOString(),
      usages: usages.map(compactUsage)
    }
    ;(doc.tasks[connectionId] ??= {})[task.id] = entry
    if (hasEnded(entry.status)) lastListed.delete(key(connectionId, task.id))
    bound(doc, maxTasks)
    dirty.set(key(connectionId, task.id), { connectionId, taskId: task.id, entry })
    writer.write(null)
  }

  return {
    path: file,
    usages: (connectionId, taskId) => entryOf(connectionId, taskId)?.usages,
    isCurrent(connectionId, task) {
      const entry = entryOf(connectionId, task.id)
      if (!entry) return false
      if (hasEnded(entry.status)) return true
      return entry.updatedAt === task.updated_at && entry.totalPrice === (task.total_price ?? null)
    },
    put,
    noteTasks(connectionId, tasks) {
      const nowMs = now().getTime()
      if (nowMs - sweptAt >= LISTED_SWEEP_MS) {
        sweptAt = nowMs
        for (const [k, listed] of lastListed) if (!inBackgroundWindow(listed, nowMs)) lastListed.delete(k)
      }
      for (const task of tasks) {
        const k = key(connectionId, task.id)
        const there = entryOf(connectionId, task.id)
        if ((there && hasEnded(there.status)) || !inBackgroundWindow(task, nowMs)) lastListed.delete(k)
        // Only the fields it reads: the monitor's tasks may hold their unparsed steps (digests).
        else
          lastListed.set(k, {
            id: task.id,
            project_id: task.project_id,
            status: task.status,
            updated_at: task.updated_at,
            total_price: task.total_price
          })
        const usages = offered.get(k)
        if (usages === undefined) continue
        offered.delete(k)
        // The monitor fetches a changed task's details before it hands out the list: when they
        // account for the listed total they are current for it.
        if (accountsFor(task, usages)) put(connectionId, task, usages)
      }
    },
    offerDetails(connectionId, taskId, usages) {
      const k = key(connectionId, taskId)
      const listed = lastListed.get(k)
      if (listed && accountsFor(listed, usages)) put(connectionId, listed, usages)
      offered.set(k, [...usages])
      // Offers wait for the next list only briefly: a bound, whatever the monitor does.
      if (offered.size > MAX_OFFERS) offered.delete(offered.keys().next().value!)
    },
    get listedCount() {
      return lastListed.size
    },
    flush: () => writer.settled()
  }
}

type Change = { connectionId: string; taskId: string; entry: CachedTaskUsages }

function merge(doc: UsageCacheDocument, changes: readonly Change[]): void {
  for (const { connectionId, taskId, entry } of changes) {
    const there = doc.tasks[connectionId]?.[taskId]
    // A final entry is never replaced by one fetched while the task still ran.
    if (there && hasEnded(there.status) && !hasEnded(entry.status)) continue
    ;(doc.tasks[connectionId] ??= {})[taskId] = entry
  }
}

function memoryCount(doc: UsageCacheDocument): number {
  let n = 0
  for (const entries of Object.values(doc.tasks)) n += Object.keys(entries).length
  return n
}

/** Keeps the `max` most recently updated tasks. */
function bound(doc: UsageCacheDocument, max: number): void {
  // Only spares the sort: with `max` or fewer nothing is dropped.
  if (memoryCount(doc) <= max) return
  const all: { connectionId: string; taskId: string; updatedAt: string }[] = []
  for (const [connectionId, entries] of Object.entries(doc.tasks)) {
    for (const [taskId, entry] of Object.entries(entries))
      all.push({ connectionId, taskId, updatedAt: entry.updatedAt })
  }
  all.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0))
  for (const drop of all.slice(max)) delete doc.tasks[drop.connectionId]![drop.taskId]
}
