import { describe, expect, it } from 'vitest'
import type { MonitorEvent, ProjectSnapshot, ServiceErrorKind } from '../../shared/monitor'
import type { StepsAndUsages, Task, TaskStep, UsageRecord } from '../../shared/service'
import type { PollingPrefs } from '../../shared/settings'
import { flushMicrotasks, ManualClock } from '../util/clock'
import { lastSeenTask } from './diff'
import { Monitor, type MonitorCycle, type MonitorOptions, type TasksIfChanged, type TaskSource } from './monitor'

const polling: PollingPrefs = { activeIntervalMs: 5_000, idleIntervalMs: 60_000, maxConcurrency: 4 }

class FakeError extends Error {
  constructor(
    readonly kind: ServiceErrorKind,
    readonly retryAfterMs?: number
  ) {
    super(`fake ${kind}`)
  }
}

/** An in-memory service: task lists per project, scripted failures, and a log of calls. */
class FakeSource implements TaskSource {
  projects = new Map<string, Task[]>()
  failures = new Map<string, FakeError[]>()
  calls: { what: 'list' | 'details'; id: string; at: number }[] = []
  /** When set (for all, or for these projects), listTasks waits for release() before answering. */
  hold: boolean | Set<string> = false
  private held: (() => void)[] = []
  inFlight = 0
  maxInFlight = 0

  constructor(private readonly clock: ManualClock) {}

  async listTasks(projectId: string, signal?: AbortSignal): Promise<Task[]> {
    this.calls.push({ what: 'list', id: projectId, at: this.clock.now() })
    this.inFlight++
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight)
    try {
      if (this.hold === true || (this.hold instanceof Set && this.hold.has(projectId)))
        await new Promise<void>((resolve) => this.held.push(resolve))
      if (signal?.aborted) throw new FakeError('network')
      const failure = this.failures.get(projectId)?.shift()
      if (failure) throw failure
      return structuredClone(this.projects.get(projectId) ?? [])
    } finally {
      this.inFlight--
    }
  }

  /** Usage records by task, for getStepsAndUsages. */
  usages = new Map<string, UsageRecord[]>()

  /** When set, getStepsAndUsages waits for release() too. */
  holdDetails = false

  async getStepsAndUsages(taskId: string): Promise<StepsAndUsages> {
    this.calls.push({ what: 'details', id: taskId, at: this.clock.now() })
    if (this.holdDetails) await new Promise<void>((resolve) => this.held.push(resolve))
    return { steps: [], usages: structuredClone(this.usages.get(taskId) ?? []) }
  }

  release(): void {
    const held = this.held
    this.held = []
    held.forEach((r) => r())
  }

  listTimes(projectId: string): number[] {
    return this.calls.filter((c) => c.what === 'list' && c.id === projectId).map((c) => c.at)
  }

  detailIds(): string[] {
    return this.calls.filter((c) => c.what === 'details').map((c) => c.id)
  }

  setTask(projectId: string, task: Partial<Task> & Pick<Task, 'id'>): void {
    const list = this.projects.get(projectId) ?? []
    const i = list.findIndex((t) => t.id === task.id)
    const base: Task = {
      project_id: projectId,
      name: `Task ${task.id}`,
      description: '',
      status: 'todo',
      text_requirement: '',
      files_requirement: [],
      created_at: '2025-01-01T08:00:00.000Z',
      updated_at: '2025-01-01T08:00:00.000Z',
      steps: [],
      branch: 'main',
      total_price: null,
      id: task.id
    }
    const next = { ...(i >= 0 ? list[i]! : base), ...task }
    if (i >= 0) list[i] = next
    else list.push(next)
    this.projects.set(projectId, list)
  }
}

function setup(over: Partial<MonitorOptions> = {}) {
  const clock = new ManualClock()
  const source = new FakeSource(clock)
  const options: MonitorOptions = { connectionId: 'c1', source, clock, random: () => 0.5, polling, ...over }
  const make = (extra: Partial<MonitorOptions> = {}) => {
    const monitor = new Monitor({ ...options, ...extra })
    const events: MonitorEvent[] = []
    const cycles: MonitorCycle[] = []
    const states: Record<string, ProjectSnapshot>[] = []
    monitor.on('event', (e) => events.push(e))
    monitor.on('cycle', (c) => cycles.push(c))
    monitor.on('state', (s) => states.push(s))
    return { monitor, events, cycles, states }
  }
  return { clock, source, make }
}

/** Two watched projects; p1's task has completed, and that change waits for the round p2's hanging poll holds open. */
async function roundHeldOpenByP2() {
  const { source, make } = setup()
  source.setTask('p1', { id: 'a', status: 'in_progress' })
  const { monitor, cycles } = make({ projects: ['p1', 'p2'] })
  await monitor.pollNow()
  source.setTask('p1', { id: 'a', status: 'completed' })
  source.hold = new Set(['p2'])
  void monitor.pollNow('p2')
  await flushMicrotasks()
  await monitor.pollNow('p1')
  return { source, monitor, cycles }
}

function step(id: string, status: TaskStep['status']): TaskStep {
  const at = '2025-01-01T08:00:00.000Z'
  return {
    id,
    task_id: 'a',
    name: `Step ${id}`,
    description: '',
    status,
    type: null,
    metadata: {},
    created_at: at,
    updated_at: at
  }
}

const kinds = (events: MonitorEvent[]) => events.filter((e) => e.kind !== 'project-health').map((e) => e.kind)

