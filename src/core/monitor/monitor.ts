// Polls one connection's projects and hands the caller the last seen state to persist, so a restart neither repeats
// nor misses a change.
import type { UsagesByTask } from '../../shared/cost'
import type { CompactProjectSnapshot, ProjectHealth, ProjectSnapshot } from '../../shared/monitor'
import type { StepsAndUsages, Task } from '../../shared/service'
import { DEFAULT_POLLING_PREFS, type PollingPrefs } from '../../shared/settings'
import { isActive } from '../../shared/status'
import { type Clock, systemClock, type TimerHandle } from '../util/clock'
import { Emitter } from '../util/emitter'
import { TaskDetails } from './details'
import { compactSnapshot, diffProject, hasTask } from './diff'
import { type Fetched, fetchList } from './fetch-list'
import { type ErrorReading, nextHealth, readError } from './health'
import { KeptLists, newProjectRecord, type ProjectRecord, releaseWaiters } from './project-record'
import { Rounds } from './rounds'
import { DEFAULT_SCHEDULE_OPTIONS, type PollOutcome, Scheduler } from './scheduler'
import { type ProjectSummary, summarizeTasks, summaryCost } from './summary'
import type { MonitorEvents, MonitorOptions, TaskSource } from './types'
import { IdleWaiters } from './waiters'

export { readError } from './health'
export type { MonitorCycle, MonitorEvents, MonitorOptions, TasksIfChanged, TaskSource } from './types'

export class Monitor {
  readonly connectionId: string
  private readonly source: TaskSource
  private readonly clock: Clock
  private readonly emitter = new Emitter<MonitorEvents>()
  private readonly scheduler: Scheduler
  private polling: PollingPrefs

  /** One per watched project, holding all that is known of it (project-record.ts). */
  private readonly records = new Map<string, ProjectRecord>()
  private readonly kept: KeptLists
  private focusedProjectId: string | null = null
  /** Steps and usages by task: not a project's, so they outlive an unwatch (ARCHITECTURE.md). */
  private readonly details: TaskDetails
  private readonly idleWaiters = new IdleWaiters()

  private focusedTaskId: string | null = null
  private paused = true
  private disposed = false
  /** The next tick's timer; it may have fired already (clearing it then does nothing, as with setTimeout). */
  private timer: TimerHandle = null
  private readonly rounds = new Rounds()

  constructor(options: MonitorOptions) {
    this.connectionId = options.connectionId
    this.source = options.source
    this.clock = options.clock ?? systemClock
    this.polling = options.polling ?? DEFAULT_POLLING_PREFS
    this.scheduler = new Scheduler(
      this.polling,
      options.random ?? Math.random,
      { ...DEFAULT_SCHEDULE_OPTIONS, ...options.schedule },
      this.records
    )
    this.details = new TaskDetails(this.source, options.detailsCacheSize ?? 100, (taskId, details) =>
      this.emitter.emit('details', { taskId, details })
    )
    this.kept = new KeptLists(this.records, options.keptTaskLists ?? 3)
    // Only the projects watched from the start take their state from a former run. The others are
    // not watched: their state is forgotten, as an unwatch forgets it, and leaves the file with the next write.
    const former = options.initialState ?? {}
    for (const p of options.projects ?? []) {
      const projectId = typeof p === 'string' ? p : p.projectId
      const snapshot = Object.hasOwn(former, projectId) ? former[projectId] : undefined
      this.add(projectId, snapshot && compactSnapshot(snapshot))
    }
  }

  on<K extends keyof MonitorEvents>(name: K, listener: (payload: MonitorEvents[K]) => void): () => void {
    return this.emitter.on(name, listener)
  }

  off<K extends keyof MonitorEvents>(name: K, listener: (payload: MonitorEvents[K]) => void): void {
    this.emitter.off(name, listener)
  }

  // --- control ---

  /** Starts polling (every watched project polls right away). Same as resume(). */
  start(): void {
    this.resume()
  }

  /** Stops scheduled polls; polls in flight finish. pollNow still works. */
  pause(): void {
    this.paused = true
    this.clearTimer()
  }

  /** Polls every project right away, then on schedule again. */
  resume(): void {
    if (this.disposed) return
    this.paused = false
    for (const id of this.records.keys()) this.scheduler.force(id)
    this.tick()
  }

  get isPaused(): boolean {
    return this.paused
  }

  /** Polls one project, or all, now; resolves when those polls (and their round) are done. */
  pollNow(projectId?: string): Promise<void> {
    if (this.disposed) return Promise.resolve()
    const records =
      projectId === undefined
        ? [...this.records.values()]
        : [this.records.get(projectId)].filter((r) => r !== undefined)
    const done = records.map((r) => new Promise<void>((resolve) => r.waiters.push({ minSeq: r.pollSeq + 1, resolve })))
    for (const r of records) this.scheduler.force(r.projectId)
    this.tick()
    return Promise.all(done).then(() => undefined)
  }

