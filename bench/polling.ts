// 1. Polling efficiency: one simulated hour of 50 watched projects (5 active), our monitor
// against a naive poller, each on its own reference service with the same seed and the same
// scripted changes, so both see the same history. Time is simulated on both sides (the
// service's manual clock, the monitor's ManualClock) and moved together, timer by timer.
import { createServiceClient, type ServiceClient } from '../src/core/client/index'
import { Monitor, type MonitorCycle } from '../src/core/monitor/index'
import { ManualClock } from '../src/core/util/clock'
import { decideNotifications, notifiableTransition } from '../src/core/notify/index'
import { MANUAL_START_TIME, type ServiceStats } from '../src/reference-service/index'
import type { MonitorEvent } from '../src/shared/monitor'
import { DEFAULT_NOTIFICATION_PREFS, DEFAULT_POLLING_PREFS, type PollingPrefs } from '../src/shared/settings'
import { NaivePoller } from './naive-poller'
import { intBetween, seededRandom } from './random'
import { check, type BenchOptions, type MeasureResult } from './result'
import { startServiceInProcess } from './service-in-process'
import { startServiceProcess, type ServiceProcess } from './service-process'
import { round } from './stats'

const API_KEY = 'bench-polling-key'
const SEED = 7
// Few tasks per project at the start (the script adds more): the naive poller's cost grows with
// every task, so this understates our advantage, and keeps its simulated hour affordable here.
const TASKS_PER_PROJECT = 2
const STEPS_PER_TASK = 10

/** A scripted change, applied at the same simulated moment to both services. */
type Action =
  | { at: number; kind: 'finish'; project: number; status: 'completed' | 'failed' }
  | { at: number; kind: 'add'; project: number; ref: number; script: 'complete' | 'fail' }
  | { at: number; kind: 'cancel'; ref: number }

interface Setup {
  durationMs: number
  projects: number
  active: number
}

/** Seeded, so both runs (and every run) get the same history. */
function makeScript(setup: Setup): Action[] {
  const random = seededRandom(SEED * 31)
  const actions: Action[] = []
  const quietTail = Math.min(10 * 60_000, setup.durationMs / 3)
  const last = setup.durationMs - quietTail
  for (let p = 0; p < setup.active; p++) {
    actions.push({ at: intBetween(random, 60_000, Math.floor(last * 0.7)), kind: 'finish', project: p, status: random() < 0.8 ? 'completed' : 'failed' })
  }
  // About one new task every two minutes, mostly in the projects already at work.
  const adds = Math.max(2, Math.round(setup.durationMs / 120_000))
  for (let ref = 0; ref < adds; ref++) {
    const at = intBetween(random, 30_000, last)
    const project = random() < 0.6 ? intBetween(random, 0, setup.active - 1) : intBetween(random, 0, setup.projects - 1)
    actions.push({ at, kind: 'add', project, ref, script: random() < 0.75 ? 'complete' : 'fail' })
    // Cancelled while still running (a task takes well over 20 s).
    if (random() < 0.2) actions.push({ at: at + 20_000, kind: 'cancel', ref })
  }
  return actions.sort((a, b) => a.at - b.at)
}

interface World {
  service: ServiceProcess
  client: ServiceClient
  projectIds: string[]
  /** The running task of each active project. */
  runningTaskIds: string[]
  added: Map<number, string>
  clientRequests: number
  clientBytes: number
}

async function makeWorld(setup: Setup, where: 'in-process' | 'child'): Promise<World> {
  const start = where === 'child' ? startServiceProcess : startServiceInProcess
  const service = await start({ apiKey: API_KEY, seed: SEED, manualClock: true })
  const { projectIds } = await service.control.bulkCreate({
    projects: setup.projects,
    tasksPerProject: TASKS_PER_PROJECT,
    stepsPerTask: STEPS_PER_TASK,
    activeProjects: setup.active
  })
  const world: World = { service, client: undefined as unknown as ServiceClient, projectIds, runningTaskIds: [], added: new Map(), clientRequests: 0, clientBytes: 0 }
  world.client = createServiceClient({
    baseUrl: service.url,
    apiKey: API_KEY,
    retry: { retries: 0 },
    onResponse: ({ bytes }) => {
      world.clientRequests += 1
      world.clientBytes += bytes
    }
  })
  // Finding the running tasks is set-up, not polling: counted out below.
  for (const projectId of projectIds.slice(0, setup.active)) {
    const running = (await world.client.listTasks(projectId)).find((t) => t.status === 'in_progress')
    if (!running) throw new Error(`Bulk project ${projectId} has no running task.`)
    world.runningTaskIds.push(running.id)
  }
  await service.control.resetStats()
  world.clientRequests = 0
  world.clientBytes = 0
  return world
}

