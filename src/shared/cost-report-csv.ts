// A cost report as CSV: one row per group, the columns of its grouping, amounts in USD with the
// service's six decimals, and the totals last.
import type { CostReport, CostReportRow } from './cost-report'
import { type CsvCell, type CsvLineEnd, toCsv as toCsvWith } from './csv'

const usd = (v: number): number => Number(v.toFixed(6))

export function costReportCsv(report: CostReport, lineEnd: CsvLineEnd = '\r\n'): string {
  const toCsv = (header: string[], rows: CsvCell[][]): string => toCsvWith(header, rows, lineEnd)
  const money = (r: Pick<CostReportRow, 'costUsd' | 'estimatedUsd' | 'taskCount'>): CsvCell[] => [
    usd(r.costUsd),
    usd(r.estimatedUsd),
    r.taskCount
  ]
  const tokens = (r: Pick<CostReportRow, 'calls' | 'inputTokens' | 'outputTokens' | 'cacheReadTokens'>): CsvCell[] => [
    r.calls,
    r.inputTokens,
    r.outputTokens,
    r.cacheReadTokens
  ]
  const t = report.totals
  switch (report.grouping) {
    case 'day':
    case 'month':
      return toCsv(
        [report.grouping, 'cost_usd', 'estimated_usd', 'tasks'],
        [...report.rows.map((r) => [r.key, ...money(r)]), ['total', ...money(t)]]
      )
    case 'project':
      return toCsv(
        ['project_id', 'project', 'cost_usd', 'estimated_usd', 'tasks'],
        [...report.rows.map((r) => [r.key, r.label, ...money(r)]), ['', 'total', ...money(t)]]
      )
    case 'model':
      return toCsv(
        [
          'provider',
          'model',
          'calls',
          'input_tokens',
          'output_tokens',
          'cache_read_tokens',
          'cost_usd',
          'estimated_usd',
          'tasks'
        ],
        [
          ...report.rows.map((r): CsvCell[] => [
            ...(r.key === '' ? ['', r.label] : [r.provider ?? '', r.key.slice((r.provider ?? '').length + 1)]),
            ...tokens(r),
            ...money(r)
          ]),
          ['', 'total', ...tokens(t), ...money(t)]
        ]
      )
    case 'task':
      return toCsv(
        ['task_id', 'task', 'project_id', 'project', 'cost_usd', 'estimated_usd', 'records_usd', 'total_price_usd'],
        [
          ...report.rows.map((r) => [
            r.key,
            r.label,
            r.projectId ?? '',
            r.projectName ?? '',
            usd(r.costUsd),
            usd(r.estimatedUsd),
            r.mismatch ? usd(r.mismatch.recordsUsd) : null,
            r.mismatch ? usd(r.mismatch.totalPriceUsd) : null
          ]),
          ['', 'total', '', '', usd(t.costUsd), usd(t.estimatedUsd), null, null]
        ]
      )
  }
}
