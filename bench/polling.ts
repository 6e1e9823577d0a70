// 1. Polling efficiency: one simulated hour of 50 watched projects (5 active), our monitor
// against two naive pollers (today's, which lists and fetches every task's details; and a
// list-only one, as Gitify-like apps poll), each on its own reference service with the same seed
// and the same scripted changes, so all see the same history. The monitor runs under four
// conditions: the service with and without ETags, with and without compression (the client always
// asks for it). The naive pollers run against a service without compression (ETags do not matter
// to them: they never send If-None-Match). Bytes are counted on the service's sockets: status
// lines, headers and bodies as sent. Time is simulated on every side (the service's manual clock,
// the monitor's ManualClock) and moved together, timer by timer.
import { createServiceClient, type ServiceClient } from '../src/core/client/index'
import { Monitor, type MonitorCycle } from '../src/core/monitor/index'
import { decideNotifications, notifiableTransition } from '../src/core/notify/index'
import { ManualClock } from '../src/core/util/clock'
import { MANUAL_START_TIME, type ServiceStats } from '../src/reference-service/index'
import type { MonitorEvent } from '../src/shared/monitor'
import { DEFAULT_NOTIFICATION_PREFS, DEFAULT_POLLING_PREFS, type PollingPrefs } from '../src/shared/settings'
import { NaivePoller } from './naive-poller'
import { intBetween, seededRandom } from './random'
import { type BenchOptions, check, type MeasureResult } from './result'
import { startServiceInProcess } from './service-in-process'
import { type ServiceProcess, startServiceProcess } from './service-process'
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
    actions.push({
      at: intBetween(random, 60_000, Math.floor(last * 0.7)),
      kind: 'finish',
      project: p,
      status: random() < 0.8 ? 'completed' : 'failed'
    })
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

/** How the service answers: with or without ETags, with or without compression. */
interface Condition {
  etags: boolean
  compression: boolean
}

const conditionName = (c: Condition): string =>
  `${c.etags ? 'etags' : 'no_etags'}_${c.compression ? 'compressed' : 'uncompressed'}`

