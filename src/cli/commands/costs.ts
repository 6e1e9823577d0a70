// `costs`: records not yet known are fetched and kept in usage-cache.json, so the next run and the tray app do not
// fetch them again.
import { type ProjectTasks, reportTasks, tasksInRange } from '../../core/costs/report-data'
import { createUsageFetcher } from '../../core/costs/usage-fetcher'
import { periodKey } from '../../shared/cost-period'
import { COMMAND_RANGE_NAMES, resolveRange } from '../../shared/cost-range'
import { type CostGrouping, costReport } from '../../shared/cost-report'
import { costReportCsv } from '../../shared/cost-report-csv'
import { projectDisplayName } from '../../shared/watched-project'
import { usageError } from '../cli-error'
import { connectionNamed, type Context, printJson, resolveConnection, withClient } from '../context'
import { EXIT, type ExitCode } from '../exit-codes'
import { progressBar } from '../progress'
import { renderCostReport } from '../render-costs'
import { isAgentAccount } from '../services'
import { agentCostsCommand } from './agent-costs'

export interface CostsFlags {
  project?: string[]
  since?: string
  until?: string
  by?: CostGrouping
  csv?: boolean
  /** Every agent account's costs in their units instead of a Workser account's report. */
  agents?: boolean
}

export async function costsCommand(ctx: Context, flags: CostsFlags): Promise<ExitCode> {
  // Pointed at (or active on) an agent account, `costs` shows that account's costs in its units.
  const agentPointed = !flags.agents && isAgentAccount((await resolveConnection(ctx, undefined, false)).connection)
  const { tz } = ctx.deps
  const now = ctx.deps.now()
  const today = periodKey(now, tz, 'day') ?? now.toISOString().slice(0, 10)
  const resolved = resolveRange({ since: flags.since, until: flags.until }, today, COMMAND_RANGE_NAMES)
  if (!resolved.ok) throw usageError(resolved.error)
  if (flags.csv && ctx.opts.json) throw usageError('Give --json or --csv, not both.')
  const { range } = resolved
  const grouping = flags.by ?? 'day'
  if (flags.agents || agentPointed) {
    if (flags.csv || flags.project || (flags.by ?? 'day') !== 'day' || flags.since || flags.until)
      throw usageError('An agent account has no report by day, project or model: give --agents (and --json) only.')
    const accounts = flags.agents
      ? (await ctx.deps.settings()).read().connections.filter(isAgentAccount)
      : [(await resolveConnection(ctx, undefined, false)).connection]
    return agentCostsCommand(ctx, accounts, !flags.agents && connectionNamed(ctx))
  }

  return withClient(ctx, async ({ client, connection, stored }) => {
    const settings = await ctx.deps.settings()
    const current = settings.read()
    const watched = stored ? (current.watched[connection.id] ?? []) : []
    const ids = flags.project ?? watched.map((w) => w.projectId)
    if (ids.length === 0) {
      throw usageError(
        `No watched projects on ${connection.baseUrl}: add some with \`agent-tray watch-list add\`, or give --project ID.`
      )
    }
    const projects: ProjectTasks[] = []
    for (const projectId of ids) {
      const entry = watched.find((w) => w.projectId === projectId) ?? { projectId, name: '' }
      // The name is a nicety: without the project's answer the remembered name, else the id.
      const projectName = projectDisplayName(entry, await client.getProject(projectId).catch(() => undefined))
      projects.push({ projectId, projectName, tasks: await client.listTasks(projectId) })
    }

    const store = await ctx.deps.openUsages()
    const fetcher = createUsageFetcher({
      store,
      concurrency: current.polling.maxConcurrency,
      fetch: (_c, taskId) => client.getStepsAndUsages(taskId)
    })
    // For people only: never in --json or --csv, never when stderr is not a terminal.
    const bar = progressBar(ctx.opts.json || flags.csv ? undefined : ctx.io.progress, 'Fetching usage records')
    const fetched = await fetcher.ensure(connection.id, tasksInRange(projects, range, tz), (p) =>
      bar.update(p.done, p.total)
    )
    bar.end()
    await store.flush()
    if (fetched.failed > 0 && !ctx.opts.json && !flags.csv) {
      ctx.io.stderr.write(
        `agent-tray: the usage records of ${fetched.failed} task${fetched.failed === 1 ? '' : 's'} could not be fetched: their cost is estimated from total_price.\n`
      )
    }

    const report = costReport(reportTasks(connection.id, projects, store, range, tz), range, grouping, tz)
    if (ctx.opts.json) printJson(ctx, { ...report, projectIds: ids, fetchFailures: fetched.failed })
    else if (flags.csv) ctx.io.stdout.write(costReportCsv(report, '\n'))
    else ctx.io.stdout.write(renderCostReport(report, ids.length))
    return EXIT.ok
  })
}
