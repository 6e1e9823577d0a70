// What the fakes of the agent services (GitHub's Agent tasks, Jules) share: their options and control, the keys they
// know, and records whose state moves on the simulated clock through a script of beats.
import { createHash, timingSafeEqual } from 'node:crypto'
import { createSimClock, type SimClock } from './clock'
import { createCommonControl } from './control'
import { Faults } from './faults'
import { streamFor } from './random'
import { Stats } from './stats'
import { type CommonControl, MANUAL_START_TIME } from './types'

export const AGENT_FAKE_KINDS = ['github', 'jules', 'devin', 'cursor'] as const
export type AgentFakeKind = (typeof AGENT_FAKE_KINDS)[number]

export interface AgentFakeOptions {
  /** The key (token) the fake accepts, with every permission. */
  apiKey: string
  /** Default 0: any free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** Default 1 (the faults' probabilities). */
  seed?: number
  /** Simulated ms per real ms; default 1. Ignored when the clock is manual. */
  speed?: number
  /** Simulated time moves only with control.advance(ms). */
  manualClock?: boolean
  /** ISO start of simulated time; default MANUAL_START_TIME when manualClock, else now. */
  startTime?: string
  /** Default true. */
  compression?: boolean
  /** The most a page holds, whatever is asked (default: the service's documented maximum); small to test paging. */
  maxPageSize?: number
}

/** A task as a test names it: any title (hostile text included, sent back as given), a script or a state to hold. */
export interface AgentTaskInput {
  title?: string
  /** "owner/repo" (GitHub's repository, Jules' GitHub source). */
  repository?: string
  /** One of the fake's scripts (each fake lists its own); default its first. */
  script?: string
  /** A state to hold from now on, instead of a script. */
  state?: string
  /** How long ago the task was made (its script's beats count from then); default 0. */
  agoMs?: number
}

export interface AgentFakeControl extends CommonControl {
  /** The demo's tasks, every state visited on the clock, one waiting for the user from the start. */
  seedDemo(): { taskIds: string[] }
  addTask(input?: AgentTaskInput): { id: string; state: string }
  /** Holds the task in `state` from now on (its script is dropped). */
  setTaskState(taskId: string, state: string): { id: string; state: string }
  /** Every task with its state now. */
  tasks(): { id: string; title: string; state: string }[]
  /** A key the service knows that lacks the permission to read tasks (answered 403). */
  addLimitedKey(key: string): void
}

export interface AgentFake {
  kind: AgentFakeKind
  /** The server, e.g. http://127.0.0.1:40123 (control routes below it, under /__control/). */
  url: string
  /** What an account's base URL is (Jules' API sits under /v1alpha). */
  baseUrl: string
  control: AgentFakeControl
  close(): Promise<void>
}

const digest = (s: string): Buffer => createHash('sha256').update(s).digest()

/** The keys a fake knows: the one with every permission, and any added without it. */
export class KeyRing {
  private readonly full: Buffer
  private readonly limited: Buffer[] = []

  constructor(apiKey: string) {
    if (typeof apiKey !== 'string' || apiKey === '') throw new Error('A fake needs a non-empty API key.')
    this.full = digest(apiKey)
  }

  addLimited(key: string): void {
    if (key === '') throw new Error('A limited key cannot be empty.')
    this.limited.push(digest(key))
  }

  check(key: string | undefined): 'missing' | 'wrong' | 'limited' | 'ok' {
    if (key === undefined || key === '') return 'missing'
    const d = digest(key)
    if (timingSafeEqual(d, this.full)) return 'ok'
    return this.limited.some((l) => timingSafeEqual(d, l)) ? 'limited' : 'wrong'
  }
}

/** The parts every agent fake is built of. */
export function fakeParts(options: AgentFakeOptions) {
  const manual = options.manualClock ?? false
  const startMs = Date.parse(options.startTime ?? (manual ? MANUAL_START_TIME : new Date().toISOString()))
  if (!Number.isFinite(startMs)) throw new Error(`startTime is not an ISO date: ${options.startTime}`)
  const speed = options.speed ?? 1
  if (!(speed > 0)) throw new Error(`speed must be positive, got ${speed}`)
  const maxPageSize = options.maxPageSize
  if (maxPageSize !== undefined && !(Number.isInteger(maxPageSize) && maxPageSize >= 1))
    throw new Error(`maxPageSize must be a whole number from 1, got ${maxPageSize}`)
  const clock: SimClock = createSimClock({ startMs, manual, speed })
  const faults = new Faults(streamFor(options.seed ?? 1, 'faults'))
  const stats = new Stats()
  return { clock, faults, stats, keys: new KeyRing(options.apiKey), common: createCommonControl(clock, faults, stats) }
}

