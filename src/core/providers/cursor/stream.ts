// Following a Cursor run live through its event stream (GET /v1/agents/{id}/runs/{runId}/stream, server-sent events):
// tool calls become steps as they arrive; a dropped connection is reopened with Last-Event-ID, after a wait that grows
// while reopens bring nothing, and an event seen before is not told twice; a stream quiet past the heartbeat bound is treated as dropped; 410 stream_expired ends the
// stream and the run is polled instead. At most MAX_STREAMS are open per account; other running runs are polled.
import { isJsonObject } from '../../../shared/json-object'
import type { ProviderStep } from '../../../shared/provider'
import { rawString } from '../../client/schemas'
import { ServiceError } from '../../client/service-error'
import { pathSegment, type StreamResponse, type Transport } from '../transport'
import { createSseParser, type SseEvent } from './sse'

/** The most streams one account holds open; the rest of its running runs are polled. */
export const MAX_STREAMS = 3
/** No byte (event or heartbeat comment) for this long and the stream is reopened. */
export const STALL_MS = 45_000
/** Reopens in a row that bring no event before the stream is given up and the run polled. */
export const MAX_REOPENS = 5
/** The wait before each reopen: `firstMs`, doubling with every reopen since the stream's last event, up to `maxMs`;
 * an event with an id starts it over. A server that refuses or drops at once is not hammered. */
export const REOPEN_WAIT = { firstMs: 1_000, maxMs: 30_000 }
/** The most steps one run's live steps hold (the latest); each `steps` news carries them all, so it is bounded too. */
export const MAX_LIVE_STEPS = 100
/** Error codes of an `error` event after which reopening cannot help (the rest, e.g. stream_unavailable, can): the
 * OpenAPI's codes for the key, the plan and a missing agent or run. */
const FATAL_CODES = new Set([
  'unauthorized',
  'api_key_not_found',
  'plan_required',
  'role_forbidden',
  'feature_unavailable',
  'agent_not_found',
  'run_not_found',
  'forbidden',
  'not_found'
])

export type RunUpdate =
  | { kind: 'step'; step: ProviderStep }
  | { kind: 'status'; word: string }
  | { kind: 'result'; text: string }
  | { kind: 'error'; code: string; message: string }
  /** assistant, thinking, interaction_update and any other event: told by name, its text untrusted. */
  | { kind: 'other'; event: string }
  /** Told before each reopen, which comes `waitMs` later (after a drop, a stall, a refused or failed open). */
  | { kind: 'reopening'; lastEventId: string | null; stalled: boolean; waitMs: number }

export type FollowEnd =
  | { how: 'done' }
  /** 410 stream_expired: read the run by polling from now on. */
  | { how: 'expired' }
  | { how: 'failed'; error: Error }
  | { how: 'stopped' }

export interface Timers {
  set(run: () => void, ms: number): unknown
  clear(handle: unknown): void
}
export const realTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout)
}

export interface FollowOptions {
  /** Opens the stream, resuming after `lastEventId` when given. */
  open(lastEventId: string | null, signal: AbortSignal): Promise<StreamResponse>
  onUpdate(update: RunUpdate): void
  /** The last event this run's stream told before (a stream stopped by a pause): resumed after it, nothing retold. */
  from?: string | null
  timers?: Timers
  /** The reopen wait's jitter (0 to 1). */
  random?: () => number
  stallMs?: number
  maxReopens?: number
}

export interface Follower {
  readonly ended: Promise<FollowEnd>
  lastEventId(): string | null
  stop(): void
}

function json(data: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(data)
    return isJsonObject(parsed) ? parsed : {}
  } catch {
    return {}
  }
}
const str = (v: unknown): string | null => rawString(v) || null

/** A tool_call event as a step: titled by the tool's name; a later event of the same call replaces it (same id). */
export function toolStep(event: SseEvent): ProviderStep {
  const d = json(event.data)
  const name = str(d.name) ?? str(d.toolName) ?? str(d.tool) ?? 'Tool call'
  const args = d.args ?? d.arguments ?? d.input
  const detail = typeof args === 'string' ? args : isJsonObject(args) ? JSON.stringify(args) : null
  return {
    id: str(d.callId) ?? str(d.id) ?? (event.id || name),
    kind: 'tool_call',
    title: name,
    detail: detail === null ? null : detail.slice(0, 2_000),
    at: str(d.timestamp) ?? str(d.createdAt),
    status: null,
    serviceStatus: str(d.status)
  }
}

/** The wait before a reopen, given the reopens since the stream's last event: half of it fixed, half jitter, so
 * streams dropped together do not all come back at once. */
export function reopenWaitMs(reopens: number, random: () => number): number {
  const ceiling = Math.min(REOPEN_WAIT.maxMs, REOPEN_WAIT.firstMs * 2 ** Math.min(Math.max(reopens, 0), 30))
  const r = random()
  return Math.floor(ceiling / 2 + (ceiling / 2) * (Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0))
}