  /** Resolves once no poll is in flight or waiting to start right now (at once when disposed: none will be). */
  idle(): Promise<void> {
    // A poll in flight at dispose never finishes as far as the schedule knows: do not wait for it.
    if (this.disposed || this.isIdle()) return Promise.resolve()
    return this.idleWaiters.wait()
  }

  watch(projectId: string): void {
    this.add(projectId, undefined)
  }

  /** `former`: its last seen state from a former run, only for the projects watched from the start. */
  private add(projectId: string, former: CompactProjectSnapshot | undefined): void {
    if (this.disposed || this.records.has(projectId)) return
    this.records.set(projectId, newProjectRecord(projectId, this.clock.now(), former))
    if (!this.paused) this.tick()
  }

  /** Forgets the project whole. A poll in flight is aborted and tells nothing; changes it told before stay. */
  unwatch(projectId: string): void {
    const record = this.records.get(projectId)
    if (!record) return
    this.records.delete(projectId)
    record.poll?.abort()
    this.scheduler.removed(record)
    releaseWaiters(record, Number.POSITIVE_INFINITY)
    if (this.focusedProjectId === projectId) this.focusedProjectId = null
    if (record.snapshot) this.emitState()
    this.maybeFlush(this.clock.now())
    this.tick()
  }

  watched(): string[] {
    return [...this.records.keys()]
  }

  isWatched(projectId: string): boolean {
    return this.records.has(projectId)
  }

  setPolling(prefs: PollingPrefs): void {
    this.polling = prefs
    this.scheduler.setPrefs(prefs, this.clock.now())
    this.tick()
  }

  /** The task someone is looking at: its steps and usages are refreshed on every poll of its project. */
  focusTask(taskId: string | null): void {
    this.focusedTaskId = taskId
  }

  get focusedTask(): string | null {
    return this.focusedTaskId
  }

  /** The looked-at project keeps its full list, refreshed each poll; others keep only a summary once out of the LRU. */
  focusProject(projectId: string | null): void {
    this.focusedProjectId = projectId
  }

  get focusedProject(): string | null {
    return this.focusedProjectId
  }

  dispose(): void {
    if (this.disposed) return
    // Changes already in the persisted state must still reach the caller.
    this.maybeFlush(this.clock.now(), true)
    this.disposed = true
    this.paused = true
    this.clearTimer()
    for (const r of this.records.values()) {
      r.poll?.abort()
      releaseWaiters(r, Number.POSITIVE_INFINITY)
    }
    this.idleWaiters.release()
    this.emitter.removeAll()
  }

  // --- what the UI reads ---

  /** The list of a focused or lately loaded project, else undefined: use loadTasks to get any project's list. */
  getTasks(projectId: string): Task[] | undefined {
    return this.records.get(projectId)?.list?.tasks
  }

  /** The kept list, or the list fetched now (kept for a while when the project is watched). */
  async loadTasks(projectId: string, signal?: AbortSignal): Promise<Task[]> {
    const before = this.records.get(projectId)
    const kept = before && this.kept.use(before)
    if (kept) return kept
    const tasks = await this.source.listTasks(projectId, signal)
    const record = this.records.get(projectId)
    if (!this.disposed && record) this.kept.keep(record, tasks)
    return tasks
  }

  /** The watched project a task was last seen in. */
  projectOfTask(taskId: string): string | undefined {
    for (const r of this.records.values()) if (r.snapshot && hasTask(r.snapshot, taskId)) return r.projectId
    return undefined
  }

  /** Counts, latest activity and per-task prices of a watched project, after its first successful poll. */
  getSummary(projectId: string): ProjectSummary | undefined {
    return this.records.get(projectId)?.summary
  }

  getHealth(projectId: string): ProjectHealth {
    return this.records.get(projectId)?.health ?? { state: 'unknown' }
  }

  /** The last seen state of this connection, to persist. */
  snapshot(): Record<string, ProjectSnapshot> {
    const out: Record<string, ProjectSnapshot> = {}
    for (const r of this.records.values()) if (r.snapshot) out[r.projectId] = r.snapshot
    return out
  }

  /** Cached steps and usages, without fetching. */
  getCachedDetails(taskId: string): StepsAndUsages | undefined {
    return this.details.peek(taskId)
  }