describe('Monitor: change detection over polls', () => {
  it('sets a baseline silently, then reports changes in one cycle', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    source.setTask('p1', { id: 'b', status: 'completed' })
    const { monitor, events, cycles, states } = make({ projects: ['p1'] })
    await monitor.pollNow()
    expect(kinds(events)).toEqual([])
    expect(cycles).toEqual([])
    expect(states).toHaveLength(1)
    expect(monitor.getSummary('p1')).toMatchObject({ running: 1, failed: 0, total: 2 })
    expect(monitor.getHealth('p1').state).toBe('ok')
    expect(source.detailIds()).toEqual([])

    source.setTask('p1', { id: 'a', status: 'completed', total_price: 0.42 })
    source.setTask('p1', { id: 'c', status: 'todo' })
    await monitor.pollNow('p1')
    expect(kinds(events)).toEqual(['task-status', 'task-price', 'task-added'])
    expect(cycles).toHaveLength(1)
    expect(cycles[0]!.away).toBe(false)
    expect(cycles[0]!.events.map((e) => e.kind)).toEqual(['task-status', 'task-price', 'task-added'])
    // Details only of what changed: a and c, never b.
    expect(source.detailIds().sort()).toEqual(['a', 'c'])
    expect(lastSeenTask(monitor.snapshot().p1!, 'a')?.status).toBe('completed')
    monitor.dispose()
  })

  it('refreshes the focused task on every poll, and nothing else unchanged', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    source.setTask('p1', { id: 'b', status: 'in_progress' })
    const { monitor } = make({ projects: ['p1'] })
    monitor.focusTask('b')
    await monitor.pollNow()
    await monitor.pollNow()
    expect(source.detailIds()).toEqual(['b', 'b'])
    monitor.focusTask(null)
    await monitor.pollNow()
    expect(source.detailIds()).toEqual(['b', 'b'])
    // getTaskDetails serves the cache, fetching only what it lacks.
    await monitor.getTaskDetails('b')
    await monitor.getTaskDetails('a')
    expect(source.detailIds()).toEqual(['b', 'b', 'a'])
    monitor.dispose()
  })

  it('fetches the details of a focused task only in the polls of its own project', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    source.setTask('p2', { id: 'b', status: 'in_progress' })
    const { monitor } = make({ projects: ['p1', 'p2'] })
    await monitor.pollNow()
    monitor.focusTask('b')
    source.setTask('p1', { id: 'a', status: 'completed' })
    await monitor.pollNow('p1')
    expect(source.detailIds()).toEqual(['a'])
    monitor.dispose()
  })

  it('tells which step of a focused task changed after the task ended', async () => {
    const { source, make } = setup()
    const steps = (first: TaskStep['status']): TaskStep[] => [step('s1', first), step('s2', 'completed')]
    source.setTask('p1', { id: 'a', status: 'completed', steps: steps('completed') })
    const { monitor, events } = make({ projects: ['p1'] })
    monitor.focusTask('a')
    await monitor.pollNow()
    source.setTask('p1', { id: 'a', steps: steps('failed') })
    await monitor.pollNow()
    expect(events.filter((e) => e.kind.startsWith('step-'))).toMatchObject([
      { kind: 'step-status', taskId: 'a', stepId: 's1', from: 'completed', to: 'failed' }
    ])
    monitor.dispose()
  })
})

describe('Monitor: cycles', () => {
  it('coalesces the changes of projects polled together into one cycle', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    source.setTask('p2', { id: 'b', status: 'in_progress' })
    const { monitor, cycles } = make({ projects: ['p1', 'p2'] })
    await monitor.pollNow()
    source.setTask('p1', { id: 'a', status: 'completed' })
    source.setTask('p2', { id: 'b', status: 'failed' })
    await monitor.pollNow()
    expect(cycles).toHaveLength(1)
    expect(cycles[0]!.events.map((e) => e.projectId).sort()).toEqual(['p1', 'p2'])
    monitor.dispose()
  })

  it('hands over pending changes when disposed while another poll hangs', async () => {
    const { source, monitor, cycles } = await roundHeldOpenByP2()
    // p1's change waits for the round (p2 is still in flight)...
    expect(cycles).toHaveLength(0)
    monitor.dispose()
    // ...and is not lost when the monitor stops.
    expect(cycles).toMatchObject([{ away: false, events: [{ kind: 'task-status', taskId: 'a' }] }])
    source.release()
  })
})

