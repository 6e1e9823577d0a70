// The Costs screen: each call counted on its local day; missing usage records come via the session's polite fetcher.
import { periodKey } from '../../../shared/cost-period'
import { rangeDays, resolveRange, WINDOW_RANGE_NAMES } from '../../../shared/cost-range'
import { costChart, costReport, type CostReportTask } from '../../../shared/cost-report'
import { costReportCsv } from '../../../shared/cost-report-csv'
import type { CostsRequest, Handlers } from '../../../shared/ipc'
import { projectDisplayName } from '../../../shared/watched-project'
import { type ProjectTasks, reportTasks, tasksInRange } from '../../costs/report-data'
import { forbidden, invalidArgument } from '../app-error'
import type { AppContext } from '../context'

type CostHandlers = Pick<Handlers, 'costs:report' | 'costs:export-csv'>

/** Beyond this many days the chart shows months: a bar per day would be too thin to read. */
const CHART_DAYS_MAX = 92

export function costHandlers(ctx: AppContext): CostHandlers {
  const { session } = ctx

  /** The report's input over every open connection; `complete`: wait for the missing records. */
  async function gather(request: CostsRequest, complete: boolean) {
    const today = periodKey(ctx.clock.now(), ctx.tz, 'day') ?? new Date(ctx.clock.now()).toISOString().slice(0, 10)
    // The request schema checked the days on their own and together; only here is today known.
    const resolved = resolveRange({ since: request.since, until: request.until }, today, WINDOW_RANGE_NAMES)
    if (!resolved.ok) throw invalidArgument(resolved.error)
    const { range } = resolved
    const usages = session.usages()
    const wanted = request.projectIds ? new Set(request.projectIds) : null
    const items: CostReportTask[] = []
    let pending = 0
    let failed = 0
    for (const open of session.open()) {
      const watched = (ctx.settings().watched[open.connection.id] ?? []).filter(
        (w) => wanted === null || wanted.has(w.projectId)
      )
      const projects: ProjectTasks[] = await Promise.all(
        watched.map(async (w) => ({
          projectId: w.projectId,
          projectName: projectDisplayName(w, open.projects.get(w.projectId)),
          tasks: await open.monitor.loadTasks(w.projectId)
        }))
      )
      if (usages) {
        const inRange = tasksInRange(projects, range, ctx.tz)
        usages.store.noteTasks(open.connection.id, inRange)
        const fetching = usages.fetcher.ensure(open.connection.id, inRange)
        if (complete) failed += (await fetching).failed
        else pending += inRange.filter((t) => usages.fetcher.wants(open.connection.id, t)).length
      }
      items.push(...reportTasks(open.connection.id, projects, usages?.store ?? null, range, ctx.tz))
    }
    return { range, items, pending, failed }
  }

  return {
    'costs:report': async (request) => {
      const { range, items, pending, failed } = await gather(request, request.complete === true)
      const chartPeriod = request.grouping === 'month' || rangeDays(range) > CHART_DAYS_MAX ? 'month' : 'day'
      return {
        report: costReport(items, range, request.grouping, ctx.tz),
        chart: costChart(items, range, chartPeriod, request.stackBy, ctx.tz),
        chartPeriod,
        pendingTasks: pending,
        failedTasks: failed
      }
    },
    'costs:export-csv': async (request) => {
      const save = ctx.ports.saveFile
      if (!save) throw forbidden('Files cannot be saved here.')
      const { range, items } = await gather(request, true)
      const report = costReport(items, range, request.grouping, ctx.tz)
      return {
        path: await save(
          `agent-tray-costs-${range.since}-to-${range.until}-by-${request.grouping}.csv`,
          costReportCsv(report)
        )
      }
    }
  }
}
