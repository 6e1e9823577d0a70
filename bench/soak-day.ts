// One simulated day of the soak: the reference service in this process on its manual clock, the
// app in a child (soak-worker.ts) on a manual clock moved in step, a seeded script of tasks that
// start and end all day, graceful restarts every few hours (some after a down time), and one
// SIGKILL while the app writes state.json. Returns what the service recorded and what the app told.
import { type ChildProcess, fork } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { OUTBOX_FILE } from '../src/core/forward/outbox-file'
import { outboxLocked } from '../src/core/forward/outbox-lock'
import type { Notification } from '../src/core/notify/policy'
import { interpretConfig } from '../src/core/settings/config-document'
import { CONFIG_FILE, STATE_FILE } from '../src/core/settings/paths'
import { interpretState } from '../src/core/settings/state-document'
import {
  MANUAL_START_TIME,
  type ReferenceService,
  startReferenceService,
  type TaskScript
} from '../src/reference-service/index'
import type { PollingPrefs } from '../src/shared/settings'
import { bundledWorker } from './bundle'
import { intBetween, seededRandom } from './random'
import { REPO_ROOT } from './service-process'
import type { ServiceTransition } from './soak-count'
import { type ForwardReceived, type SoakReceiver, startSoakReceiver } from './soak-receiver'
import type { FromSoakWorker, ToSoakWorker } from './soak-worker'

const HOUR = 3_600_000
const MINUTE = 60_000

export interface SoakSetup {
  hours: number
  projects: number
  /** Tasks started over the day, besides those already running at the start. */
  tasks: number
  /** Tasks running (until ended by hand) when the day starts. */
  runningAtStart: number
  restartEveryMs: number
  /** Every n-th graceful restart comes after this much down time, so 'While you were away' is told. */
  downtimeEvery: number
  downtimeMs: number
  /** When the kill is armed: the next state.json write after a notification is where the app dies. */
  killArmAtMs: number
  /** Down time after the kill. */
  killDowntimeMs: number
  polling: PollingPrefs
  seed: number
  /** Forward every task's end to a loopback webhook (soak-receiver.ts), and kill the app once while a forward is on its way, armed at this time. */
  forward?: { killArmAtMs: number }
}

export interface SoakRestart {
  /** 'kill': inside a write of state.json; 'kill-mid-send': while a forward was on its way. */
  kind: 'graceful' | 'kill' | 'kill-mid-send'
  atMin: number
  downMin: number
  /** config.json and state.json parse, undamaged, as the next start reads them. */
  filesReadable: boolean
  problem?: string
  /** Wall time the next start took (opening the files included), ms. */
  startWallMs: number
  /** The part of it inside the app's process: opening the files (a dead process's lock taken once stale), composing, the first poll; ms. */
  startInProcessMs: number
  /** Timers the stopped controller left on its clock (graceful restarts). */
  timersLeft?: number
}

export interface SoakDay {
  transitions: ServiceTransition[]
  notifications: { notification: Notification; at: number }[]
  restarts: SoakRestart[]
  /** Heap after a full collection, one simulated hour into the last process and at the end of the day. */
  heap: { fromMin: number; fromMb: number; toMin: number; toMb: number } | null
  finalFilesReadable: boolean
  appErrors: string[]
  stillRunning: number
  serviceRequests: number
  /** The day's first start, a fresh process as after the kill (its projects set up too): wall time and the part inside the process, ms. */
  firstStart: { wallMs: number; inProcessMs: number }
  wallMs: number
  /** What the forwarding receiver got, when the day forwards. */
  forwards: ForwardReceived[] | null
}

type Action =
  | { at: number; kind: 'add'; project: number; ref: number; script: TaskScript }
  | { at: number; kind: 'end'; ref: number; status: 'completed' | 'failed' | 'cancelled' }