describe('Monitor: schedule', () => {
  it('polls fast while a task is active and slow once all have ended', async () => {
    const { clock, source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    const { monitor } = make({ projects: ['p1'] })
    monitor.start()
    await clock.advance(0)
    await clock.advance(12_000)
    expect(source.listTimes('p1').map((t) => t - source.listTimes('p1')[0]!)).toEqual([0, 5_000, 10_000])
    source.setTask('p1', { id: 'a', status: 'completed' })
    await clock.advance(3_000) // the poll at 15s sees it ended
    const t0 = source.listTimes('p1')[0]!
    await clock.advance(120_000)
    expect(source.listTimes('p1').map((t) => t - t0)).toEqual([0, 5_000, 10_000, 15_000, 75_000, 135_000])
    monitor.dispose()
  })

  it('jitters intervals with the injected random source', async () => {
    const { clock, source, make } = setup({ random: () => 0 })
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    const { monitor } = make({ projects: ['p1'] })
    monitor.start()
    await clock.advance(10_000)
    const times = source.listTimes('p1')
    expect(times.map((t) => t - times[0]!)).toEqual([0, 4_500, 9_000])
    monitor.dispose()
  })

  it('backs off on server errors, honours Retry-After, reports health once per change and recovers', async () => {
    const { clock, source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    source.failures.set('p1', [new FakeError('server'), new FakeError('server'), new FakeError('rate_limited', 60_000)])
    const { monitor, events } = make({ projects: ['p1'] })
    monitor.start()
    await clock.advance(200_000)
    const times = source.listTimes('p1')
    // Errors at 0, 5s (after 5s), 15s (after 10s); rate limited asks for 60s, jittered only
    // upwards (+5% at random 0.5): 63s; then fast again.
    expect(times.slice(0, 6)).toEqual([0, 5_000, 15_000, 78_000, 83_000, 88_000].map((d) => times[0]! + d))
    const health = events.filter((e) => e.kind === 'project-health')
    expect(health.map((e) => (e.kind === 'project-health' ? e.health.state : ''))).toEqual(['error', 'error', 'ok'])
    const firstError = health[0]!
    expect(
      firstError.kind === 'project-health' && firstError.health.state === 'error' && firstError.health.error.kind
    ).toBe('server')
    expect(monitor.getHealth('p1').state).toBe('ok')
    monitor.dispose()
  })

  it('keeps checking at the slow pace while the key is refused', async () => {
    const { clock, source, make } = setup()
    source.failures.set('p1', [new FakeError('auth'), new FakeError('auth'), new FakeError('auth')])
    const { monitor, events } = make({ projects: ['p1'] })
    monitor.start()
    await clock.advance(130_000)
    const times = source.listTimes('p1')
    expect(times.map((t) => t - times[0]!)).toEqual([0, 60_000, 120_000])
    const health = monitor.getHealth('p1')
    expect(health.state === 'error' && health.error.kind).toBe('auth')
    expect(health.state === 'error' && health.nextPollAt).toBe(new Date(times[2]! + 60_000).toISOString())
    expect(events.filter((e) => e.kind === 'project-health')).toHaveLength(1)
    monitor.dispose()
  })

  it('runs at most maxConcurrency polls at once across projects', async () => {
    const { clock, source, make } = setup({ polling: { ...polling, maxConcurrency: 2 } })
    const { monitor } = make({ projects: ['p1', 'p2', 'p3', 'p4', 'p5'] })
    source.hold = true
    const done = monitor.pollNow()
    await flushMicrotasks()
    expect(source.inFlight).toBe(2)
    for (let i = 0; i < 3; i++) {
      source.release()
      await flushMicrotasks()
    }
    await done
    expect(source.maxInFlight).toBe(2)
    expect(new Set(source.calls.map((c) => c.id))).toEqual(new Set(['p1', 'p2', 'p3', 'p4', 'p5']))
    await clock.advance(0)
    monitor.dispose()
  })

  it('holds no timer while every slot is busy: the next poll to end looks at the schedule again', async () => {
    const { clock, source, make } = setup({ polling: { ...polling, maxConcurrency: 1 } })
    const { monitor } = make({ projects: ['p1', 'p2'] })
    source.hold = new Set(['p1'])
    monitor.start()
    await flushMicrotasks()
    expect(source.inFlight).toBe(1)
    expect(clock.pending).toBe(0)
    source.release()
    await flushMicrotasks()
    expect(source.listTimes('p2')).toHaveLength(1)
    monitor.dispose()
  })

  it('after a pollNow while paused, holds no timer: nothing polls on schedule until resumed', async () => {
    const { clock, make } = setup()
    const { monitor } = make({ projects: ['p1'] })
    await monitor.pollNow()
    expect(clock.pending).toBe(0)
    monitor.dispose()
  })

  it('does not poll while paused, and polls at once on resume', async () => {
    const { clock, source, make } = setup()
    const { monitor } = make({ projects: ['p1'] })
    monitor.start()
    await clock.advance(1_000)
    expect(source.listTimes('p1')).toHaveLength(1)
    monitor.pause()
    await clock.advance(300_000)
    expect(source.listTimes('p1')).toHaveLength(1)
    // pollNow still works while paused.
    await monitor.pollNow('p1')
    expect(source.listTimes('p1')).toHaveLength(2)
    monitor.resume()
    await clock.advance(0)
    expect(source.listTimes('p1')).toHaveLength(3)
    await clock.advance(60_000)
    expect(source.listTimes('p1')).toHaveLength(4)
    monitor.dispose()
  })

  it('watches and unwatches projects on the fly, and applies new polling prefs', async () => {
    const { clock, source, make } = setup()
    const { monitor } = make()
    monitor.start()
    monitor.watch('p1')
    await clock.advance(0)
    expect(source.listTimes('p1')).toHaveLength(1)
    monitor.setPolling({ ...polling, idleIntervalMs: 10_000 })
    await clock.advance(10_000)
    expect(source.listTimes('p1')).toHaveLength(2)
    monitor.unwatch('p1')
    await clock.advance(100_000)
    expect(source.listTimes('p1')).toHaveLength(2)
    expect(monitor.snapshot()).toEqual({})
    expect(monitor.watched()).toEqual([])
    monitor.dispose()
  })
})

describe('Monitor: restart', () => {
  it('reports changes made while closed as one away cycle, then live ones', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    source.setTask('p1', { id: 'b', status: 'in_progress' })
    source.setTask('p2', { id: 'x', status: 'completed' })
    const first = make({ projects: ['p1', 'p2'] })
    await first.monitor.pollNow()
    const saved = first.states.at(-1)!
    first.monitor.dispose()

    source.setTask('p1', { id: 'a', status: 'completed' })
    source.setTask('p1', { id: 'b', status: 'failed' })
    const second = make({ projects: ['p1', 'p2'], initialState: structuredClone(saved) })
    await second.monitor.pollNow()
    expect(second.cycles).toHaveLength(1)
    expect(second.cycles[0]!.away).toBe(true)
    expect(second.cycles[0]!.events.map((e) => (e.kind === 'task-status' ? `${e.taskId}:${e.to}` : e.kind))).toEqual([
      'a:completed',
      'b:failed'
    ])

    source.setTask('p2', { id: 'x', name: 'renamed', status: 'cancelled' })
    await second.monitor.pollNow()
    expect(second.cycles).toHaveLength(2)
    expect(second.cycles[1]).toMatchObject({
      away: false,
      events: [{ kind: 'task-status', taskId: 'x', to: 'cancelled' }]
    })
    second.monitor.dispose()
  })
})

/** A source that answers conditionally: one version per project, the ETag names it. */
class EtagSource extends FakeSource {
  versions = new Map<string, number>()
  sent: (string | null)[] = []

  bump(projectId: string): void {
    this.versions.set(projectId, (this.versions.get(projectId) ?? 0) + 1)
  }

  override setTask(projectId: string, task: Partial<Task> & Pick<Task, 'id'>): void {
    super.setTask(projectId, task)
    this.bump(projectId)
  }

  async listTasksIfChanged(projectId: string, etag: string | null, signal?: AbortSignal): Promise<TasksIfChanged> {
    this.sent.push(etag)
    const current = `W/"${this.versions.get(projectId) ?? 0}"`
    if (etag === current) {
      this.calls.push({ what: 'list', id: projectId, at: 0 })
      return { changed: false }
    }
    return { changed: true, tasks: await this.listTasks(projectId, signal), etag: current }
  }
}

describe('Monitor: task lists kept only where someone looks', () => {
  it('keeps no task list of an unfocused project, only its summary', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress', total_price: 1.5 })
    source.setTask('p1', { id: 'b', status: 'failed', total_price: 0.25 })
    source.setTask('p2', { id: 'c', status: 'completed' })
    const { monitor } = make({ projects: ['p1', 'p2'] })
    await monitor.pollNow()
    expect(monitor.getTasks('p1')).toBeUndefined()
    expect(monitor.getTasks('p2')).toBeUndefined()
    expect(monitor.getSummary('p1')).toMatchObject({ running: 1, failed: 1, total: 2 })
    expect(monitor.getSummary('p2')).toMatchObject({ running: 0, failed: 0, total: 1 })
    expect(monitor.getRunningCost('p1')).toBe(1.5)
    monitor.dispose()
  })

  it('keeps the focused project and a few lately loaded ones, refreshed by each poll', async () => {
    const { source, make } = setup()
    for (const p of ['p1', 'p2', 'p3']) source.setTask(p, { id: `${p}-a`, status: 'in_progress' })
    const { monitor } = make({ projects: ['p1', 'p2', 'p3'], keptTaskLists: 1 })
    monitor.focusProject('p1')
    await monitor.pollNow()
    expect(monitor.getTasks('p1')?.map((t) => t.id)).toEqual(['p1-a'])
    expect(monitor.getTasks('p2')).toBeUndefined()

    source.setTask('p1', { id: 'p1-b', status: 'todo' })
    await monitor.pollNow('p1')
    expect(monitor.getTasks('p1')?.map((t) => t.id)).toEqual(['p1-a', 'p1-b'])

    monitor.focusProject('p2')
    await monitor.pollNow()
    // Room for one list: the newly focused project's replaced the old one.
    expect(monitor.getTasks('p2')?.map((t) => t.id)).toEqual(['p2-a'])
    expect(monitor.getTasks('p1')).toBeUndefined()
    expect(monitor.getTasks('p3')).toBeUndefined()
    monitor.unwatch('p2')
    expect(monitor.getTasks('p2')).toBeUndefined()
    expect(monitor.focusedProject).toBeNull()
    monitor.dispose()
  })

  it("a list loaded lately is refreshed by its project's polls, focused or not", async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    const { monitor } = make({ projects: ['p1'] })
    await monitor.loadTasks('p1')
    source.setTask('p1', { id: 'b', status: 'todo' })
    await monitor.pollNow()
    expect(monitor.getTasks('p1')?.map((t) => t.id)).toEqual(['a', 'b'])
    monitor.dispose()
  })

  it('loadTasks returns a kept list without asking, and fetches (and keeps for a while) any other', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    source.setTask('p9', { id: 'z', status: 'completed' })
    const { monitor } = make({ projects: ['p1'] })
    await monitor.pollNow()
    const before = source.listTimes('p1').length
    expect((await monitor.loadTasks('p1')).map((t) => t.id)).toEqual(['a'])
    expect(source.listTimes('p1')).toHaveLength(before + 1)
    expect(monitor.getTasks('p1')?.map((t) => t.id)).toEqual(['a'])
    expect((await monitor.loadTasks('p1')).map((t) => t.id)).toEqual(['a'])
    expect(source.listTimes('p1')).toHaveLength(before + 1)
    // Not watched: fetched, never kept.
    expect((await monitor.loadTasks('p9')).map((t) => t.id)).toEqual(['z'])
    expect(monitor.getTasks('p9')).toBeUndefined()
    monitor.dispose()
  })

  it('finds the project of a task from the last seen state', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a' })
    source.setTask('p2', { id: 'b' })
    const { monitor } = make({ projects: ['p1', 'p2'] })
    await monitor.pollNow()
    expect(monitor.projectOfTask('b')).toBe('p2')
    expect(monitor.projectOfTask('nope')).toBeUndefined()
    monitor.dispose()
  })
})

