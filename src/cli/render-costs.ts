// `costs` for people: one table per grouping with the totals last; an estimate is marked "~" and
// explained under the table; a task whose records disagree with its total_price shows both.
import type { CostReport, CostReportRow } from '../shared/cost-report'
import { formatMoney, formatTokens, formatUsdFixed, SERVICE_PRICE_DECIMALS } from '../shared/format'
import { alignRight, oneLine, renderTable } from './table'

const GROUP_TITLE: Record<CostReport['grouping'], string> = {
  day: 'day',
  month: 'month',
  project: 'project',
  model: 'model',
  task: 'task'
}

export function renderCostReport(report: CostReport, projectCount: number): string {
  // Cents, as the window's Costs; only the records and total_price a mismatch compares keep the service's decimals.
  const cost = (r: Pick<CostReportRow, 'costUsd' | 'estimatedUsd'>): string =>
    `${r.estimatedUsd !== 0 ? '~' : ''}${formatMoney(r.costUsd)}`
  const head = `Costs of ${projectCount} project${projectCount === 1 ? '' : 's'}, ${report.since} to ${report.until} (local time), by ${GROUP_TITLE[report.grouping]}\n`
  if (report.rows.length === 0) return `${head}No cost in this range.\n`
  const t = report.totals
  const tasks = (n: number): string => String(n)
  let header: string[]
  let rows: string[][]
  let numeric: number[]
  switch (report.grouping) {
    case 'day':
    case 'month':
      header = [report.grouping.toUpperCase(), 'COST', 'TASKS']
      rows = [...report.rows.map((r) => [r.key, cost(r), tasks(r.taskCount)]), ['TOTAL', cost(t), tasks(t.taskCount)]]
      numeric = [1, 2]
      break
    case 'project':
      header = ['PROJECT', 'COST', 'TASKS', 'ID']
      rows = [
        ...report.rows.map((r) => [oneLine(r.label, 40), cost(r), tasks(r.taskCount), r.key]),
        ['TOTAL', cost(t), tasks(t.taskCount), '']
      ]
      numeric = [1, 2]
      break
    case 'model': {
      const cache = (v: number | null): string => (v === null ? '–' : formatTokens(v))
      header = ['MODEL', 'CALLS', 'INPUT', 'OUTPUT', 'CACHE READ', 'COST', 'TASKS']
      const line = (label: string, r: Omit<CostReportRow, 'key' | 'label'>): string[] => [
        label,
        String(r.calls),
        formatTokens(r.inputTokens),
        formatTokens(r.outputTokens),
        cache(r.cacheReadTokens),
        cost(r),
        tasks(r.taskCount)
      ]
      rows = [...report.rows.map((r) => line(oneLine(r.label, 40), r)), line('TOTAL', t)]
      numeric = [1, 2, 3, 4, 5, 6]
      break
    }
    case 'task':
      header = ['TASK', 'PROJECT', 'COST', 'RECORDS / TOTAL_PRICE', 'ID']
      rows = [
        ...report.rows.map((r) => [
          oneLine(r.label, 40),
          oneLine(r.projectName ?? '', 24),
          cost(r),
          r.mismatch
            ? `${formatUsdFixed(r.mismatch.recordsUsd, SERVICE_PRICE_DECIMALS)} / ${formatUsdFixed(r.mismatch.totalPriceUsd, SERVICE_PRICE_DECIMALS)}`
            : '',
          r.key
        ]),
        ['TOTAL', '', cost(t), '', '']
      ]
      numeric = [2]
      break
  }
  const notes: string[] = []
  if (t.estimatedUsd !== 0) {
    notes.push(
      `~ includes ${formatMoney(t.estimatedUsd)} estimated: tasks' total_price not itemized by usage records, counted on the day the task last changed` +
        (report.unfetchedTasks > 0
          ? ` (${report.unfetchedTasks} task${report.unfetchedTasks === 1 ? '' : 's'} without records)`
          : '') +
        '.'
    )
  }
  if (report.mismatchedTasks > 0) {
    notes.push(
      `${report.mismatchedTasks} task${report.mismatchedTasks === 1 ? '' : 's'}' usage records disagree with total_price, which counts (see --by task).`
    )
  }
  return head + renderTable(header, alignRight(rows, numeric)) + notes.map((n) => `${n}\n`).join('')
}
