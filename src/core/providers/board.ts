// One open account of an agent service, polled on its own schedule: the monitor's intervals and backoff, never
// sooner than the service's etiquette asks, inside the session's shared concurrency limit. Its news is told only once
// the seen state that holds it is saved, so a restart repeats no question. Where the service streams a running task,
// its steps are told as they come and a moved status brings the next poll forward, so while every active task is
// streamed the account is polled at the idle interval.
import type { AgentTaskView } from '../../shared/ipc'
import type { MonitorEvent, ProjectHealth, ServiceErrorInfo } from '../../shared/monitor'
import { byNowOrder, isProviderActive, type ProviderStep, type ProviderTask } from '../../shared/provider'
import type { PollingPrefs } from '../../shared/settings'
import { isServiceError, ServiceError, shorten } from '../client/service-error'
import { nextDelay, type PollOutcome } from '../monitor/scheduler'
import type { Clock, TimerHandle } from '../util/clock'
import type { Limiter } from '../util/limiter'
import type { AgentAccount, LiveNews } from './account'
import { type AgentTaskChange, agentTaskChanges, type SeenAgentTasks } from './changes'

/** What is kept of an account between runs (state.json): the seen state and the failures not opened yet. */
export interface AgentMemory {
  seen: SeenAgentTasks
  unseenFailures: string[]
}

export interface AgentRound {
  events: MonitorEvent[]
  /** The first news after a restart: it happened while the app was closed. */
  away: boolean
}

export interface AgentWatchOptions {
  connectionId: string
  account: AgentAccount
  polling: PollingPrefs
  clock: Clock
  random: () => number
  limiter: Limiter
  /** From the former run, or null (the first poll is the baseline). */
  memory: AgentMemory | null
  save(memory: AgentMemory): Promise<void>
  /** A repository or source whose tasks are neither told nor forwarded. */
  muted(projectId: string): boolean
  /** A round of news, once the memory that holds it is saved. */
  onRound(round: AgentRound): void
  /** Something the window shows changed (tasks, health). */
  onChange(): void
  /** A streamed task's steps so far (its stream's news, between polls). */
  onSteps?(taskId: string, steps: ProviderStep[]): void
  onError(context: string, error: unknown): void
}

const iso = (ms: number): string => new Date(ms).toISOString()

/** The error as the window and the health say it; a bug (not the service's error) is said without its details. */
function errorInfo(error: unknown): ServiceErrorInfo {
  if (isServiceError(error)) return error.toInfo()
  return { kind: 'invalid_response', message: shorten(error instanceof Error ? error.message : String(error)) }
}

export class AgentWatch {
  readonly connectionId: string
  readonly account: AgentAccount
  private readonly options: AgentWatchOptions
  private polling: PollingPrefs
  private tasks: ProviderTask[] = []
  private seen: SeenAgentTasks | null
  private readonly unseen: Set<string>
  private restored: boolean
  private healthNow: ProjectHealth = { state: 'unknown' }
  private errors = 0
  /** Polled at the active interval: a task queued, running or waiting that no stream follows. */
  private active = false
  private dueAt: number
  private timer: TimerHandle | null = null
  private running = false
  private disposed = false
  private inFlight: Promise<void> | null = null
  /** A stream said a status moved while a poll was in flight, which may have read before the move. */
  private movedDuringPoll = false
  private readonly abort = new AbortController()
  private saving: Promise<void> = Promise.resolve()
  /** Settles once every round seen so far is told. */
  told: Promise<void> = Promise.resolve()

  constructor(options: AgentWatchOptions) {
    this.options = options
    this.connectionId = options.connectionId
    this.account = options.account
    this.polling = options.polling
    this.seen = options.memory?.seen ?? null
    this.unseen = new Set(options.memory?.unseenFailures ?? [])
    this.restored = options.memory !== null
    this.dueAt = options.clock.now()
  }

  get health(): ProjectHealth {
    return this.healthNow
  }

  get isPaused(): boolean {
    return !this.running
  }

  /** Polls now, then on schedule; the account's streams may open again (after that poll). */
  start(): void {
    if (this.disposed || this.running) return
    this.running = true
    this.account.setLive?.(true)
    void this.runPoll()
  }

  /** No poll and no stream until `resume`: asleep or offline a stream would only fail, and be given up. */
  pause(): void {
    this.running = false
    this.clearTimer()
    this.account.setLive?.(false)
  }