export function followRun(options: FollowOptions): Follower {
  const timers = options.timers ?? realTimers
  const stallMs = options.stallMs ?? STALL_MS
  const maxReopens = options.maxReopens ?? MAX_REOPENS
  const seen = new Set<string>()
  let lastId: string | null = options.from ?? null
  const random = options.random ?? Math.random
  let lastStatus: string | null = null
  /** The leading `status` is sent again at the top of every reconnect: a word already told is not told again. */
  const tellStatus = (word: string) => {
    if (word === lastStatus) return
    lastStatus = word
    options.onUpdate({ kind: 'status', word })
  }
  let stopped = false
  let current: AbortController | null = null
  /** Ends the wait before a reopen early (stop). */
  let wake: (() => void) | null = null
  /** Reopens since the stream's last event: how long the next wait is. */
  let reopens = 0

  /** Tells the reopen and waits before it on the timers; false when stopped meanwhile. */
  async function waitToReopen(stalled: boolean): Promise<boolean> {
    const waitMs = reopenWaitMs(reopens++, random)
    options.onUpdate({ kind: 'reopening', lastEventId: lastId, stalled, waitMs })
    if (stopped) return false
    await new Promise<void>((resolve) => {
      const handle = timers.set(() => {
        wake = null
        resolve()
      }, waitMs)
      wake = () => {
        timers.clear(handle)
        wake = null
        resolve()
      }
    })
    return !stopped
  }

  async function run(): Promise<FollowEnd> {
    let fruitless = 0
    let stalled = false
    for (let first = true; ; first = false) {
      if (stopped) return { how: 'stopped' }
      if (fruitless > maxReopens) {
        return { how: 'failed', error: new ServiceError('network', 'The Cursor run stream kept dropping.') }
      }
      if (!first && !(await waitToReopen(stalled))) return { how: 'stopped' }
      stalled = false
      const controller = new AbortController()
      current = controller
      let res: StreamResponse
      try {
        res = await options.open(lastId, controller.signal)
      } catch (e) {
        if (stopped) return { how: 'stopped' }
        if (e instanceof ServiceError && e.kind !== 'network' && e.kind !== 'timeout')
          return { how: 'failed', error: e }
        fruitless++
        continue
      }
      if (res.status === 410) {
        await res.text().catch(() => '')
        return { how: 'expired' }
      }
      if (res.status < 200 || res.status >= 300) {
        const text = await res.text().catch(() => '')
        if (res.status >= 500 || res.status === 429) {
          fruitless++
          continue
        }
        return {
          how: 'failed',
          error: new ServiceError('bad_request', `Cursor refused the run stream (HTTP ${res.status}). ${text}`.trim(), {
            status: res.status
          })
        }
      }
      let finished: FollowEnd | null = null
      let progressed = false
      const parser = createSseParser({
        onEvent(e) {
          if (finished) return
          // Only an event with an id is progress: the id-less leading status comes with every reconnect. Seen is keyed
          // by name too, as the docs' example stream gives `result` and `done` one id.
          if (e.id !== '') {
            lastId = e.id
            const key = `${e.event} ${e.id}`
            if (seen.has(key)) return
            seen.add(key)
            progressed = true
            reopens = 0
          }
          if (e.event === 'done') {
            finished = { how: 'done' }
            return
          }
          if (e.event === 'tool_call') return options.onUpdate({ kind: 'step', step: toolStep(e) })
          if (e.event === 'status') return tellStatus(str(json(e.data).status) ?? '')
          if (e.event === 'result') {
            // The terminal status comes with the result (the docs' stream sends no status after it).
            const d = json(e.data)
            const word = str(d.status)
            if (word !== null) tellStatus(word)
            return options.onUpdate({ kind: 'result', text: str(d.text) ?? str(d.result) ?? '' })
          }
          if (e.event === 'error') {
            const d = json(e.data)
            const code = str(d.code) ?? 'error'
            options.onUpdate({ kind: 'error', code, message: str(d.message) ?? '' })
            if (FATAL_CODES.has(code))
              finished = {
                how: 'failed',
                error: new ServiceError('bad_request', `The Cursor run stream ended: ${code}.`)
              }
            return
          }
          options.onUpdate({ kind: 'other', event: e.event })
        }
      })
      let watchdog: unknown
      const arm = () => {
        if (watchdog !== undefined) timers.clear(watchdog)
        watchdog = timers.set(() => {
          stalled = true
          controller.abort()
        }, stallMs)
      }
      arm()
      try {
        for await (const chunk of res.body) {
          arm()
          parser.feed(chunk)
          if (finished) break
        }
      } catch {
        // A drop or a stall: reopened below from the last event ID.
      } finally {
        timers.clear(watchdog)
      }
      if (finished) {
        controller.abort()
        return finished
      }
      if (stopped) return { how: 'stopped' }
      fruitless = progressed ? 0 : fruitless + 1
    }
  }

  const ended = run()
  return {
    ended,
    lastEventId: () => lastId,
    stop() {
      stopped = true
      current?.abort()
      wake?.()
    }
  }
}