/** Seeded: every run of a setup has the same day. */
function makeScript(setup: SoakSetup): Action[] {
  const random = seededRandom(setup.seed * 17 + 3)
  const end = setup.hours * HOUR
  // Nothing starts in the last stretch, so every task has ended and been polled by the end.
  const last = end - Math.min(45 * MINUTE, end / 6)
  const actions: Action[] = []
  for (let ref = 0; ref < setup.runningAtStart; ref++) {
    actions.push({
      at: intBetween(random, 20 * MINUTE, last),
      kind: 'end',
      ref,
      status: random() < 0.7 ? 'completed' : 'failed'
    })
  }
  for (let i = 0; i < setup.tasks; i++) {
    const ref = setup.runningAtStart + i
    const at = intBetween(random, 5 * MINUTE, last)
    const roll = random()
    actions.push({
      at,
      kind: 'add',
      project: intBetween(random, 0, setup.projects - 1),
      ref,
      script: roll < 0.65 ? 'complete' : roll < 0.85 ? 'fail' : 'cancel'
    })
    // Some are cancelled by hand while they run (if they still are).
    if (random() < 0.1)
      actions.push({ at: at + intBetween(random, 20_000, 90_000), kind: 'end', ref, status: 'cancelled' })
  }
  return actions.sort((a, b) => a.at - b.at)
}

class WorkerGone extends Error {}

const round1 = (n: number): number => Math.round(n * 10) / 10

/** The child, one request at a time; notifications and errors are reported as they come. */
class SoakWorker {
  private waiting: {
    resolve: (m: Extract<FromSoakWorker, { type: 'done' }>) => void
    reject: (e: Error) => void
  } | null = null
  private readonly child: ChildProcess
  readonly exited: Promise<void>
  killed = false
  killedMidSend = false

  constructor(day: { notifications: SoakDay['notifications']; appErrors: string[] }) {
    // Bundled, as the app runs its code (bundle.ts).
    this.child = fork(bundledWorker(path.join(REPO_ROOT, 'bench/soak-worker.ts')), [], {
      cwd: REPO_ROOT,
      execArgv: ['--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc']
    })
    this.child.on('message', (raw) => {
      const m = raw as FromSoakWorker
      if (m.type === 'notification') day.notifications.push({ notification: m.notification, at: m.at })
      else if (m.type === 'app-error') day.appErrors.push(`${m.context}: ${m.message}`)
      else if (m.type === 'writing-state') {
        // Inside its write of state.json, blocked there: killed where it stands.
        this.killed = true
        this.child.kill('SIGKILL')
      } else if (m.type === 'done') this.settle()?.resolve(m)
      else this.settle()?.reject(new Error(`soak worker: ${m.error}`))
    })
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.settle()?.reject(new WorkerGone(`The soak worker exited (${signal ?? `code ${code}`}).`))
        resolve()
      })
    })
  }

  private settle() {
    const w = this.waiting
    this.waiting = null
    return w
  }

  /** The receiver got a forward and holds its answer: the app dies with the send under way. */
  killMidSend(): void {
    this.killed = true
    this.killedMidSend = true
    this.child.kill('SIGKILL')
  }

  request(message: ToSoakWorker): Promise<Extract<FromSoakWorker, { type: 'done' }>> {
    // Killed between two requests (a forward answered after the last one): gone at once.
    if (this.child.exitCode !== null || this.child.signalCode !== null)
      return Promise.reject(new WorkerGone('The soak worker has exited.'))
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject }
      this.child.send(message)
    })
  }

  async exit(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null)
      this.child.send({ type: 'exit' } satisfies ToSoakWorker)
    await this.exited
  }
}

/** Whether both files parse, undamaged, as a start would read them now. */
function checkFiles(dir: string): { ok: boolean; problem?: string } {
  const aside = fs.readdirSync(dir).filter((n) => n.includes('.corrupt-') || n.includes('.newer-'))
  if (aside.length > 0) return { ok: false, problem: `damaged files were kept aside: ${aside.join(', ')}` }
  for (const [file, interpret] of [
    [CONFIG_FILE, (value: Record<string, unknown>) => interpretConfig(value, new Date())],
    [STATE_FILE, interpretState]
  ] as const) {
    const full = path.join(dir, file)
    if (!fs.existsSync(full)) return { ok: false, problem: `${file} is missing` }
    let value: Record<string, unknown>
    try {
      value = JSON.parse(fs.readFileSync(full, 'utf8')) as Record<string, unknown>
    } catch (e) {
      return { ok: false, problem: `${file} does not parse: ${(e as Error).message}` }
    }
    const read = interpret(value)
    if (read.finding) return { ok: false, problem: `${file} is damaged: ${read.finding.kind}` }
  }
  return { ok: true }
}

