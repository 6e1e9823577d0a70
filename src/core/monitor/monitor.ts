// Watches the projects of one connection: polls their tasks on the scheduler's timetable, turns
// the differences into events, keeps the latest tasks and task details for the UI, and hands the
// caller the last seen state to persist so a restart neither repeats nor misses a change.
import type { UsagesByTask } from '../../shared/cost'
import type { CompactProjectSnapshot, ProjectHealth, ProjectSnapshot } from '../../shared/monitor'
import type { StepsAndUsages, Task } from '../../shared/service'
import { DEFAULT_POLLING_PREFS, type PollingPrefs } from '../../shared/settings'
import { isActive } from '../../shared/status'
import { systemClock, type Clock, type TimerHandle } from '../util/clock'
import { compactSnapshot, diffProject, hasTask } from './diff'
import { Emitter } from '../util/emitter'
import { nextHealth, readError, type ErrorReading } from './health'
import { LruMap } from '../util/lru'
import { Rounds } from './rounds'
import { TaskDetails } from './details'
import { DEFAULT_SCHEDULE_OPTIONS, Scheduler, type PollOutcome } from './scheduler'
import { summarizeTasks, summaryCost, type ProjectSummary } from './summary'
import type { MonitorEvents, MonitorOptions, TaskSource } from './types'
import { PollWaiters } from './waiters'
import { fetchList, type Fetched } from './fetch-list'

export type { MonitorCycle, MonitorEvents, MonitorOptions, TaskSource, TasksIfChanged } from './types'
export { readError } from './health'

export class Monitor {
  readonly connectionId: string
  private readonly source: TaskSource
  private readonly clock: Clock
  private readonly emitter = new Emitter<MonitorEvents>()
  private readonly scheduler: Scheduler
  private polling: PollingPrefs

  private readonly snapshots = new Map<string, CompactProjectSnapshot>()
  /** Projects whose next successful poll compares against a snapshot from before this run. */
  private readonly awayPending = new Set<string>()
  /** Full task lists only of projects someone looks at or loaded lately; the rest keep a summary. */
  private readonly kept: LruMap<string, Task[]>
  private readonly summaries = new Map<string, ProjectSummary>()
  /** The ETag of the list each project's snapshot was taken from. */
  private readonly etags = new Map<string, string>()
  private focusedProjectId: string | null = null
  private readonly health = new Map<string, ProjectHealth>()
  private readonly details: TaskDetails
  private readonly controllers = new Map<string, AbortController>()
  private readonly pollSeq = new Map<string, number>()
  private readonly waiters = new PollWaiters()

  private focusedTaskId: string | null = null
  private paused = true
  private disposed = false
  private timer: TimerHandle | null = null
  private readonly rounds = new Rounds()

