// `watch [projectId...]`: one line (or JSON line) per change in the watched projects until Ctrl-C.
// `watch --task ID [--exit-status]`: follows one task to its end, exiting like `gh run watch`.
import { localTz } from '../../core/app/project-view'
import { followBudgets } from '../../core/budgets/follow'
import { Monitor } from '../../core/monitor/monitor'
import { type AgentAccount, unknownServiceProblem } from '../../core/providers/registry'
import { systemClock } from '../../core/util/clock'
import type { MonitorEvent, ServiceErrorInfo } from '../../shared/monitor'
import type { ProviderStep, ProviderTask } from '../../shared/provider'
import type { Connection } from '../../shared/settings'
import { DEFAULT_POLLING_PREFS } from '../../shared/settings'
import { isEnded, taskStatusLabel } from '../../shared/status'
import { openStoredAgentAccount } from '../accounts'
import { authError, usageError } from '../cli-error'
import { isCliError } from '../cli-error'
import { connectionNamed, type Context, resolveApiKey, resolveConnection, withClient } from '../context'
import { EXIT, type ExitCode } from '../exit-codes'
import { follow } from '../follow'
import { nowItem } from '../now-items'
import { renderAgentStep, renderEvent } from '../render'
import { isAgentAccount } from '../services'
import { oneLine } from '../table'
import { taskRef } from '../task-ref'
import { invalidRecordWarner } from '../warnings'
import { type LiveFeed, watchAgentAccount } from '../watch-agents'
import { openForwarding } from '../watch-forward'
import { findTask, missingTask } from './find-task'
import { watchedProjects } from './watch-list'

export interface WatchFlags {
  task?: string
  project?: string
  exitStatus?: boolean
  intervalMs?: number
  /** Also send what is told to the forwarding targets (agent-tray forward). */
  forward?: boolean
}

/** For --task: how often the task's project is polled unless --interval-ms says otherwise (the app's active interval). */
export const DEFAULT_INTERVAL_MS = DEFAULT_POLLING_PREFS.activeIntervalMs

