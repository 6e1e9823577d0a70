// `now [--all]`: what needs you across every account of every service, in Now's order (now-items.ts). Workser's
// accounts read their watched projects through its client; every other service's account, every task it reports.
import { isServiceError } from '../../core/client'
import { unknownServiceProblem } from '../../core/providers/registry'
import { workserTask } from '../../core/providers/workser/mapping'
import type { ProviderTask } from '../../shared/provider'
import type { Connection } from '../../shared/settings'
import { isSafeExternalUrl } from '../../shared/url'
import { openStoredAgentAccount } from '../accounts'
import { isCliError, usageError } from '../cli-error'
import { connectionNamed, type Context, printJson, resolveApiKey, resolveConnection } from '../context'
import { EXIT, type ExitCode, exitCodeForServiceError } from '../exit-codes'
import { type Dated, nowItem, nowOrder } from '../now-items'
import { renderNow } from '../render'
import { descriptorOf, isAgentAccount, SERVICE_KINDS } from '../services'
import { oneLine } from '../table'
import { invalidRecordWarner } from '../warnings'

export interface NowFlags {
  all?: boolean
}

export async function nowCommand(ctx: Context, flags: NowFlags): Promise<ExitCode> {
  const pointed = connectionNamed(ctx)
  const accounts = pointed
    ? [(await resolveConnection(ctx)).connection]
    : (await ctx.deps.settings()).read().connections
  if (accounts.length === 0)
    throw usageError(`No account is set up: run \`agent-tray login --service ${SERVICE_KINDS.join('|')}\`.`)
  // Each account alone: one that fails is said (and sets the exit code), the others are still listed.
  let failed: ExitCode | undefined
  const read = await Promise.all(
    accounts.map(async (connection): Promise<Dated[]> => {
      // Said and skipped, without failing the others: only a newer Agent Tray can read it.
      const unknown = unknownServiceProblem(connection.service)
      if (unknown !== null) {
        ctx.io.stderr.write(`[${oneLine(connection.name)}] ${unknown}\n`)
        return []
      }
      try {
        const tasks = await tasksOf(ctx, connection, pointed)
        const service = descriptorOf(connection).kind
        return tasks.map((task) => ({ item: nowItem(connection, service, task), updatedAt: task.updatedAt }))
      } catch (e) {
        const code = isCliError(e) ? e.exitCode : isServiceError(e) ? exitCodeForServiceError(e.kind) : undefined
        if (code === undefined) throw e
        failed ??= code
        ctx.io.stderr.write(`[${oneLine(connection.name)}] ${e instanceof Error ? e.message : String(e)}\n`)
        return []
      }
    })
  )
  const items = nowOrder(read.flat(), flags.all === true)
  if (ctx.opts.json) printJson(ctx, items)
  else ctx.io.stdout.write(renderNow(items, flags.all === true))
  return failed ?? EXIT.ok
}

async function tasksOf(ctx: Context, connection: Connection, pointed: boolean): Promise<ProviderTask[]> {
  if (isAgentAccount(connection)) {
    const account = await openStoredAgentAccount(ctx, connection, pointed)
    try {
      const polled = await account.poll(ctx.deps.signal)
      return polled.changed ? polled.tasks : []
    } finally {
      await account.close()
    }
  }
  return workserTasks(ctx, connection)
}

/** A Workser account's watched projects' tasks, each with its project's agent interface as its page when safe. */
async function workserTasks(ctx: Context, connection: Connection): Promise<ProviderTask[]> {
  const watched = (await ctx.deps.settings()).read().watched[connection.id] ?? []
  if (watched.length === 0) return []
  const apiKey = await resolveApiKey(ctx, { connection, stored: true })
  const client = ctx.deps.createClient({
    baseUrl: connection.baseUrl,
    apiKey,
    onInvalidRecord: invalidRecordWarner(ctx.io.stderr, ctx.opts.json === true, ctx.skipped)
  })
  try {
    const out: ProviderTask[] = []
    for (const w of watched) {
      const [tasks, project] = await Promise.all([
        client.listTasks(w.projectId, ctx.deps.signal),
        // The page is a nicety: a project that cannot be read still lists its tasks.
        client.getProject(w.projectId, ctx.deps.signal).catch(() => null)
      ])
      const page = project?.prebuilt_url && isSafeExternalUrl(project.prebuilt_url) ? project.prebuilt_url : null
      const named = { id: w.projectId, name: project?.name || w.name || w.projectId }
      out.push(...tasks.map((t) => workserTask(t, named, page)))
    }
    return out
  } finally {
    await client.close()
  }
}