  constructor(options: MonitorOptions) {
    this.connectionId = options.connectionId
    this.source = options.source
    this.clock = options.clock ?? systemClock
    this.polling = options.polling ?? DEFAULT_POLLING_PREFS
    this.scheduler = new Scheduler(this.polling, options.random ?? Math.random, { ...DEFAULT_SCHEDULE_OPTIONS, ...options.schedule })
    this.details = new TaskDetails(this.source, options.detailsCacheSize ?? 100, (taskId, details) => this.emitter.emit('details', { taskId, details }))
    this.kept = new LruMap(options.keptTaskLists ?? 3)
    for (const [projectId, snapshot] of Object.entries(options.initialState ?? {})) {
      this.snapshots.set(projectId, compactSnapshot(snapshot))
      this.awayPending.add(projectId)
    }
    for (const p of options.projects ?? []) {
      if (typeof p === 'string') this.watch(p)
      else this.watch(p.projectId)
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
    for (const id of this.scheduler.ids()) this.scheduler.force(id)
    this.tick()
  }

  get isPaused(): boolean {
    return this.paused
  }

  /** Polls one project, or all, now; resolves when those polls (and their round) are done. */
  pollNow(projectId?: string): Promise<void> {
    if (this.disposed) return Promise.resolve()
    const ids = projectId === undefined ? this.scheduler.ids() : this.scheduler.has(projectId) ? [projectId] : []
    const done = ids.map((id) => this.waiters.waitFor(id, (this.pollSeq.get(id) ?? 0) + 1))
    for (const id of ids) this.scheduler.force(id)
    this.tick()
    return Promise.all(done).then(() => undefined)
  }

  /** Resolves once no poll is in flight or waiting to start right now. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve()
    return this.waiters.waitForIdle()
  }

  watch(projectId: string): void {
    if (this.disposed) return
    if (this.scheduler.has(projectId)) return
    this.scheduler.add(projectId, this.clock.now())
    if (!this.health.has(projectId)) this.health.set(projectId, { state: 'unknown' })
    if (!this.paused) this.tick()
  }

  /** Stops watching and forgets the project, including its persisted snapshot. */
  unwatch(projectId: string): void {
    this.controllers.get(projectId)?.abort()
    this.controllers.delete(projectId)
    this.scheduler.remove(projectId)
    this.kept.delete(projectId)
    this.summaries.delete(projectId)
    this.etags.delete(projectId)
    if (this.focusedProjectId === projectId) this.focusedProjectId = null
    this.health.delete(projectId)
    this.awayPending.delete(projectId)
    this.waiters.finished(projectId, Number.POSITIVE_INFINITY)
    if (this.snapshots.delete(projectId)) this.emitState()
    this.maybeFlush(this.clock.now())
    this.tick()
  }

  watched(): string[] {
    return this.scheduler.ids()
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

  /**
   * The project someone is looking at: its full task list is kept (getTasks) and refreshed on every
   * poll. Other projects keep only their summary once their lists drop out of the small LRU.
   */
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
    for (const c of this.controllers.values()) c.abort()
    this.controllers.clear()
    this.waiters.releaseAll()
    this.waiters.settle(true, () => true)
    this.emitter.removeAll()
  }

  // --- what the UI reads ---

  /**
   * The latest task list of a focused or lately loaded project; undefined for the others (see
   * getSummary) and before the first successful poll. Use loadTasks to get any project's list.
   */
  getTasks(projectId: string): Task[] | undefined {
    return this.kept.peek(projectId)
  }

  /** The kept list, or the list fetched now (kept for a while when the project is watched). */
  async loadTasks(projectId: string, signal?: AbortSignal): Promise<Task[]> {
    const kept = this.kept.get(projectId)
    if (kept) return kept
    const tasks = await this.source.listTasks(projectId, signal)
    if (!this.disposed && this.scheduler.has(projectId)) this.kept.set(projectId, tasks)
    return tasks
  }

  /** The watched project a task was last seen in. */
  projectOfTask(taskId: string): string | undefined {
    for (const [projectId, snapshot] of this.snapshots) if (hasTask(snapshot, taskId)) return projectId
    return undefined
  }

  /** Counts, latest activity and per-task prices of a watched project, after its first successful poll. */
  getSummary(projectId: string): ProjectSummary | undefined {
    return this.summaries.get(projectId)
  }

  getHealth(projectId: string): ProjectHealth {
    return this.health.get(projectId) ?? { state: 'unknown' }
  }

  /** The last seen state of this connection, to persist. */
  snapshot(): Record<string, ProjectSnapshot> {
    return Object.fromEntries(this.snapshots)
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
    const summary = this.summaries.get(projectId)
    return summary ? summaryCost(summary, this.usagesByTask()).runningUsd : 0
  }

  // --- polling ---

  private clearTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer)
    this.timer = null
  }

  private tick(): void {
    if (this.disposed) return
    this.clearTimer()
    const now = this.clock.now()
    for (const id of this.scheduler.due(now, this.paused)) void this.poll(id)
    const wake = this.scheduler.wakeAt(this.paused)
    // With every slot busy, the next finishing poll ticks again.
    if (wake !== null && this.scheduler.inFlightCount() < Math.max(1, this.scheduler.maxConcurrency)) {
      this.timer = this.clock.setTimeout(() => {
        this.timer = null
        this.tick()
      }, Math.max(0, wake - now))
    }
    this.waiters.settle(false, () => this.isIdle())
  }

  private async poll(projectId: string): Promise<void> {
    const seq = (this.pollSeq.get(projectId) ?? 0) + 1
    this.pollSeq.set(projectId, seq)
    const controller = new AbortController()
    this.controllers.set(projectId, controller)
    this.scheduler.started(projectId)
    let outcome: PollOutcome
    let failure: ErrorReading | null = null
    try {
      const options = { wantsFull: this.wantsList(projectId), etag: this.etags.get(projectId) ?? null }
      const answer = await fetchList(this.source, projectId, options, controller.signal)
      if (controller.signal.aborted) return
      if (answer.changed) {
        await this.takeTasks(projectId, answer, controller.signal)
        outcome = { ok: true, active: answer.tasks.some((t) => isActive(t.status)) }
      } else {
        await this.refreshFocusedDetails(projectId, controller.signal)
        outcome = { ok: true, active: (this.summaries.get(projectId)?.running ?? 0) > 0 }
      }
    } catch (error) {
      if (controller.signal.aborted) return
      failure = readError(error)
      outcome = failure.retryAfterMs === undefined
        ? { ok: false, kind: failure.kind }
        : { ok: false, kind: failure.kind, retryAfterMs: failure.retryAfterMs }
    } finally {
      if (this.controllers.get(projectId) === controller) this.controllers.delete(projectId)
    }
    if (this.disposed || !this.scheduler.has(projectId)) return
    const now = this.clock.now()
    const nextAt = this.scheduler.finished(projectId, outcome, now) ?? now
    this.setHealth(projectId, failure, now, nextAt)
    this.maybeFlush(now)
    this.waiters.finished(projectId, seq)
    this.tick()
  }

  private wantsList(projectId: string): boolean {
    return this.focusedProjectId === projectId || this.kept.has(projectId)
  }

  private async refreshFocusedDetails(projectId: string, signal: AbortSignal): Promise<void> {
    const taskId = this.focusedTaskId
    const snapshot = this.snapshots.get(projectId)
    if (!taskId || !snapshot || !hasTask(snapshot, taskId)) return
    try {
      await this.details.fetch(taskId, signal)
    } catch {
      // As in takeTasks: the last good details stay cached.
    }
  }

  private async takeTasks(projectId: string, answer: Fetched & { changed: true }, signal: AbortSignal): Promise<void> {
    const { tasks, full, etag } = answer
    const at = new Date(this.clock.now()).toISOString()
    const previous = this.snapshots.get(projectId)
    const away = this.awayPending.has(projectId)
    const ids = { connectionId: this.connectionId, projectId }
    const { events, snapshot, changedTaskIds } = diffProject(previous, tasks, at, ids, { detailedTaskId: this.focusedTaskId })
    if (full && this.wantsList(projectId)) this.kept.set(projectId, full)

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
    this.snapshots.set(projectId, snapshot)
    this.summaries.set(projectId, summarizeTasks(tasks))
    if (etag !== null) this.etags.set(projectId, etag)
    else this.etags.delete(projectId)
    this.awayPending.delete(projectId)

    this.emitter.emit('tasks', { projectId, tasks })
    for (const e of events) this.emitter.emit('event', e)
    this.rounds.add(events, away, this.clock.now())
    if (!previous || events.length > 0 || previous.budgetNotified !== undefined) this.emitState()
  }

  private emitState(): void {
    if (this.emitter.has('state')) this.emitter.emit('state', this.snapshot())
  }


  private setHealth(projectId: string, failure: ErrorReading | null, now: number, nextAt: number): void {
    const { health, changed } = nextHealth(this.health.get(projectId) ?? { state: 'unknown' }, failure, now, nextAt)
    this.health.set(projectId, health)
    if (changed) this.emitter.emit('event', { kind: 'project-health', connectionId: this.connectionId, projectId, at: new Date(now).toISOString(), health })
  }

  /** A round ends when no poll is in flight, or has gone on long enough to report what it has. */
  private maybeFlush(now: number, force = false): void {
    const inFlight = this.scheduler.inFlightCount()
    for (const cycle of this.rounds.close(now, { inFlight, maxMs: this.polling.activeIntervalMs, force })) this.emitter.emit('cycle', cycle)
  }

  private isIdle(): boolean {
    if (this.scheduler.inFlightCount() > 0) return false
    return this.scheduler.due(this.clock.now(), this.paused).length === 0
  }
}

export function createMonitor(options: MonitorOptions): Monitor {
  return new Monitor(options)
}