export async function watchCommand(ctx: Context, projectIds: string[], flags: WatchFlags): Promise<ExitCode> {
  if (flags.task !== undefined) {
    if (projectIds.length > 0) throw usageError('Give either project ids or --task, not both.')
    return watchTask(ctx, flags.task, { ...flags, intervalMs: flags.intervalMs ?? DEFAULT_INTERVAL_MS })
  }
  if (flags.exitStatus) throw usageError('--exit-status needs --task ID.')
  if (flags.project !== undefined) projectIds = [...projectIds, flags.project]
  if (projectIds.length === 0 && !connectionNamed(ctx)) {
    const accounts = await watchedConnections(ctx)
    const stored = (await ctx.deps.settings()).read().connections
    const agents = stored.filter(isAgentAccount)
    // Said and skipped: only a newer Agent Tray can watch it.
    const unknown = stored.filter((c) => unknownServiceProblem(c.service) !== null)
    for (const c of unknown) ctx.io.stderr.write(`[${oneLine(c.name)}] ${unknownServiceProblem(c.service)}\n`)
    if (accounts.length > 1 || agents.length > 0 || (unknown.length > 0 && accounts.length > 0))
      return watchEveryConnection(ctx, accounts, flags, agents)
  } else if (projectIds.length === 0) {
    // Pointed at an agent service's account: every task of it (it has no projects).
    const { connection, stored } = await resolveConnection(ctx)
    if (stored && isAgentAccount(connection)) return watchEveryConnection(ctx, [], flags, [connection], true)
  }
  return withClient(ctx, async (c) => {
    let ids = projectIds
    if (ids.length === 0) {
      ids = c.stored ? (await watchedProjects(ctx, c.connection.id)).map((w) => w.projectId) : []
      if (ids.length === 0) {
        throw usageError('No projects to watch: give project ids, or add some with `agent-tray watch-list add ID`.')
      }
    }
    const settings = c.stored ? (await ctx.deps.settings()).read() : undefined
    const budgets = settings?.budgets[c.connection.id] ?? []
    const polling = { ...(settings?.polling ?? DEFAULT_POLLING_PREFS) }
    if (flags.intervalMs !== undefined) polling.activeIntervalMs = polling.idleIntervalMs = flags.intervalMs
    if (!ctx.opts.json) {
      const what = ids.length === 1 ? `project ${ids[0]}` : `${ids.length} projects`
      ctx.io.stderr.write(`Watching ${what} on ${c.connection.baseUrl} (Ctrl-C to stop).\n`)
    }
    // The tray's own monitor: the same schedule, backoff, change detection and budget checks.
    const monitor = new Monitor({
      connectionId: c.connection.id,
      source: c.client,
      projects: ids,
      polling
    })
    // A rejected key will not heal by polling again: stop and say so (exit 3).
    const stop = new AbortController()
    let rejected: ServiceErrorInfo | undefined
    // An account's budget adds up what this watch sees: the projects given, or its watch list.
    const forwarding = flags.forward ? await openForwarding(ctx) : null
    const tell = (e: MonitorEvent): void => {
      printEvent(ctx, e)
      forwarding?.forward(c.connection.id, [e])
    }
    followBudgets(monitor, { budgets, projectIds: ids, clock: systemClock, tz: localTz, onEvent: tell })
    monitor.on('event', (e) => {
      tell(e)
      if (e.kind === 'project-health' && e.health.state === 'error' && e.health.error.kind === 'auth') {
        rejected = e.health.error
        stop.abort()
      }
    })
    monitor.start()
    // The monitor's timers never keep a process alive on their own: this wait does, until Ctrl-C.
    await untilAborted(stop.signal, ctx.deps.signal, forwarding?.lost)
    monitor.dispose()
    await forwarding?.close()
    if (rejected) throw authError(rejected.message)
    if (forwarding?.lost.aborted) throw forwarding.lost.reason
    return EXIT.ok
  })
}

/** The stored Workser connections that watch something, in their stored order (none of a service unknown here). */
async function watchedConnections(ctx: Context): Promise<Connection[]> {
  const settings = (await ctx.deps.settings()).read()
  return settings.connections.filter(
    (c) => !isAgentAccount(c) && unknownServiceProblem(c.service) === null && (settings.watched[c.id] ?? []).length > 0
  )
}

/** Every stored connection's watch list, and every task of each agent account, each with its own key: a rejected key
 *  stops that connection only, and exit 3 only when none is left. */