describe('Monitor: conditional polls', () => {
  function etagSetup() {
    const clock = new ManualClock()
    const source = new EtagSource(clock)
    const monitor = new Monitor({ connectionId: 'c1', source, clock, random: () => 0.5, polling })
    const events: MonitorEvent[] = []
    const lists: string[] = []
    monitor.on('event', (e) => events.push(e))
    monitor.on('tasks', ({ projectId }) => lists.push(projectId))
    return { clock, source, monitor, events, lists }
  }

  it('sends the ETag of the last list taken and skips the work on "unchanged"', async () => {
    const { source, monitor, events, lists } = etagSetup()
    source.setTask('p1', { id: 'a', status: 'in_progress', total_price: 2 })
    monitor.watch('p1')
    await monitor.pollNow()
    expect(source.sent).toEqual([null])
    expect(lists).toEqual(['p1'])

    await monitor.pollNow()
    expect(source.sent).toEqual([null, 'W/"1"'])
    expect(lists).toEqual(['p1'])
    expect(monitor.getHealth('p1').state).toBe('ok')
    expect(monitor.getSummary('p1')).toMatchObject({ running: 1, total: 1 })

    source.setTask('p1', { id: 'a', status: 'completed' })
    await monitor.pollNow()
    expect(source.sent).toEqual([null, 'W/"1"', 'W/"1"'])
    expect(lists).toEqual(['p1', 'p1'])
    expect(events.filter((e) => e.kind === 'task-status')).toMatchObject([
      { taskId: 'a', from: 'in_progress', to: 'completed' }
    ])
    expect(monitor.getSummary('p1')).toMatchObject({ running: 0, total: 1 })
    monitor.dispose()
  })

  it('keeps the active pace on "unchanged" while a task runs', async () => {
    const { clock, source, monitor } = etagSetup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    monitor.watch('p1')
    monitor.start()
    for (let i = 0; i < 3; i++) await clock.advance(5_000)
    await monitor.idle()
    expect(source.sent.slice(1).every((e) => e === 'W/"1"')).toBe(true)
    expect(source.sent.length).toBeGreaterThanOrEqual(3)
    monitor.dispose()
  })

  it('on "unchanged", refreshes the focused task only when it is this project\'s', async () => {
    const { source, monitor } = etagSetup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    source.setTask('p2', { id: 'b', status: 'in_progress' })
    monitor.watch('p1')
    monitor.watch('p2')
    await monitor.pollNow()
    monitor.focusTask('b')
    await monitor.pollNow('p1')
    expect(source.detailIds()).toEqual([])
    await monitor.pollNow('p2')
    expect(source.detailIds()).toEqual(['b'])
    monitor.dispose()
  })

  it('asks unconditionally for a project whose list is wanted, so the list is always there', async () => {
    const { source, monitor } = etagSetup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    monitor.watch('p1')
    await monitor.pollNow()
    monitor.focusProject('p1')
    await monitor.pollNow()
    expect(source.sent).toEqual([null, null])
    expect(monitor.getTasks('p1')?.map((t) => t.id)).toEqual(['a'])
    monitor.dispose()
  })
})