export async function runSoakDay(setup: SoakSetup, log: (line: string) => void = () => undefined): Promise<SoakDay> {
  const began = performance.now()
  const apiKey = `soak-${setup.seed}-key`
  const service: ReferenceService = await startReferenceService({
    apiKey,
    port: 0,
    seed: setup.seed,
    manualClock: true
  })
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-soak-'))
  const day: SoakDay = {
    transitions: [],
    notifications: [],
    restarts: [],
    heap: null,
    finalFilesReadable: false,
    appErrors: [],
    stillRunning: 0,
    serviceRequests: 0,
    firstStart: { wallMs: 0, inProcessMs: 0 },
    wallMs: 0,
    forwards: null
  }
  const receiver: SoakReceiver | null = setup.forward ? await startSoakReceiver() : null
  const start = Date.parse(MANUAL_START_TIME)
  const end = setup.hours * HOUR
  const script = makeScript(setup)
  const taskIds = new Map<number, string>()
  let worker: SoakWorker | undefined
  const current = (): SoakWorker => {
    if (!worker) throw new Error('No soak worker is running.')
    return worker
  }
  try {
    const { control } = service
    const { projectIds } = control.bulkCreate({ projects: setup.projects, tasksPerProject: 2, stepsPerTask: 8 })
    for (let ref = 0; ref < setup.runningAtStart; ref++) {
      taskIds.set(
        ref,
        control.addTask(projectIds[ref % projectIds.length] as string, {
          name: `Long task ${ref + 1}`,
          script: 'run-forever'
        }).id
      )
    }
    let t = 0
    let next = 0
    const applyUntil = (until: number): void => {
      while (script[next] && (script[next] as Action).at <= until) {
        const action = script[next++] as Action
        if (action.at > t) control.advance(action.at - t)
        t = Math.max(t, action.at)
        if (action.kind === 'add') {
          const task = control.addTask(projectIds[action.project] as string, {
            name: `Soak task ${action.ref + 1}`,
            script: action.script
          })
          taskIds.set(action.ref, task.id)
        } else {
          const id = taskIds.get(action.ref) as string
          const now = control.getTask(id)?.status
          // Ended by hand only while it runs: a task ends once.
          if (now === 'todo' || now === 'in_progress') control.setTaskStatus(id, action.status)
        }
      }
      if (until > t) control.advance(until - t)
      t = Math.max(t, until)
    }
    let nextAt: number | null = null
    let processStartAt = 0
    const startWorker = async (
      fresh: boolean,
      setupProjects: boolean
    ): Promise<{ wallMs: number; inProcessMs: number }> => {
      const startedWall = performance.now()
      if (fresh) {
        await worker?.exited
        worker = new SoakWorker(day)
      }
      const done = await current().request({
        type: 'start',
        dir,
        url: service.url,
        apiKey,
        at: start + t,
        seed: setup.seed + day.restarts.length,
        ...(receiver ? { forwardUrl: receiver.url } : {}),
        ...(setupProjects ? { setup: { projectIds, polling: setup.polling } } : {})
      })
      nextAt = done.nextAt
      return {
        wallMs: Math.round(performance.now() - startedWall),
        inProcessMs: Math.round(done.startMs ?? Number.NaN)
      }
    }
    day.firstStart = await startWorker(true, true)
    log(`soak: ${setup.projects} projects, ${script.length} scripted changes over ${setup.hours} simulated h`)

    const restartAts: number[] = []
    for (let at = setup.restartEveryMs; at < end; at += setup.restartEveryMs) restartAts.push(at)
    let killArmed = false
    let sendKillArmed = !setup.forward
    let heapFrom: { at: number; mb: number } | null = null
    let graceful = 0
    const CHUNK = setup.polling.activeIntervalMs
    while (t < end) {
      const heapAt = processStartAt + HOUR
      const childNext = nextAt === null ? Infinity : nextAt - start
      // A chunk of the active interval (the app's timers due in it fire in order, seeing the service
      // at most one interval ahead), or straight on to the app's next timer when none is due sooner.
      const target = Math.min(
        Math.max(t + CHUNK, childNext),
        script[next]?.at ?? Infinity,
        end,
        restartAts[0] ?? Infinity,
        killArmed ? Infinity : setup.killArmAtMs,
        sendKillArmed ? Infinity : (setup.forward?.killArmAtMs ?? Infinity),
        heapFrom ? Infinity : heapAt
      )
      const from = t
      applyUntil(target)
      try {
        nextAt = (await current().request({ type: 'advance', ms: target - from })).nextAt
        if (!killArmed && t >= setup.killArmAtMs) {
          killArmed = true
          await current().request({ type: 'arm-kill' })
        }
        if (!sendKillArmed && setup.forward && t >= setup.forward.killArmAtMs) {
          sendKillArmed = true
          receiver?.arm(() => worker?.killMidSend())
        }
        if (!heapFrom && t >= heapAt && heapAt < end)
          heapFrom = { at: t, mb: (await current().request({ type: 'heap' })).heapMb ?? Number.NaN }
        if (restartAts[0] !== undefined && t >= restartAts[0]) {
          restartAts.shift()
          graceful += 1
          const stopped = await current().request({ type: 'stop' })
          const files = checkFiles(dir)
          const downMs = graceful % setup.downtimeEvery === 0 ? setup.downtimeMs : 0
          const atMin = t / MINUTE
          applyUntil(t + downMs)
          const started = await startWorker(false, false)
          log(
            `soak: restarted at ${round1(atMin / 60)} simulated h after ${downMs / MINUTE} min down; ${day.notifications.length} notifications so far, ${Math.round((performance.now() - began) / 1000)} s`
          )
          day.restarts.push({
            kind: 'graceful',
            atMin: round1(atMin),
            downMin: downMs / MINUTE,
            filesReadable: files.ok,
            ...(files.problem ? { problem: files.problem } : {}),
            startWallMs: started.wallMs,
            startInProcessMs: started.inProcessMs,
            timersLeft: stopped.timersLeft ?? 0
          })
        }
      } catch (error) {
        if (!(error instanceof WorkerGone) || !current().killed) throw error
        // Killed mid-write (or mid-send): the files as the crash left them, then a new process after a short down time.
        const kind = current().killedMidSend ? 'kill-mid-send' : 'kill'
        const files = checkFiles(dir)
        const atMin = t / MINUTE
        applyUntil(t + setup.killDowntimeMs)
        // The dead process's outbox lock frees only once stale (outbox-lock.ts): until then a new app
        // would keep its forwards in memory. The soak starts it once the lock is free, and says how long that took.
        const lockWaitMs = setup.forward ? await untilOutboxFree(path.join(dir, OUTBOX_FILE)) : 0
        const started = await startWorker(true, false)
        processStartAt = t
        heapFrom = null
        day.restarts.push({
          kind,
          atMin: round1(atMin),
          downMin: setup.killDowntimeMs / MINUTE,
          filesReadable: files.ok,
          ...(files.problem ? { problem: files.problem } : {}),
          startWallMs: started.wallMs,
          startInProcessMs: started.inProcessMs
        })
        log(
          `soak: killed ${kind === 'kill' ? 'while writing state.json' : 'while a forward was on its way'} at ${Math.round(atMin)} simulated min; the new process started in ${started.wallMs} ms (${started.inProcessMs} ms of it inside the process)${setup.forward ? `, after ${lockWaitMs} ms for the dead process's outbox lock to go stale` : ''}`
        )
      }
    }
    const toMb = (await current().request({ type: 'heap' })).heapMb ?? Number.NaN
    if (heapFrom)
      day.heap = { fromMin: Math.round(heapFrom.at / MINUTE), fromMb: heapFrom.mb, toMin: Math.round(t / MINUTE), toMb }
    await current().request({ type: 'stop' })
    day.finalFilesReadable = checkFiles(dir).ok

    for (const id of taskIds.values()) {
      const status = control.getTask(id)?.status
      if (status === 'completed' || status === 'failed' || status === 'cancelled')
        day.transitions.push({ taskId: id, to: status })
      else day.stillRunning += 1
    }
    day.serviceRequests = control.stats().requests
    if (receiver) day.forwards = [...receiver.received]
  } finally {
    await worker?.exit()
    await receiver?.close()
    await service.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
  day.wallMs = performance.now() - began
  return day
}

/** Waits until no live process holds the outbox (a killed one's lock has gone stale); the wall time it took, ms. */
async function untilOutboxFree(file: string): Promise<number> {
  const began = performance.now()
  while (await outboxLocked(file)) {
    if (performance.now() - began > 60_000) throw new Error('the outbox lock of the killed process never went stale')
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return Math.round(performance.now() - began)
}