/** The stream of one run over the account's transport: the key and origin rule are the transport's. */
export function openRunStream(transport: Transport, agentId: string, runId: string) {
  const path = `/v1/agents/${pathSegment(agentId, 'agent id')}/runs/${pathSegment(runId, 'run id')}/stream`
  return (lastEventId: string | null, signal: AbortSignal): Promise<StreamResponse> =>
    transport.open({ path, signal, headers: lastEventId === null ? {} : { 'last-event-id': lastEventId } })
}

export interface RunKey {
  agentId: string
  runId: string
}
/** A run as the pool names it (`streaming()`). */
export const keyOf = (r: RunKey) => `${r.agentId}/${r.runId}`

/** A stream that failed for the network (e.g. while offline) may work once back online; any other failure is final. */
const droppedByNetwork = (end: FollowEnd): boolean =>
  end.how === 'failed' &&
  end.error instanceof ServiceError &&
  (end.error.kind === 'network' || end.error.kind === 'timeout')

/** The runs an account follows live, never more than `max` at once; the others, and any whose stream expired or
 * failed, are polled. `start` opens one; `onEnd` is told when a stream ends (its slot is free again). */
export class StreamPool {
  private readonly open = new Map<string, Follower>()
  /** Runs left to polling, and whether their stream failed for the network (`retryDropped` gives those a new try). */
  private readonly pollOnly = new Map<string, boolean>()

  constructor(
    private readonly options: {
      max?: number
      start: (run: RunKey) => Follower
      onEnd?: (run: RunKey, end: FollowEnd) => void
    }
  ) {}

  get max(): number {
    return this.options.max ?? MAX_STREAMS
  }

  /** The running runs now: streams for as many as the bound allows (those already open first), the rest polled. */
  want(runs: readonly RunKey[]): { streamed: string[]; polled: string[] } {
    const wanted = new Set(runs.map(keyOf))
    // A run no longer running never runs again: what is remembered of it goes.
    for (const key of this.pollOnly.keys()) if (!wanted.has(key)) this.pollOnly.delete(key)
    for (const [key, follower] of this.open) {
      if (wanted.has(key)) continue
      follower.stop()
      this.open.delete(key)
    }
    for (const run of runs) {
      const key = keyOf(run)
      if (this.open.has(key) || this.pollOnly.has(key) || this.open.size >= this.max) continue
      const follower = this.options.start(run)
      this.open.set(key, follower)
      void follower.ended.then((end) => {
        if (this.open.get(key) !== follower) return
        this.open.delete(key)
        if (end.how !== 'done') this.pollOnly.set(key, droppedByNetwork(end))
        this.options.onEnd?.(run, end)
      })
    }
    const streamed = [...this.open.keys()]
    return { streamed, polled: runs.map(keyOf).filter((k) => !this.open.has(k)) }
  }

  streaming(): string[] {
    return [...this.open.keys()]
  }

  /** Back online: the runs whose streams failed for the network may be streamed again; an expired one stays polled. */
  retryDropped(): void {
    for (const [key, network] of this.pollOnly) if (network) this.pollOnly.delete(key)
  }

  /** Stops every stream without giving its run up: a later `want` opens it again (a pause, or closing). */
  close(): void {
    for (const f of this.open.values()) f.stop()
    this.open.clear()
  }
}

/** The step that says how many earlier steps are no longer held (first in the list, its id stable). */
export function earlierStep(count: number, kept: number): ProviderStep {
  return {
    id: 'live:earlier',
    kind: 'earlier',
    title: count === 1 ? '1 earlier step not shown' : `${count} earlier steps not shown`,
    detail: `Only the latest ${kept} steps are kept while a run is followed live.`,
    at: null,
    status: null,
    serviceStatus: null
  }
}

/** The steps a run's stream gathered, by agent, in the order first seen; a step told again replaces its first. At most
 * `max` (MAX_LIVE_STEPS) are held, the latest; the earlier ones are counted and said by one step ahead of them. */
export class LiveSteps {
  private readonly byAgent = new Map<string, { held: Map<string, ProviderStep>; earlier: number }>()

  constructor(private readonly max = MAX_LIVE_STEPS) {}

  add(agentId: string, step: ProviderStep): void {
    let steps = this.byAgent.get(agentId)
    if (!steps) this.byAgent.set(agentId, (steps = { held: new Map(), earlier: 0 }))
    const { held } = steps
    if (!held.has(step.id) && held.size >= this.max) {
      // A Map keeps insertion order: its first key is the oldest held. A call told again after it left comes back last.
      held.delete(held.keys().next().value as string)
      steps.earlier++
    }
    held.set(step.id, step)
  }

  steps(agentId: string): ProviderStep[] | undefined {
    const steps = this.byAgent.get(agentId)
    if (!steps) return undefined
    const held = [...steps.held.values()]
    return steps.earlier === 0 ? held : [earlierStep(steps.earlier, this.max), ...held]
  }

  forget(agentId: string): void {
    this.byAgent.delete(agentId)
  }
}