function usage(taskId: string, finalPrice: number): UsageRecord {
  return {
    id: `u-${taskId}-${finalPrice}`,
    task_id: taskId,
    usage_type: 'llm',
    provider: 'p',
    model: 'm',
    remark: '',
    request_data: {},
    response_data: {},
    usage_metadata: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    price: {},
    final_price: finalPrice,
    created_at: '2025-01-01T08:00:00.000Z',
    updated_at: '2025-01-01T08:00:00.000Z'
  }
}

describe('Monitor: what it tells, and to whom', () => {
  it('tells fresh steps and usages of a task as they come, and a listener taken off hears nothing more', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    source.usages.set('a', [usage('a', 0.5)])
    const { monitor } = make({ projects: ['p1'] })
    const told: string[] = []
    const listener = ({ taskId, details }: { taskId: string; details: StepsAndUsages }) =>
      told.push(`${taskId}:${details.usages.length}`)
    monitor.on('details', listener)
    monitor.focusTask('a')
    await monitor.pollNow()
    expect(told).toEqual(['a:1'])
    monitor.off('details', listener)
    await monitor.pollNow()
    expect(source.detailIds()).toEqual(['a', 'a'])
    expect(told).toEqual(['a:1'])
    // Or by the function on() gave.
    const also: string[] = []
    const stop = monitor.on('details', ({ taskId }) => also.push(taskId))
    await monitor.pollNow()
    stop()
    await monitor.pollNow()
    expect(also).toEqual(['a'])
    monitor.dispose()
  })

  it('a running task without a price costs what its usage records say, once its details are in', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    source.setTask('p1', { id: 'b', status: 'completed', total_price: 2 })
    source.usages.set('a', [usage('a', 0.25), usage('a', 0.5)])
    const { monitor } = make({ projects: ['p1'] })
    await monitor.pollNow()
    expect(monitor.getRunningCost('p1')).toBe(0)
    expect(monitor.usagesByTask()).toEqual({})
    await monitor.getTaskDetails('a')
    expect(monitor.usagesByTask()).toEqual({ a: [usage('a', 0.25), usage('a', 0.5)] })
    expect(monitor.getRunningCost('p1')).toBe(0.75)
    monitor.dispose()
  })

  it('takes the projects to watch as ids or as entries with an id', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a' })
    source.setTask('p2', { id: 'b' })
    const { monitor } = make({ projects: ['p1', { projectId: 'p2' }] })
    expect(monitor.watched()).toEqual(['p1', 'p2'])
    expect(monitor.isWatched('p2')).toBe(true)
    expect(monitor.isWatched('p3')).toBe(false)
    await monitor.pollNow()
    expect(monitor.projectOfTask('b')).toBe('p2')
    monitor.dispose()
  })

  it('a project not yet polled has no last seen state and holds none of its tasks', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a' })
    source.setTask('p2', { id: 'b' })
    const { monitor, states } = make({ projects: ['p1', 'p2'] })
    await monitor.pollNow('p1')
    expect(Object.keys(monitor.snapshot())).toEqual(['p1'])
    expect(monitor.projectOfTask('b')).toBeUndefined()
    expect(monitor.getTasks('p2')).toBeUndefined()
    expect(monitor.getSummary('p2')).toBeUndefined()
    expect(monitor.getRunningCost('p2')).toBe(0)
    // Unwatching it changes no last seen state: nothing to persist.
    const told = states.length
    monitor.unwatch('p2')
    expect(states).toHaveLength(told)
    monitor.dispose()
  })

  it('a project whose id names an Object.prototype member starts afresh when the former state has no entry for it', async () => {
    const { source, make } = setup()
    source.setTask('constructor', { id: 'a', status: 'in_progress' })
    source.setTask('p1', { id: 'b', status: 'in_progress' })
    const first = make({ projects: ['p1'] })
    await first.monitor.pollNow()
    const saved = first.states.at(-1)!
    first.monitor.dispose()
    const { monitor, cycles } = make({ projects: ['constructor', 'p1'], initialState: structuredClone(saved) })
    await monitor.pollNow()
    expect(cycles).toEqual([])
    expect(monitor.getSummary('constructor')).toMatchObject({ running: 1, total: 1 })
    monitor.dispose()
  })
})