  /** Back from sleep or offline: a poll now, as the monitors do. */
  resume(): void {
    this.start()
  }

  setPolling(polling: PollingPrefs): void {
    const before = this.polling
    this.polling = polling
    const interval = this.active ? polling.activeIntervalMs : polling.idleIntervalMs
    const old = this.active ? before.activeIntervalMs : before.idleIntervalMs
    // A shorter interval applies now, not after the old wait; backing off after errors stays as it is.
    if (this.errors === 0 && interval < old) this.schedule(Math.min(this.dueAt, this.options.clock.now() + interval))
  }

  /** Polls now (after a poll in flight) and resolves once what it found is told. */
  async pollNow(): Promise<void> {
    if (this.inFlight) await this.inFlight
    await this.runPoll()
    await this.told
  }

  /** What a task's stream told between polls (the account's `onLive`). */
  takeLive(news: LiveNews): void {
    if (this.disposed) return
    if (news.kind === 'moved') return this.pollEarly()
    this.tasks = this.tasks.map((t) => (t.id === news.taskId ? { ...t, steps: news.steps } : t))
    this.options.onSteps?.(news.taskId, news.steps)
  }

  /** Every task as the window lists it. */
  views(): AgentTaskView[] {
    return this.tasks.map((task) => this.view(task))
  }

  /** One task with its steps; opening it is seeing its failure. */
  async task(taskId: string): Promise<AgentTaskView> {
    const task = await this.options.limiter.run(() => this.account.task(taskId, this.abort.signal))
    this.acknowledge(taskId)
    return this.view(task)
  }

  /** The user saw the task's failure; whether anything changed. */
  acknowledge(taskId: string): boolean {
    if (!this.unseen.delete(taskId)) return false
    this.persist()
    this.options.onChange()
    return true
  }

  async approve(taskId: string): Promise<void> {
    const { approve } = this.account
    if (!this.account.descriptor.capabilities.approve || approve === undefined) throw this.unsupported('approving')
    await this.options.limiter.run(() => approve(taskId, this.abort.signal))
    this.pollSoon()
  }

  async reply(taskId: string, message: string): Promise<void> {
    const { reply } = this.account
    if (!this.account.descriptor.capabilities.reply || reply === undefined) throw this.unsupported('replying to')
    await this.options.limiter.run(() => reply(taskId, message, this.abort.signal))
    this.pollSoon()
  }

  /** Stops polling, lets a poll in flight go, and waits for what is being saved and told. */
  async close(): Promise<void> {
    this.disposed = true
    this.running = false
    this.clearTimer()
    this.abort.abort()
    await this.inFlight?.catch(() => undefined)
    await this.saving
    await this.told
    await this.account.close().catch((e: unknown) => this.options.onError('closing an agent account', e))
  }

  private unsupported(what: string): ServiceError {
    const { displayName } = this.account.descriptor
    return new ServiceError('unsupported', `${displayName} does not offer ${what} a task from Agent Tray.`)
  }

  private pollSoon(): void {
    void this.pollNow().catch((e: unknown) => this.options.onError('polling after an answer', e))
  }

  /** A poll as soon as the etiquette allows, one for any number of moves; none while paused or backing off. */
  private pollEarly(): void {
    if (!this.running || this.disposed || this.errors > 0) return
    if (this.inFlight) {
      this.movedDuringPoll = true
      return
    }
    const at = this.options.clock.now() + this.account.waitMs()
    if (this.timer !== null && this.dueAt <= at) return
    this.schedule(at)
  }

  private view(task: ProviderTask): AgentTaskView {
    const { account } = this
    return {
      ...task,
      connectionId: this.connectionId,
      service: account.descriptor.kind,
      unseenFailure: this.unseen.has(task.id),
      projectMuted: this.options.muted(task.project?.id ?? ''),
      ...(account.isLive === undefined ? {} : { live: account.isLive(task.id) })
    }
  }

  private runPoll(): Promise<void> {
    this.inFlight ??= this.pollOnce().finally(() => {
      this.inFlight = null
    })
    return this.inFlight
  }