async function watchEveryConnection(
  ctx: Context,
  connections: Connection[],
  flags: WatchFlags,
  agents: Connection[] = [],
  pointed = false
): Promise<ExitCode> {
  const settings = (await ctx.deps.settings()).read()
  const polling = { ...settings.polling }
  if (flags.intervalMs !== undefined) polling.activeIntervalMs = polling.idleIntervalMs = flags.intervalMs
  const stop = new AbortController()
  const running: { monitor?: Monitor; close: () => Promise<void> }[] = []
  const loops: Promise<void>[] = []
  const ended = new AbortController()
  const rejected: string[] = []
  let live = 0
  const say = (connection: Connection, line: string): void =>
    void ctx.io.stderr.write(`[${oneLine(connection.name)}] ${line}\n`)
  const forwarding = flags.forward ? await openForwarding(ctx) : null
  try {
    for (const connection of connections) {
      let apiKey: string
      try {
        apiKey = await resolveApiKey(ctx, { connection, stored: true })
      } catch (e) {
        // One account without a key does not keep the others from being watched.
        say(connection, e instanceof Error ? e.message : String(e))
        continue
      }
      const client = ctx.deps.createClient({
        baseUrl: connection.baseUrl,
        apiKey,
        onInvalidRecord: invalidRecordWarner(ctx.io.stderr, ctx.opts.json === true)
      })
      const watched = settings.watched[connection.id] ?? []
      const monitor = new Monitor({
        connectionId: connection.id,
        source: client,
        projects: watched.map((w) => w.projectId),
        polling
      })
      followBudgets(monitor, {
        budgets: settings.budgets[connection.id] ?? [],
        projectIds: watched.map((w) => w.projectId),
        clock: systemClock,
        tz: localTz,
        onEvent: (e) => tell(e)
      })
      const tell = (e: MonitorEvent): void => {
        ctx.io.stdout.write(
          (ctx.opts.json
            ? JSON.stringify({ connection: connection.name, ...e })
            : `[${oneLine(connection.name)}] ${renderEvent(e)}`) + '\n'
        )
        forwarding?.forward(connection.id, [e])
      }
      monitor.on('event', (e) => {
        tell(e)
        if (
          e.kind === 'project-health' &&
          e.health.state === 'error' &&
          e.health.error.kind === 'auth' &&
          !rejected.includes(connection.id)
        ) {
          rejected.push(connection.id)
          say(connection, `${e.health.error.message} Stopped watching this connection.`)
          monitor.dispose()
          if (--live === 0) stop.abort()
        }
      })
      running.push({ monitor, close: () => client.close() })
      live++
      if (!ctx.opts.json)
        say(
          connection,
          `Watching ${watched.length === 1 ? '1 project' : `${watched.length} projects`} on ${connection.baseUrl}.`
        )
    }
    const agentAccounts: { connection: Connection; account: AgentAccount; feed: LiveFeed }[] = []
    for (const connection of agents) {
      try {
        // A running task the service streams (Cursor) is followed: its steps printed as they come.
        const feed: LiveFeed = { on: null }
        const account = await openStoredAgentAccount(ctx, connection, pointed, (news) => feed.on?.(news))
        agentAccounts.push({ connection, account, feed })
        running.push({ close: () => account.close() })
        live++
        if (!ctx.opts.json)
          say(
            connection,
            `Watching every task of this ${account.descriptor.displayName} account on ${connection.baseUrl}.`
          )
      } catch (e) {
        if (!isCliError(e)) throw e
        say(connection, e.message)
      }
    }
    if (live === 0) throw authError('No connection could be watched: log in again with `agent-tray login`.')
    if (!ctx.opts.json) ctx.io.stderr.write('Ctrl-C to stop.\n')
    for (const { monitor } of running) monitor?.start()
    for (const { connection, account, feed } of agentAccounts) {
      const watching = watchAgentAccount({
        connection,
        account,
        live: feed,
        step: (taskId, step, task) => {
          const at = ctx.deps.now().toISOString()
          ctx.io.stdout.write(
            (ctx.opts.json
              ? JSON.stringify(agentStepLine(at, connection, account.descriptor.kind, taskId, step, task))
              : `[${oneLine(connection.name)}] ${renderAgentStep(at, account.descriptor.displayName, taskId, step, task)}`) +
              '\n'
          )
        },
        polling,
        random: ctx.deps.random,
        sleep: ctx.deps.sleep,
        now: ctx.deps.now,
        signal: AbortSignal.any([ended.signal, stop.signal, ...(ctx.deps.signal ? [ctx.deps.signal] : [])]),
        retrying: (message) => say(connection, `${message} (trying again)`),
        tell: (e, task) => {
          ctx.io.stdout.write(
            (ctx.opts.json
              ? JSON.stringify(agentJsonLine(e, connection, account.descriptor.kind, task))
              : `[${oneLine(connection.name)}] ${renderEvent(e)}`) + '\n'
          )
          forwarding?.forward(connection.id, [e])
        }
      })
      loops.push(
        watching.then((rejection) => {
          if (rejection === null) return
          rejected.push(connection.id)
          say(connection, `${rejection} Stopped watching this connection.`)
          if (--live === 0) stop.abort()
        })
      )
    }
    await untilAborted(stop.signal, ctx.deps.signal, forwarding?.lost)
  } finally {
    ended.abort()
    await Promise.all(loops)
    for (const { monitor, close } of running) {
      monitor?.dispose()
      await close()
    }
    await forwarding?.close()
  }
  if (forwarding?.lost.aborted) throw forwarding.lost.reason
  if (rejected.length > 0 && rejected.length === running.length)
    throw authError('Every connection refused its key: log in again with `agent-tray login`.')
  return EXIT.ok
}