/** One step of a script: the state entered `afterMs` after the step before it (the first: after the task was made). */
export interface Beat<S extends string> {
  state: S
  afterMs: number
}

/** A record whose state moves on the clock: the beats still to come, at absolute times. */
export interface Scripted<S extends string> {
  state: S
  /** When the state last changed (epoch ms). */
  changedAt: number
  pending: { state: S; at: number }[]
}

export function scripted<S extends string>(createdAt: number, beats: readonly Beat<S>[]): Scripted<S> {
  let at = createdAt
  const pending = beats.map((b) => ({ state: b.state, at: (at += b.afterMs) }))
  const first = pending.shift()
  if (first === undefined) throw new Error('A script needs at least one beat.')
  return { state: first.state, changedAt: first.at, pending }
}

/** Enters every beat that is due by `now`, in order, telling `enter` of each. */
export function catchUp<S extends string, R extends Scripted<S>>(
  record: R,
  now: number,
  enter: (record: R, state: S, at: number) => void
): void {
  while (record.pending.length > 0 && (record.pending[0] as { at: number }).at <= now) {
    const beat = record.pending.shift() as { state: S; at: number }
    record.state = beat.state
    record.changedAt = beat.at
    enter(record, beat.state, beat.at)
  }
}

/** Enters `state` now and drops what was left of the script; `then` are beats that follow from now. */
export function moveTo<S extends string, R extends Scripted<S>>(
  record: R,
  state: S,
  now: number,
  enter: (record: R, state: S, at: number) => void,
  then: readonly Beat<S>[] = []
): void {
  record.pending = []
  record.state = state
  record.changedAt = now
  enter(record, state, now)
  let at = now
  record.pending = then.map((b) => ({ state: b.state, at: (at += b.afterMs) }))
}

/** The page a request asks for, within the fake's bounds. */
export function pageSize(asked: string | null, fallback: number, max: number, cap: number | undefined): number {
  const n = asked === null ? fallback : Number(asked)
  const size = Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback
  return cap === undefined ? size : Math.min(size, cap)
}

/** The task controls every scripted fake offers: a task added by a script or held in a state, a state set, the list,
 * the demo seeded; each refusal in the fake's own words (its service's error body). */
export function scriptedTaskControls<S extends string, R extends { id: string; title: string; state: S }>(spec: {
  states: readonly S[]
  scripts: Readonly<Record<string, readonly Beat<S>[]>>
  /** Makes the record, after state and script are checked (a fake checks its own fields here). */
  add(beats: readonly Beat<S>[], input: AgentTaskInput): R
  setState(taskId: string, state: S): R | undefined
  all(): R[]
  demo: readonly AgentTaskInput[]
  refuse(field: 'state' | 'script', message: string): Error
  notFound(taskId: string): Error
}): Pick<AgentFakeControl, 'seedDemo' | 'addTask' | 'setTaskState' | 'tasks'> {
  const isState = (v: unknown): v is S => typeof v === 'string' && (spec.states as readonly string[]).includes(v)
  const badState = () => spec.refuse('state', `"state" must be one of ${spec.states.join(', ')}.`)
  const addTask: AgentFakeControl['addTask'] = (input = {}) => {
    if (input.state !== undefined && !isState(input.state)) throw badState()
    const script = input.script ?? 'complete'
    if (!Object.hasOwn(spec.scripts, script))
      throw spec.refuse('script', `"script" must be one of ${Object.keys(spec.scripts).join(', ')}.`)
    const beats = isState(input.state) ? [{ state: input.state, afterMs: 0 }] : (spec.scripts[script] ?? [])
    const r = spec.add(beats, input)
    return { id: r.id, state: r.state }
  }
  return {
    seedDemo: () => ({ taskIds: spec.demo.map((t) => addTask(t).id) }),
    addTask,
    setTaskState(taskId, state) {
      if (!isState(state)) throw badState()
      const r = spec.setState(taskId, state)
      if (!r) throw spec.notFound(taskId)
      return { id: r.id, state: r.state }
    },
    tasks: () => spec.all().map((r) => ({ id: r.id, title: r.title, state: r.state }))
  }
}