  private async pollOnce(): Promise<void> {
    this.clearTimer()
    this.movedDuringPoll = false
    if (this.disposed) return
    const wait = this.account.waitMs()
    // The service's etiquette first: a poll it asked us not to make yet is not made.
    if (wait > 0) return this.schedule(this.options.clock.now() + wait)
    let outcome: PollOutcome
    try {
      const result = await this.options.limiter.run(() => this.account.poll(this.abort.signal))
      if (this.disposed) return
      if (result.changed) this.take(result.tasks)
      this.active = this.needsActivePace()
      this.errors = 0
      this.healthNow = { state: 'ok', polledAt: iso(this.options.clock.now()) }
      outcome = { ok: true, active: this.active }
    } catch (error) {
      if (this.disposed) return
      const info = errorInfo(error)
      if (!isServiceError(error)) this.options.onError('polling an agent account', error)
      this.errors++
      outcome = {
        ok: false,
        kind: info.kind,
        ...(info.retryAfterMs === undefined ? {} : { retryAfterMs: info.retryAfterMs })
      }
      const now = this.options.clock.now()
      const since = this.healthNow.state === 'error' ? this.healthNow.since : iso(now)
      this.healthNow = { state: 'error', error: info, since, nextPollAt: iso(now + this.delayAfter(outcome)) }
    }
    // A move told while this poll was out may postdate what it read: the next poll comes as soon as it may.
    const moved = this.movedDuringPoll && outcome.ok
    this.movedDuringPoll = false
    this.schedule(this.options.clock.now() + (moved ? this.account.waitMs() : this.delayAfter(outcome)))
    this.options.onChange()
  }

  /** A task followed live needs no quick pace: its stream's `moved` brings a poll at once. Any other active task does
   * (one past the account's stream bound, whose stream expired or failed, or a service without streams). */
  private needsActivePace(): boolean {
    return this.tasks.some((t) => isProviderActive(t.status) && this.account.isLive?.(t.id) !== true)
  }

  private delayAfter(outcome: PollOutcome): number {
    return Math.max(nextDelay(outcome, this.errors, this.polling, this.options.random), this.account.waitMs())
  }

  private take(tasks: ProviderTask[]): void {
    const { changes, seen } = agentTaskChanges(this.seen, tasks)
    const away = this.restored
    this.restored = false
    this.seen = seen
    this.tasks = tasks
    for (const task of tasks) if (task.status !== 'failed') this.unseen.delete(task.id)
    const listed = new Set(tasks.map((t) => t.id))
    for (const id of [...this.unseen]) if (!listed.has(id)) this.unseen.delete(id)
    const events: MonitorEvent[] = []
    for (const change of changes) {
      if (this.options.muted(change.task.project?.id ?? '')) continue
      if (change.kind === 'status' && change.task.status === 'failed') this.unseen.add(change.task.id)
      events.push(this.eventOf(change))
    }
    const saved = this.persist()
    if (events.length === 0) return
    // Told once what holds it is saved: a crash between the two repeats nothing, one after has nothing to repeat.
    this.told = Promise.all([this.told, saved])
      .then(() => this.options.onRound({ events, away }))
      .catch((e: unknown) => this.options.onError('telling a round of agent changes', e))
  }

  private persist(): Promise<void> {
    if (this.seen === null) return this.saving
    const memory: AgentMemory = { seen: this.seen, unseenFailures: [...this.unseen] }
    this.saving = this.saving
      .then(() => this.options.save(memory))
      .catch((e: unknown) => this.options.onError('saving what agent tasks were seen', e))
    return this.saving
  }

  private eventOf(change: AgentTaskChange): MonitorEvent {
    const { task } = change
    const base = {
      connectionId: this.connectionId,
      projectId: task.project?.id ?? '',
      at: iso(this.options.clock.now()),
      service: this.account.descriptor.kind,
      serviceName: this.account.descriptor.displayName,
      taskId: task.id,
      taskName: task.title
    }
    if (change.kind === 'waiting')
      return { ...base, kind: 'agent-waiting', url: change.waiting.where ?? task.links.page, waiting: change.waiting }
    return {
      ...base,
      kind: 'agent-status',
      url: task.links.page,
      from: change.from,
      to: task.status,
      serviceStatus: task.serviceStatus
    }
  }

  private schedule(at: number): void {
    this.clearTimer()
    this.dueAt = at
    if (!this.running || this.disposed) return
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = null
      void this.runPoll()
    }, at - this.options.clock.now())
  }

  private clearTimer(): void {
    if (this.timer === null) return
    this.options.clock.clearTimeout(this.timer)
    this.timer = null
  }
}

/** Now's order (shared/provider.ts `byNowOrder`, the command's too). */
export function orderAgentTasks<T extends ProviderTask>(tasks: readonly T[]): T[] {
  return [...tasks].sort(byNowOrder)
}