describe('Monitor: watching and unwatching', () => {
  it('watching a watched project again keeps what it knows', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    const { monitor, cycles } = make({ projects: ['p1'] })
    await monitor.pollNow()
    monitor.watch('p1')
    source.setTask('p1', { id: 'a', status: 'completed' })
    await monitor.pollNow()
    expect(cycles).toMatchObject([{ away: false, events: [{ kind: 'task-status', taskId: 'a', to: 'completed' }] }])
    monitor.dispose()
  })

  it('unwatching a project that is not watched, or another than the one focused, changes nothing', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a' })
    const { monitor } = make({ projects: ['p1', 'p2'] })
    monitor.focusProject('p1')
    await monitor.pollNow()
    monitor.unwatch('nope')
    monitor.unwatch('p2')
    expect(monitor.focusedProject).toBe('p1')
    expect(monitor.watched()).toEqual(['p1'])
    expect(monitor.getTasks('p1')?.map((t) => t.id)).toEqual(['a'])
    monitor.dispose()
  })

  it('unwatching a project mid-poll ends a round it held open', async () => {
    const { source, monitor, cycles } = await roundHeldOpenByP2()
    // p1's change waits for the round: p2's poll hangs.
    expect(cycles).toEqual([])
    monitor.unwatch('p2')
    expect(cycles).toMatchObject([{ away: false, events: [{ kind: 'task-status', taskId: 'a', to: 'completed' }] }])
    source.release()
    monitor.dispose()
  })

  it('unwatching a project mid-poll frees its slot for the next', async () => {
    const { source, make } = setup({ polling: { ...polling, maxConcurrency: 1 } })
    const { monitor } = make({ projects: ['p1', 'p2'] })
    source.hold = new Set(['p1'])
    void monitor.pollNow('p1')
    await flushMicrotasks()
    const p2 = monitor.pollNow('p2')
    await flushMicrotasks()
    expect(source.listTimes('p2')).toEqual([])
    monitor.unwatch('p1')
    await p2
    expect(source.listTimes('p2')).toHaveLength(1)
    source.release()
    monitor.dispose()
  })

  it('a project unwatched while its list is fetched tells nothing of that poll, not even its failure', async () => {
    const { source, make } = setup()
    const { monitor, events } = make({ projects: ['p1'] })
    source.hold = true
    const waiting = monitor.pollNow()
    await flushMicrotasks()
    monitor.unwatch('p1')
    await waiting
    // The aborted fetch fails as it ends.
    source.hold = false
    source.release()
    await flushMicrotasks()
    expect(events).toEqual([])
    monitor.dispose()
  })
})