function untilAborted(...given: (AbortSignal | undefined)[]): Promise<void> {
  const signal = AbortSignal.any(given.filter((s) => s !== undefined))
  return new Promise((resolve) => {
    const keepAlive = setInterval(() => {}, 1 << 30)
    const done = () => {
      clearInterval(keepAlive)
      resolve()
    }
    if (signal.aborted) return done()
    signal.addEventListener('abort', done, { once: true })
  })
}

/** An agent account's change as a JSON line: `now`'s record of the task (its `status` is `waiting` when it waits),
 *  with the event's kind, time and account, and the status it left. */
function agentJsonLine(e: MonitorEvent, connection: Connection, service: string, task: ProviderTask) {
  return {
    kind: e.kind,
    at: e.at,
    connection: connection.name,
    ...nowItem(connection, service, task),
    ...(e.kind === 'agent-status' ? { from: e.from } : {})
  }
}

/** A step a stream told, as a JSON line: its task's id as `now` gives it, and the step in the service's words. */
function agentStepLine(
  at: string,
  connection: Connection,
  service: string,
  taskId: string,
  step: ProviderStep,
  task: ProviderTask | undefined
) {
  return {
    kind: 'agent-step',
    at,
    connection: connection.name,
    service,
    id: taskRef(connection.id, taskId),
    title: task?.title ?? null,
    step: { id: step.id, kind: step.kind, title: step.title, detail: step.detail, service_status: step.serviceStatus }
  }
}

function printEvent(ctx: Context, e: MonitorEvent): void {
  ctx.io.stdout.write((ctx.opts.json ? JSON.stringify(e) : renderEvent(e)) + '\n')
}

async function watchTask(ctx: Context, taskId: string, flags: WatchFlags & { intervalMs: number }): Promise<ExitCode> {
  return withClient(ctx, async (c) => {
    const first = await findTask(ctx, c, taskId, flags.project)
    const projectId = first.project_id
    if (!ctx.opts.json) {
      ctx.io.stdout.write(
        `Task ${oneLine(first.id, 200)} (${oneLine(first.name)}) in project ${oneLine(projectId, 200)}: ${oneLine(taskStatusLabel(first.status, first.status_raw))}\n`
      )
    }
    let status = first.status
    let statusRaw = first.status_raw
    if (!isEnded(status)) {
      const outcome = await follow({
        client: c.client,
        connectionId: c.connection.id,
        projectIds: [projectId],
        intervalMs: flags.intervalMs,
        signal: ctx.deps.signal,
        sleep: ctx.deps.sleep,
        now: ctx.deps.now,
        onEvent: (e) => {
          if ('taskId' in e && e.taskId === taskId) printEvent(ctx, e)
        },
        onRetry: (_projectId, error) => ctx.io.stderr.write(`${error.message} (trying again)\n`),
        until: (latest) => {
          const task = latest.get(projectId)?.find((t) => t.id === taskId)
          if (!task)
            throw missingTask(ctx, taskId, `Task ${taskId} is no longer among the tasks of project ${projectId}.`)
          status = task.status
          statusRaw = task.status_raw
          return isEnded(task.status)
        }
      })
      if (outcome === 'stopped') return EXIT.interrupted
    }
    const label = oneLine(taskStatusLabel(status, statusRaw))
    if (ctx.opts.json) ctx.io.stdout.write(JSON.stringify({ kind: 'task-ended', taskId, projectId, status }) + '\n')
    else ctx.io.stdout.write(`Task ${taskId} ended: ${label}\n`)
    if (!flags.exitStatus) return EXIT.ok
    return status === 'completed' ? EXIT.ok : EXIT.taskNotCompleted
  })
}
