// A Cursor account opened as every agent account is (registry.ts): its agents polled, and, where it is opened with
// `onLive`, after each poll the latest run of every agent still CREATING or RUNNING followed live (stream.ts, at most
// MAX_STREAMS; the rest, and any whose stream expired or failed, polled; none while the watch is paused). Tool calls
// are told as steps between polls; a status, result, error or the stream's end asks for a poll. A reply is a follow-up
// run. Streams go over the account's transport: the key stays there.
import type { ProviderStep, ProviderTask } from '../../../shared/provider'
import { ServiceError } from '../../client/service-error'
import type { AgentAccount, AgentAccountOptions, LiveNews } from '../account'
import { createCursorClient } from './client'
import { CURSOR } from './mapping'
import {
  type Follower,
  followRun,
  keyOf,
  LiveSteps,
  openRunStream,
  type RunKey,
  type RunUpdate,
  StreamPool,
  type Timers
} from './stream'

const ACTIVE_RUN = new Set(['CREATING', 'RUNNING'])
/** How far a run has come: created, running, ended (any other word). */
const stage = (status: unknown): number => (status === 'CREATING' ? 0 : status === 'RUNNING' ? 1 : 2)

/** For tests and the bench: the stream's timers and jitter, its stall bound, the pool's and the live steps' bounds. */
export interface CursorStreamTuning {
  timers?: Timers
  random?: () => number
  stallMs?: number
  maxStreams?: number
  maxLiveSteps?: number
}

export function openCursor(options: AgentAccountOptions, tuning: CursorStreamTuning = {}): AgentAccount {
  const client = createCursorClient({ ...options, apiKey: options.key })
  const tell = (news: LiveNews): void => options.onLive?.(news)
  const live = new LiveSteps(tuning.maxLiveSteps)
  /** The run whose steps `live` holds, by agent: a finished run's stay until the agent's next run is seen. */
  const stepsRun = new Map<string, string>()

  function update(run: RunKey, u: RunUpdate): void {
    if (u.kind === 'step') {
      if (stepsRun.get(run.agentId) !== run.runId) {
        live.forget(run.agentId)
        stepsRun.set(run.agentId, run.runId)
      }
      live.add(run.agentId, u.step)
      tell({ kind: 'steps', taskId: run.agentId, steps: live.steps(run.agentId) ?? [] })
      return
    }
    // A stream opens by repeating the run's statuses so far: only one past what the last poll read is news.
    const polled = client.latestRuns().get(run.agentId)
    if (u.kind === 'status' && polled?.id === run.runId && stage(u.word) <= stage(polled.status)) return
    if (u.kind === 'status' || u.kind === 'result' || u.kind === 'error') tell({ kind: 'moved', taskId: run.agentId })
  }

  /** Every follower not ended yet, so closing waits until each stream's request is let go. */
  const followers = new Set<Follower>()
  /** Each running run's latest follower: a stream opened again (after a pause) resumes after its last event. */
  const lastFollower = new Map<string, Follower>()
  let closed = false
  /** Off while the watch is paused: no stream is open or opened. */
  let liveOn = true
  const pool = new StreamPool({
    max: tuning.maxStreams,
    start(run) {
      const follower = followRun({
        open: openRunStream(client.transport, run.agentId, run.runId),
        onUpdate: (u) => update(run, u),
        from: lastFollower.get(keyOf(run))?.lastEventId() ?? null,
        timers: tuning.timers,
        random: tuning.random,
        stallMs: tuning.stallMs
      })
      followers.add(follower)
      lastFollower.set(keyOf(run), follower)
      void follower.ended.finally(() => followers.delete(follower))
      return follower
    },
    // Done, expired or failed: the run is read by polling from now on, and a poll now sees how it ended.
    onEnd: (run) => tell({ kind: 'moved', taskId: run.agentId })
  })

  const stepsOf = (agentId: string): ProviderStep[] | undefined =>
    stepsRun.get(agentId) === client.latestRuns().get(agentId)?.id ? live.steps(agentId) : undefined

  /** After a poll: the running runs followed (within the pool's bound), the steps of agents gone or rerun forgotten. */
  function follow(): void {
    // Nobody to tell (the command's one-shot reads): polling alone, no stream opened.
    if (closed || options.onLive === undefined) return
    const latest = client.latestRuns()
    for (const [agentId, runId] of [...stepsRun]) {
      if (latest.get(agentId)?.id === runId) continue
      stepsRun.delete(agentId)
      live.forget(agentId)
    }
    const running: RunKey[] = []
    for (const [agentId, run] of latest)
      if (typeof run.status === 'string' && ACTIVE_RUN.has(run.status)) running.push({ agentId, runId: run.id })
    const runningKeys = new Set(running.map(keyOf))
    for (const key of lastFollower.keys()) if (!runningKeys.has(key)) lastFollower.delete(key)
    if (liveOn) pool.want(running)
  }

  async function pollAll(signal: AbortSignal | undefined, steps: (agentId: string) => ProviderStep[] | undefined) {
    const tasks = await client.poll(signal, steps)
    follow()
    return tasks
  }

  return {
    descriptor: CURSOR,
    async poll(signal) {
      return { changed: true, tasks: await pollAll(signal, stepsOf) }
    },
    async task(taskId, signal) {
      const tasks = await pollAll(signal, (id) => (id === taskId ? (stepsOf(id) ?? []) : stepsOf(id)))
      const found: ProviderTask | undefined = tasks.find((t) => t.id === taskId)
      if (found === undefined)
        throw new ServiceError('not_found', `Cursor has no agent "${taskId}" on account "${options.account}".`)
      return found
    },
    waitMs: () => 0,
    checkKey: (signal) => client.me(signal),
    reply: (taskId, message, signal) => client.followUp(taskId, message, signal),
    isLive(taskId) {
      const run = client.latestRuns().get(taskId)
      return run !== undefined && pool.streaming().includes(keyOf({ agentId: taskId, runId: run.id }))
    },
    setLive(on) {
      liveOn = on
      if (on) pool.retryDropped()
      else pool.close()
    },
    async close() {
      closed = true
      pool.close()
      await Promise.all([...followers].map((f) => f.ended))
      await client.close()
    }
  }
}