describe('Monitor: pollNow', () => {
  it('while a poll is in flight, waits for a poll that starts after it was asked', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    const { monitor } = make({ projects: ['p1'] })
    await monitor.pollNow()
    source.hold = true
    const first = monitor.pollNow()
    await flushMicrotasks()
    // The change comes after the poll in flight read the list: only a later poll sees it.
    source.setTask('p1', { id: 'a', status: 'completed' })
    const second = monitor.pollNow()
    source.hold = false
    source.release()
    await second
    expect(monitor.getSummary('p1')).toMatchObject({ running: 0, total: 1 })
    await first
    monitor.dispose()
  })

  it('of a project not watched resolves at once, polling nothing', async () => {
    const { source, make } = setup()
    const { monitor } = make({ projects: ['p1'] })
    await monitor.pollNow('nope')
    expect(source.calls).toEqual([])
    monitor.dispose()
  })

  it('asked while a poll is in flight, is not answered when that poll ends, only when the next one does', async () => {
    const { source, make } = setup()
    const { monitor } = make({ projects: ['p1'] })
    source.hold = true
    const first = monitor.pollNow()
    await flushMicrotasks()
    let answered = false
    const second = monitor.pollNow().then(() => (answered = true))
    // The poll in flight ends; the one asked for after it starts, and hangs in its turn.
    source.release()
    await first
    await flushMicrotasks()
    expect(source.listTimes('p1')).toHaveLength(2)
    expect(answered).toBe(false)
    source.hold = false
    source.release()
    await second
    monitor.dispose()
  })
})

describe('Monitor: paused and disposed', () => {
  it('holds no timer while paused, and one once running', async () => {
    const { clock, make } = setup()
    const { monitor } = make({ projects: ['p1'] })
    expect(monitor.isPaused).toBe(true)
    monitor.start()
    await clock.advance(0)
    expect(monitor.isPaused).toBe(false)
    expect(clock.pending).toBe(1)
    monitor.pause()
    expect(monitor.isPaused).toBe(true)
    expect(clock.pending).toBe(0)
    monitor.dispose()
  })

  it('once disposed, stays stopped: nothing polls, nothing is watched or kept, nothing is told, and no caller waits', async () => {
    const { clock, source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    source.setTask('p2', { id: 'b', status: 'in_progress' })
    const { monitor, events } = make({ projects: ['p1'] })
    const told: string[] = []
    monitor.on('details', ({ taskId }) => told.push(taskId))
    monitor.start()
    await clock.advance(0)
    await monitor.idle()
    source.hold = true
    const waiting = monitor.pollNow()
    const idle = monitor.idle()
    await flushMicrotasks()
    const polls = source.calls.length
    monitor.dispose()
    await waiting
    await idle
    expect(clock.pending).toBe(0)
    expect(monitor.isPaused).toBe(true)
    // The poll in flight finishes after all: what it read is told to no one.
    source.hold = false
    source.release()
    await flushMicrotasks()

    monitor.resume()
    expect(monitor.isPaused).toBe(true)
    monitor.watch('p2')
    expect(monitor.watched()).toEqual(['p1'])
    await monitor.pollNow()
    await monitor.idle()
    await monitor.loadTasks('p1')
    expect(monitor.getTasks('p1')).toBeUndefined()
    await monitor.getTaskDetails('a')
    expect(told).toEqual([])
    await clock.advance(120_000)
    // The one list after those polls is loadTasks' own.
    expect(source.calls.filter((c) => c.what === 'list')).toHaveLength(polls + 1)
    expect(events.filter((e) => e.kind !== 'project-health')).toEqual([])
    monitor.dispose()
  })

  it('once disposed, a poll waiting for a free slot never starts, even when the slot frees', async () => {
    const { source, make } = setup({ polling: { ...polling, maxConcurrency: 1 } })
    const { monitor } = make({ projects: ['p1', 'p2'] })
    source.hold = true
    void monitor.pollNow('p1')
    await flushMicrotasks()
    const waiting = monitor.pollNow('p2')
    monitor.dispose()
    await waiting
    // Unwatching the project whose poll holds the slot frees it.
    monitor.unwatch('p1')
    source.hold = false
    source.release()
    await flushMicrotasks()
    expect(source.listTimes('p2')).toEqual([])
  })
})

describe('Monitor: rounds and pace', () => {
  it('tells a round that a hanging poll holds open once it has gone on for the active interval', async () => {
    const { clock, source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    source.setTask('p1', { id: 'b', status: 'in_progress' })
    const { monitor, cycles } = make({ projects: ['p1', 'p2'] })
    await monitor.pollNow()
    monitor.setPolling({ ...polling, activeIntervalMs: 2_000 })
    source.hold = new Set(['p2'])
    source.setTask('p1', { id: 'a', status: 'completed' })
    monitor.start()
    await clock.advance(0)
    expect(cycles).toEqual([])
    // p1 polls again at 2 s (b still runs): the round began 2 s ago, long enough.
    await clock.advance(2_000)
    expect(cycles).toMatchObject([{ away: false, events: [{ kind: 'task-status', taskId: 'a', to: 'completed' }] }])
    source.release()
    monitor.dispose()
  })

  it('keeps polling the others at their pace while one poll hangs', async () => {
    const { clock, source, make } = setup()
    source.setTask('p2', { id: 'b', status: 'in_progress' })
    const { monitor } = make({ projects: ['p1', 'p2'] })
    source.hold = new Set(['p1'])
    monitor.start()
    await clock.advance(10_000)
    expect(source.listTimes('p2').map((t) => t - source.listTimes('p2')[0]!)).toEqual([0, 5_000, 10_000])
    source.release()
    monitor.dispose()
  })

  it('keeps the idle pace on "unchanged" once every task has ended', async () => {
    const clock = new ManualClock()
    const source = new EtagSource(clock)
    source.setTask('p1', { id: 'a', status: 'completed' })
    const monitor = new Monitor({ connectionId: 'c1', source, clock, random: () => 0.5, polling, projects: ['p1'] })
    monitor.start()
    await clock.advance(130_000)
    expect(source.sent).toEqual([null, 'W/"1"', 'W/"1"'])
    monitor.dispose()
  })

  it('idle() waits for a poll in flight', async () => {
    const { source, make } = setup()
    const { monitor } = make({ projects: ['p1'] })
    source.hold = true
    void monitor.pollNow()
    await flushMicrotasks()
    let idle = false
    void monitor.idle().then(() => (idle = true))
    await flushMicrotasks()
    expect(idle).toBe(false)
    source.release()
    await flushMicrotasks()
    expect(idle).toBe(true)
    monitor.dispose()
  })

  it("idle() asked as a round is told waits for the poll asked for during the round's last one", async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    const { monitor } = make({ projects: ['p1'] })
    await monitor.pollNow()
    let idle = false
    monitor.on('cycle', () => void monitor.idle().then(() => (idle = true)))
    source.hold = true
    const first = monitor.pollNow()
    await flushMicrotasks()
    const second = monitor.pollNow()
    source.setTask('p1', { id: 'a', status: 'completed' })
    // The first poll reads the change, ends and tells its round; the second starts, and hangs.
    source.release()
    await first
    await flushMicrotasks()
    expect(source.listTimes('p1')).toHaveLength(3)
    expect(idle).toBe(false)
    source.hold = false
    source.release()
    await second
    await flushMicrotasks()
    expect(idle).toBe(true)
    monitor.dispose()
  })
})

describe('Monitor: the last seen state', () => {
  it('is told when it changed, not after a poll that found nothing new', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    const { monitor, states } = make({ projects: ['p1'] })
    await monitor.pollNow()
    expect(states).toHaveLength(1)
    await monitor.pollNow()
    expect(states).toHaveLength(1)
    source.setTask('p1', { id: 'a', status: 'completed' })
    await monitor.pollNow()
    expect(states).toHaveLength(2)
    monitor.dispose()
  })

  it('drops the budget level an older build kept in it, at the first poll, changes or not', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'completed' })
    const former: Record<string, ProjectSnapshot> = {
      p1: {
        polledAt: '2025-01-01T08:00:00.000Z',
        tasks: {
          a: { status: 'completed', name: 'Task a', updatedAt: '2025-01-01T08:00:00.000Z', totalPrice: null, steps: {} }
        },
        budgetNotified: { budgetUsd: 5, level: 'near' }
      }
    }
    const { monitor, states, cycles } = make({ projects: ['p1'], initialState: former })
    await monitor.pollNow()
    expect(cycles).toEqual([])
    expect(states).toHaveLength(1)
    expect(states[0]!.p1).not.toHaveProperty('budgetNotified')
    monitor.dispose()
  })
})