async function makeWorld(setup: Setup, where: 'in-process' | 'child', condition: Condition): Promise<World> {
  const start = where === 'child' ? startServiceProcess : startServiceInProcess
  const service = await start({ apiKey: API_KEY, seed: SEED, manualClock: true, ...condition })
  const { projectIds } = await service.control.bulkCreate({
    projects: setup.projects,
    tasksPerProject: TASKS_PER_PROJECT,
    stepsPerTask: STEPS_PER_TASK,
    activeProjects: setup.active
  })
  const world: World = {
    service,
    client: undefined as unknown as ServiceClient,
    projectIds,
    runningTaskIds: [],
    added: new Map(),
    clientRequests: 0,
    clientBytes: 0
  }
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
  if (action.kind === 'finish')
    await control.setTaskStatus(world.runningTaskIds[action.project] as string, action.status)
  else if (action.kind === 'add') {
    const task = await control.addTask(world.projectIds[action.project] as string, {
      name: `Scripted task ${action.ref + 1}`,
      script: action.script
    })
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

async function runMonitor(
  setup: Setup,
  script: readonly Action[],
  polling: PollingPrefs,
  condition: Condition
): Promise<SideResult> {
  // The monitor's side takes one small step per poll: its service is best close at hand.
  const world = await makeWorld(setup, 'in-process', condition)
  const start = Date.parse(MANUAL_START_TIME)
  const clock = new ManualClock(start)
  const monitor = new Monitor({
    connectionId: 'bench',
    source: world.client,
    projects: world.projectIds,
    polling,
    clock,
    random: seededRandom(SEED)
  })
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

async function runNaive(
  setup: Setup,
  script: readonly Action[],
  intervalMs: number,
  details: boolean
): Promise<SideResult> {
  // The naive side is heavy: its service gets a process (and a core) of its own.
  const world = await makeWorld(setup, 'child', { etags: true, compression: false })
  const poller = new NaivePoller({
    client: world.client,
    connectionId: 'bench',
    projectIds: world.projectIds,
    concurrency: 8,
    details
  })
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

/** Requests and socket bytes per simulated hour per watched project. */
function perHourPerProject(side: SideResult, setup: Setup): { requests: number; wire_bytes: number } {
  const scale = 3_600_000 / setup.durationMs / setup.projects
  return { requests: round(side.stats.requests * scale), wire_bytes: Math.round(side.stats.wireBytes * scale) }
}

const ratio = (naive: number, ours: number): number => round(naive / Math.max(1, ours))

export async function runPolling(options: BenchOptions): Promise<MeasureResult> {
  const setup: Setup = options.quick
    ? { durationMs: 8 * 60_000, projects: 8, active: 1 }
    : { durationMs: 60 * 60_000, projects: 50, active: 5 }
  const polling = DEFAULT_POLLING_PREFS
  const script = makeScript(setup)
  const conditions: Condition[] = [
    { etags: true, compression: true },
    { etags: false, compression: true },
    { etags: true, compression: false },
    { etags: false, compression: false }
  ]
  options.log(
    `polling: ${setup.projects} projects (${setup.active} active), ${setup.durationMs / 60_000} simulated min, ${script.length} scripted changes`
  )
  const timed = async (what: string, run: () => Promise<SideResult>): Promise<SideResult> => {
    const r = await run()
    options.log(
      `polling: ${what} done in ${round(r.wallMs / 1000)} s: ${r.stats.requests} requests, ${round(r.stats.wireBytes / 1e6)} MB on the wire`
    )
    return r
  }
  // The monitor's runs (in this process) and the naive ones (each with a service process) share the wait.
  const [monitors, naives] = await Promise.all([
    (async () => {
      const out: SideResult[] = []
      for (const c of conditions)
        out.push(await timed(`monitor (${conditionName(c)})`, () => runMonitor(setup, script, polling, c)))
      return out
    })(),
    (async () => {
      const full = await timed('naive poller (lists and details)', () =>
        runNaive(setup, script, polling.activeIntervalMs, true)
      )
      const list = await timed('naive poller (lists only)', () =>
        runNaive(setup, script, polling.activeIntervalMs, false)
      )
      return { full, list }
    })()
  ])

  const notes: string[] = []
  const naive = naives.full
  const sides: [string, SideResult][] = [
    ...conditions.map((c, i): [string, SideResult] => [`monitor ${conditionName(c)}`, monitors[i] as SideResult]),
    ['naive list-only poller', naives.list]
  ]
  let sameHistory = true
  let sameNotifications = true
  for (const [name, side] of sides) {
    if (JSON.stringify(side.addedIds) !== JSON.stringify(naive.addedIds)) {
      sameHistory = false
      notes.push(
        `MISMATCH: ${name} and the naive poller's services gave the scripted tasks different ids; the histories are not the same.`
      )
    }
    if (JSON.stringify(side.transitions) !== JSON.stringify(naive.transitions)) {
      sameNotifications = false
      const onlyThis = side.transitions.filter((t) => !naive.transitions.includes(t))
      const onlyNaive = naive.transitions.filter((t) => !side.transitions.includes(t))
      notes.push(
        `MISMATCH: ${name} and the naive poller would raise different notifications (${side.transitions.length} vs ${naive.transitions.length}; only ${name}: ${onlyThis.join(', ') || 'none'}; only naive: ${onlyNaive.join(', ') || 'none'}).`
      )
    }
  }
  const full = perHourPerProject(naives.full, setup)
  const list = perHourPerProject(naives.list, setup)
  const table: Record<string, unknown> = {}
  conditions.forEach((c, i) => {
    const m = monitors[i] as SideResult
    const ours = perHourPerProject(m, setup)
    table[conditionName(c)] = {
      etags: c.etags,
      compression: c.compression,
      per_hour_per_project: ours,
      vs_naive_full: {
        requests_ratio: ratio(full.requests, ours.requests),
        bytes_ratio: ratio(full.wire_bytes, ours.wire_bytes)
      },
      vs_naive_list: {
        requests_ratio: ratio(list.requests, ours.requests),
        bytes_ratio: ratio(list.wire_bytes, ours.wire_bytes)
      },
      notifiable_transitions: m.transitions.length,
      notifications_raised: m.notifications
    }
  })
  const at = (c: Condition) =>
    table[conditionName(c)] as {
      vs_naive_full: { requests_ratio: number; bytes_ratio: number }
      vs_naive_list: { requests_ratio: number; bytes_ratio: number }
    }
  const best = at({ etags: true, compression: true })
  const noEtags = at({ etags: false, compression: true })
  const plainEtags = at({ etags: true, compression: false })
  return {
    figures: {
      bytes_ratio_list_naive: best.vs_naive_list.bytes_ratio,
      bytes_ratio_list_naive_no_etags: noEtags.vs_naive_list.bytes_ratio,
      requests_ratio: plainEtags.vs_naive_full.requests_ratio,
      bytes_ratio: plainEtags.vs_naive_full.bytes_ratio
    },
    tables: {
      conditions: table,
      naive_per_hour_per_project: { full: { ...full, compression: false }, list_only: { ...list, compression: false } },
      // Item 5: every headline figure names the service it ran against.
      figure_conditions: {
        bytes_ratio_list_naive:
          'monitor, service with ETags and compression, vs the list-only naive poller without compression',
        bytes_ratio_list_naive_no_etags:
          'monitor, service with compression and no ETags (the real service documents neither), vs the list-only naive poller without compression',
        requests_ratio:
          "monitor, service with ETags, no compression, vs the naive poller that fetches every task's details",
        bytes_ratio:
          "monitor, service with ETags, no compression, vs the naive poller that fetches every task's details (bytes on the socket)"
      }
    },
    checks: [
      check('bytes_ratio_list_naive', best.vs_naive_list.bytes_ratio, '>=', 100),
      check('bytes_ratio_list_naive_no_etags', noEtags.vs_naive_list.bytes_ratio, '>=', 20),
      check('requests_ratio', plainEtags.vs_naive_full.requests_ratio, '>=', 10),
      check('bytes_ratio', plainEtags.vs_naive_full.bytes_ratio, '>=', 10),
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
      bytes: "wire bytes: counted on the service's sockets (status line, headers, body as sent)",
      monitor: Object.fromEntries(
        conditions.map((c, i) => {
          const m = monitors[i] as SideResult
          return [
            conditionName(c),
            {
              requests: m.stats.requests,
              wire_bytes: m.stats.wireBytes,
              body_bytes: m.stats.responseBytes,
              client_counted_body_bytes: m.clientBytes,
              by_route: m.stats.byRoute,
              wall_s: round(m.wallMs / 1000)
            }
          ]
        })
      ),
      naive: {
        requests: naives.full.stats.requests,
        wire_bytes: naives.full.stats.wireBytes,
        body_bytes: naives.full.stats.responseBytes,
        by_route: naives.full.stats.byRoute,
        wall_s: round(naives.full.wallMs / 1000)
      },
      naive_list_only: {
        requests: naives.list.stats.requests,
        wire_bytes: naives.list.stats.wireBytes,
        body_bytes: naives.list.stats.responseBytes,
        by_route: naives.list.stats.byRoute,
        wall_s: round(naives.list.wallMs / 1000)
      },
      notifiable_transitions: {
        naive: naive.transitions.length,
        naive_list_only: naives.list.transitions.length,
        same: sameNotifications
      },
      notifications_raised: { naive: naive.notifications, naive_list_only: naives.list.notifications }
    },
    notes
  }
}