async function apply(world: World, action: Action): Promise<void> {
  const { control } = world.service
  if (action.kind === 'finish') await control.setTaskStatus(world.runningTaskIds[action.project] as string, action.status)
  else if (action.kind === 'add') {
    const task = await control.addTask(world.projectIds[action.project] as string, { name: `Scripted task ${action.ref + 1}`, script: action.script })
    world.added.set(action.ref, task.id)
  } else await control.setTaskStatus(world.added.get(action.ref) as string, 'cancelled')
}

/** The notifications the events stand for, as comparable keys: `taskId transition`. */
function notified(events: readonly MonitorEvent[]): string[] {
  const out: string[] = []
  for (const e of events) {
    const t = notifiableTransition(e)
    if (t && DEFAULT_NOTIFICATION_PREFS.transitions[t] && 'taskId' in e) out.push(`${e.taskId} ${t}`)
  }
  return out.sort()
}

function countNotifications(batches: readonly MonitorCycle[]): number {
  const context = { projectName: () => '' }
  return batches.reduce((n, b) => n + decideNotifications(b, DEFAULT_NOTIFICATION_PREFS, context).length, 0)
}

interface SideResult {
  stats: ServiceStats
  clientRequests: number
  clientBytes: number
  transitions: string[]
  notifications: number
  addedIds: string[]
  wallMs: number
}

async function runMonitor(setup: Setup, script: readonly Action[], polling: PollingPrefs): Promise<SideResult> {
  // The monitor's side takes one small step per poll: its service is best close at hand.
  const world = await makeWorld(setup, 'in-process')
  const start = Date.parse(MANUAL_START_TIME)
  const clock = new ManualClock(start)
  const monitor = new Monitor({ connectionId: 'bench', source: world.client, projects: world.projectIds, polling, clock, random: seededRandom(SEED) })
  const events: MonitorEvent[] = []
  const cycles: MonitorCycle[] = []
  monitor.on('event', (e) => events.push(e))
  monitor.on('cycle', (c) => cycles.push(c))
  const began = performance.now()
  monitor.start()
  await monitor.idle()
  const end = start + setup.durationMs
  let next = 0
  while (clock.now() < end) {
    const at = Math.min(clock.nextAt() ?? end, (script[next]?.at ?? Infinity) + start, end)
    const step = at - clock.now()
    await world.service.control.advance(step)
    while (script[next] && (script[next] as Action).at + start <= at) await apply(world, script[next++] as Action)
    await clock.advance(step)
    await monitor.idle()
  }
  monitor.dispose()
  const result: SideResult = {
    stats: await world.service.control.stats(),
    clientRequests: world.clientRequests,
    clientBytes: world.clientBytes,
    transitions: notified(events),
    notifications: countNotifications(cycles),
    addedIds: [...world.added.values()],
    wallMs: performance.now() - began
  }
  await world.client.close()
  await world.service.close()
  return result
}

async function runNaive(setup: Setup, script: readonly Action[], intervalMs: number): Promise<SideResult> {
  // The naive side is heavy: its service gets a process (and a core) of its own.
  const world = await makeWorld(setup, 'child')
  const poller = new NaivePoller({ client: world.client, connectionId: 'bench', projectIds: world.projectIds, concurrency: 8 })
  const events: MonitorEvent[] = []
  const batches: MonitorCycle[] = []
  const began = performance.now()
  let next = 0
  let now = 0
  const moveTo = async (t: number): Promise<void> => {
    await world.service.control.advance(t - now)
    now = t
  }
  for (let t = 0; t < setup.durationMs; t += intervalMs) {
    // Changes due before this poll land first, each at its own moment.
    while (script[next] && (script[next] as Action).at <= t) {
      const action = script[next++] as Action
      await moveTo(action.at)
      await apply(world, action)
    }
    await moveTo(t)
    const found = await poller.pollAll(await world.service.control.now())
    events.push(...found)
    if (found.length > 0) batches.push({ events: found, away: false })
  }
  const result: SideResult = {
    stats: await world.service.control.stats(),
    clientRequests: world.clientRequests,
    clientBytes: world.clientBytes,
    transitions: notified(events),
    notifications: countNotifications(batches),
    addedIds: [...world.added.values()],
    wallMs: performance.now() - began
  }
  await world.client.close()
  await world.service.close()
  return result
}