describe('Monitor: task details', () => {
  it('fetches again when asked to refresh', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    const { monitor } = make({ projects: ['p1'] })
    await monitor.getTaskDetails('a')
    await monitor.getTaskDetails('a')
    expect(source.detailIds()).toEqual(['a'])
    await monitor.getTaskDetails('a', { refresh: true })
    expect(source.detailIds()).toEqual(['a', 'a'])
    monitor.dispose()
  })

  it("a project unwatched while its changed tasks' details are fetched tells nothing of that poll", async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    source.setTask('p1', { id: 'b', status: 'in_progress' })
    const { monitor, events, cycles, states } = make({ projects: ['p1'] })
    await monitor.pollNow()
    const told = { events: events.length, states: states.length }
    source.setTask('p1', { id: 'a', status: 'completed' })
    source.setTask('p1', { id: 'b', status: 'failed' })
    source.holdDetails = true
    const waiting = monitor.pollNow()
    await flushMicrotasks()
    expect(source.detailIds()).toEqual(['a'])
    monitor.unwatch('p1')
    source.holdDetails = false
    source.release()
    await waiting
    await monitor.idle()
    // The aborted poll's own leftovers run too (it is told to no one, so nothing to wait on by name).
    await flushMicrotasks()
    // b's details are not asked for, and nothing of what the poll saw is told.
    expect(source.detailIds()).toEqual(['a'])
    expect(events).toHaveLength(told.events)
    expect(cycles).toEqual([])
    expect(states.slice(told.states)).toEqual([{}])
    expect(monitor.getHealth('p1')).toEqual({ state: 'unknown' })
    monitor.dispose()
  })

  it('a project unwatched while the details of its last changed task are fetched tells nothing of that poll', async () => {
    const { source, make } = setup()
    source.setTask('p1', { id: 'a', status: 'in_progress' })
    const { monitor, events, cycles } = make({ projects: ['p1'] })
    const lists: string[] = []
    monitor.on('tasks', ({ projectId }) => lists.push(projectId))
    await monitor.pollNow()
    const told = events.length
    source.setTask('p1', { id: 'a', status: 'completed' })
    source.holdDetails = true
    const waiting = monitor.pollNow()
    await flushMicrotasks()
    expect(source.detailIds()).toEqual(['a'])
    monitor.unwatch('p1')
    source.holdDetails = false
    source.release()
    await waiting
    await flushMicrotasks()
    expect(lists).toEqual(['p1'])
    expect(events.slice(told)).toEqual([])
    expect(cycles).toEqual([])
    monitor.dispose()
  })
})