  /** Steps and usages of a task: cached, or fetched (also with `refresh`). */
  getTaskDetails(taskId: string, options: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<StepsAndUsages> {
    return this.details.get(taskId, options.refresh ?? false, options.signal)
  }

  /** Usage records of the tasks whose details are cached, for the cost model. */
  usagesByTask(): UsagesByTask {
    return this.details.usagesByTask()
  }

  /** What the project's tasks still todo or in progress have cost so far. */
  getRunningCost(projectId: string): number {
    const summary = this.records.get(projectId)?.summary
    return summary ? summaryCost(summary, this.usagesByTask()).runningUsd : 0
  }

  // --- polling ---

  private clearTimer(): void {
    this.clock.clearTimeout(this.timer)
  }

  private tick(): void {
    if (this.disposed) return
    this.clearTimer()
    const now = this.clock.now()
    for (const id of this.scheduler.due(now, this.paused)) void this.poll(id)
    const wake = this.scheduler.wakeAt(this.paused)
    // With every slot busy, the next finishing poll ticks again.
    if (wake !== null && this.scheduler.inFlightCount() < Math.max(1, this.scheduler.maxConcurrency)) {
      this.timer = this.clock.setTimeout(() => this.tick(), Math.max(0, wake - now))
    }
    this.idleWaiters.settle(() => this.isIdle())
  }

  private async poll(projectId: string): Promise<void> {
    const record = this.records.get(projectId)
    if (!record) return
    const seq = ++record.pollSeq
    const controller = new AbortController()
    record.poll = controller
    this.scheduler.started(projectId)
    let outcome: PollOutcome
    let failure: ErrorReading | null = null
    try {
      const options = { wantsFull: this.wantsList(record), etag: record.etag }
      const answer = await fetchList(this.source, projectId, options, controller.signal)
      if (controller.signal.aborted) return
      if (answer.changed) {
        await this.takeTasks(record, answer, controller.signal)
        outcome = { ok: true, active: answer.tasks.some((t) => isActive(t.status)) }
      } else {
        await this.refreshFocusedDetails(record, controller.signal)
        outcome = { ok: true, active: (record.summary?.running ?? 0) > 0 }
      }
    } catch (error) {
      failure = readError(error)
      outcome =
        failure.retryAfterMs === undefined
          ? { ok: false, kind: failure.kind }
          : { ok: false, kind: failure.kind, retryAfterMs: failure.retryAfterMs }
    }
    // Unwatched meanwhile (its poll was aborted above) or disposed: nothing to record.
    if (this.disposed || this.records.get(projectId) !== record) return
    const now = this.clock.now()
    const nextAt = this.scheduler.finished(projectId, outcome, now) ?? now
    this.setHealth(record, failure, now, nextAt)
    this.maybeFlush(now)
    releaseWaiters(record, seq)
    this.tick()
  }

  private wantsList(record: ProjectRecord): boolean {
    return this.focusedProjectId === record.projectId || record.list !== undefined
  }

  private async refreshFocusedDetails(record: ProjectRecord, signal: AbortSignal): Promise<void> {
    const taskId = this.focusedTaskId
    if (!taskId || !record.snapshot || !hasTask(record.snapshot, taskId)) return
    try {
      await this.details.fetch(taskId, signal)
    } catch {
      // As in takeTasks: the last good details stay cached.
    }
  }

  private async takeTasks(
    record: ProjectRecord,
    answer: Fetched & { changed: true },
    signal: AbortSignal
  ): Promise<void> {
    const { tasks, full, etag } = answer
    const projectId = record.projectId
    const at = new Date(this.clock.now()).toISOString()
    const previous = record.snapshot
    const ids = { connectionId: this.connectionId, projectId }
    const { events, snapshot, changedTaskIds } = diffProject(previous, tasks, at, ids, {
      detailedTaskId: this.focusedTaskId
    })
    if (full && this.wantsList(record)) this.kept.keep(record, full)

    // Only what changed, and what someone is looking at: never every task every round.
    const wanted = new Set(changedTaskIds)
    if (this.focusedTaskId && tasks.some((t) => t.id === this.focusedTaskId)) wanted.add(this.focusedTaskId)
    for (const taskId of wanted) {
      if (signal.aborted) return
      try {
        await this.details.fetch(taskId, signal)
      } catch {
        // Details are a bonus; the last good ones stay cached and the next change retries.
      }
    }
    if (signal.aborted) return

    // Budgets are checked by core/budgets on the 'tasks' list below, after the round.
    delete snapshot.budgetNotified
    const away = record.away
    record.snapshot = snapshot
    record.summary = summarizeTasks(tasks)
    record.etag = etag
    record.away = false

    this.emitter.emit('tasks', { projectId, tasks })
    for (const e of events) this.emitter.emit('event', e)
    this.rounds.add(events, away, this.clock.now())
    if (!previous || events.length > 0 || previous.budgetNotified !== undefined) this.emitState()
  }

  private emitState(): void {
    if (this.emitter.has('state')) this.emitter.emit('state', this.snapshot())
  }

  private setHealth(record: ProjectRecord, failure: ErrorReading | null, now: number, nextAt: number): void {
    const { health, changed } = nextHealth(record.health, failure, now, nextAt)
    record.health = health
    if (changed)
      this.emitter.emit('event', {
        kind: 'project-health',
        connectionId: this.connectionId,
        projectId: record.projectId,
        at: new Date(now).toISOString(),
        health
      })
  }

  /** A round ends when no poll is in flight, or has gone on long enough to report what it has. */
  private maybeFlush(now: number, force = false): void {
    const inFlight = this.scheduler.inFlightCount()
    for (const cycle of this.rounds.close(now, { inFlight, maxMs: this.polling.activeIntervalMs, force }))
      this.emitter.emit('cycle', cycle)
  }

  private isIdle(): boolean {
    if (this.scheduler.inFlightCount() > 0) return false
    return this.scheduler.due(this.clock.now(), this.paused).length === 0
  }
}