export async function runPolling(options: BenchOptions): Promise<MeasureResult> {
  const setup: Setup = options.quick
    ? { durationMs: 8 * 60_000, projects: 8, active: 1 }
    : { durationMs: 60 * 60_000, projects: 50, active: 5 }
  const polling = DEFAULT_POLLING_PREFS
  const script = makeScript(setup)
  options.log(`polling: ${setup.projects} projects (${setup.active} active), ${setup.durationMs / 60_000} simulated min, ${script.length} scripted changes`)
  // Each side has its own service process; run together, they share the wait.
  const [ours, naive] = await Promise.all([
    runMonitor(setup, script, polling).then((r) => {
      options.log(`polling: monitor done in ${round(r.wallMs / 1000)} s: ${r.stats.requests} requests`)
      return r
    }),
    runNaive(setup, script, polling.activeIntervalMs).then((r) => {
      options.log(`polling: naive poller done in ${round(r.wallMs / 1000)} s: ${r.stats.requests} requests`)
      return r
    })
  ])

  const notes: string[] = []
  const sameHistory = JSON.stringify(ours.addedIds) === JSON.stringify(naive.addedIds)
  if (!sameHistory) notes.push('MISMATCH: the two services gave the scripted tasks different ids; the histories are not the same.')
  const sameNotifications = JSON.stringify(ours.transitions) === JSON.stringify(naive.transitions)
  if (!sameNotifications) {
    const onlyOurs = ours.transitions.filter((t) => !naive.transitions.includes(t))
    const onlyNaive = naive.transitions.filter((t) => !ours.transitions.includes(t))
    notes.push(
      `MISMATCH: the monitor and the naive poller would raise different notifications (${ours.transitions.length} vs ${naive.transitions.length}; only monitor: ${onlyOurs.join(', ') || 'none'}; only naive: ${onlyNaive.join(', ') || 'none'}).`
    )
  }
  const requestsRatio = naive.stats.requests / Math.max(1, ours.stats.requests)
  const bytesRatio = naive.stats.responseBytes / Math.max(1, ours.stats.responseBytes)
  return {
    figures: { requests_ratio: round(requestsRatio), bytes_ratio: round(bytesRatio) },
    checks: [
      check('requests_ratio', requestsRatio, '>=', 10),
      check('bytes_ratio', bytesRatio, '>=', 10),
      check('same_notifications', sameNotifications && sameHistory ? 1 : 0, '>=', 1)
    ],
    details: {
      simulated_minutes: setup.durationMs / 60_000,
      projects: setup.projects,
      active_projects: setup.active,
      tasks_per_project: TASKS_PER_PROJECT,
      steps_per_task: STEPS_PER_TASK,
      scripted_changes: script.length,
      polling,
      naive_interval_ms: polling.activeIntervalMs,
      monitor: { requests: ours.stats.requests, response_bytes: ours.stats.responseBytes, by_route: ours.stats.byRoute, wall_s: round(ours.wallMs / 1000) },
      naive: { requests: naive.stats.requests, response_bytes: naive.stats.responseBytes, by_route: naive.stats.byRoute, wall_s: round(naive.wallMs / 1000) },
      client_counted: { monitor: { requests: ours.clientRequests, bytes: ours.clientBytes }, naive: { requests: naive.clientRequests, bytes: naive.clientBytes } },
      notifiable_transitions: { monitor: ours.transitions.length, naive: naive.transitions.length, same: sameNotifications },
      notifications_raised: { monitor: ours.notifications, naive: naive.notifications }
    },
    notes
  }
}
