// One cost report for the command, the window and the CSV, so they agree to the cent; tasks are cut by day with
// cost-period's rule before any grouping.
import { cacheReadTokensOf, type CostUsage, roundUsd, taskCost, type TzOffset } from './cost'
import { periodKey, unaccountedUsd } from './cost-period'
import { addDays, type CostRange } from './cost-range'
import type { Task } from './service'

export const COST_GROUPINGS = ['day', 'month', 'project', 'model', 'task'] as const
export type CostGrouping = (typeof COST_GROUPINGS)[number]
export const COST_STACKS = ['project', 'model'] as const
export type CostStack = (typeof COST_STACKS)[number]

/** A chart shows this many stacks (the window has six bar colours); the rest are one "Other". */
export const MAX_STACKS = 6

export interface CostReportTask {
  projectId: string
  projectName: string
  task: Pick<Task, 'id' | 'name' | 'total_price' | 'updated_at'>
  /** Its usage records; undefined when not fetched (its cost is then an estimate). */
  usages: readonly CostUsage[] | undefined
}

export interface CostReportRow {
  /** The day, the month, the project id, "provider/model" ('' for cost no record itemizes), the task id. */
  key: string
  /** What a person reads: the day, the month, the project's name, the model, the task's name. */
  label: string
  costUsd: number
  /** The part of costUsd that is an estimate (total_price not itemized by records). */
  estimatedUsd: number
  taskCount: number
  /** Model and task rows: calls and tokens of the records in the range. */
  calls: number
  inputTokens: number
  outputTokens: number
  /** null when no record said anything about cache reads. */
  cacheReadTokens: number | null
  /** Model rows: the provider. */
  provider?: string
  /** Task rows: the project, and the records' sum vs total_price when they disagree beyond rounding. */
  projectId?: string
  projectName?: string
  mismatch?: { recordsUsd: number; totalPriceUsd: number } | null
}

/** The figures every row has, and the totals. */
export type CostFigures = Pick<
  CostReportRow,
  'costUsd' | 'estimatedUsd' | 'taskCount' | 'calls' | 'inputTokens' | 'outputTokens' | 'cacheReadTokens'
>

export interface CostReport extends CostRange {
  grouping: CostGrouping
  rows: CostReportRow[]
  totals: CostFigures
  /** Tasks with cost in the range whose records are not known: their cost is on their updated_at day, as an estimate. */
  unfetchedTasks: number
  /** Tasks whose records disagree with total_price beyond rounding (both are shown in task rows). */
  mismatchedTasks: number
}

interface Piece {
  day: string
  projectId: string
  projectName: string
  taskId: string
  taskName: string
  costUsd: number
  /** The record it is; null for what no record itemizes (an estimate). */
  record: CostUsage | null
}

function piecesOf(item: CostReportTask, tz: TzOffset): Piece[] {
  const { task } = item
  const fallback = periodKey(task.updated_at, tz, 'day')
  const base = { projectId: item.projectId, projectName: item.projectName, taskId: task.id, taskName: task.name }
  const out: Piece[] = []
  for (const usage of item.usages ?? []) {
    if (!Number.isFinite(usage.final_price)) continue
    const day = periodKey(usage.created_at, tz, 'day') ?? fallback
    if (day === null) continue
    out.push({ ...base, day, costUsd: usage.final_price, record: usage })
  }
  const gap = unaccountedUsd(task, item.usages)
  if (gap !== 0 && fallback !== null) out.push({ ...base, day: fallback, costUsd: gap, record: null })
  return out
}

function noFigures(): CostFigures {
  return { costUsd: 0, estimatedUsd: 0, taskCount: 0, calls: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: null }
}

function addPiece(row: CostFigures, piece: Piece, tasks: Set<string>): void {
  row.costUsd = roundUsd(row.costUsd + piece.costUsd)
  if (!piece.record) row.estimatedUsd = roundUsd(row.estimatedUsd + piece.costUsd)
  tasks.add(piece.taskId)
  row.taskCount = tasks.size
  const m = piece.record?.usage_metadata
  if (!piece.record) return
  row.calls += 1
  row.inputTokens += Number.isFinite(m?.input_tokens) ? m!.input_tokens : 0
  row.outputTokens += Number.isFinite(m?.output_tokens) ? m!.output_tokens : 0
  const cache = cacheReadTokensOf(m)
  if (cache !== null) row.cacheReadTokens = (row.cacheReadTokens ?? 0) + cache
}

/** Which row a piece goes to, and its label. */
function groupOf(grouping: CostGrouping, piece: Piece): { key: string; label: string } {
  switch (grouping) {
    case 'day':
      return { key: piece.day, label: piece.day }
    case 'month':
      return { key: piece.day.slice(0, 7), label: piece.day.slice(0, 7) }
    case 'project':
      return { key: piece.projectId, label: piece.projectName }
    case 'model':
      return piece.record
        ? {
            key: `${piece.record.provider}/${piece.record.model}`,
            label: `${piece.record.provider} ${piece.record.model}`
          }
        : { key: '', label: 'not itemized (estimate)' }
    case 'task':
      return { key: piece.taskId, label: piece.taskName }
  }
}

function inRange(range: CostRange) {
  return (p: Piece): boolean => p.day >= range.since && p.day <= range.until
}

/** The report: rows (by time oldest first, otherwise costliest first) and totals over the range. */
export function costReport(
  items: readonly CostReportTask[],
  range: CostRange,
  grouping: CostGrouping,
  tz: TzOffset
): CostReport {
  const rows = new Map<string, { row: CostReportRow; tasks: Set<string> }>()
  const totals = { figures: noFigures(), tasks: new Set<string>() }
  const unfetched = new Set<string>()
  let mismatched = 0
  const keep = inRange(range)
  for (const item of items) {
    const pieces = piecesOf(item, tz).filter(keep)
    if (pieces.length === 0) continue
    if (item.usages === undefined) unfetched.add(item.task.id)
    const check = item.usages ? taskCost(item.usages, item.task.total_price).mismatch : null
    if (check) mismatched++
    for (const piece of pieces) {
      const { key, label } = groupOf(grouping, piece)
      let group = rows.get(key)
      if (!group) {
        group = { row: { key, label, ...noFigures() }, tasks: new Set() }
        if (grouping === 'model' && piece.record) group.row.provider = piece.record.provider
        if (grouping === 'task') {
          group.row.projectId = piece.projectId
          group.row.projectName = piece.projectName
          group.row.mismatch = check ? { recordsUsd: check.sum, totalPriceUsd: check.total } : null
        }
        rows.set(key, group)
      }
      addPiece(group.row, piece, group.tasks)
      addPiece(totals.figures, piece, totals.tasks)
    }
  }
  const list = [...rows.values()].map((g) => g.row)
  if (grouping === 'day' || grouping === 'month') list.sort((a, b) => a.key.localeCompare(b.key))
  // Costliest first; the estimate no record itemizes (a model row, the only row keyed '') last.
  else
    list.sort(
      (a, b) => Number(a.key === '') - Number(b.key === '') || b.costUsd - a.costUsd || a.label.localeCompare(b.label)
    )
  return {
    ...range,
    grouping,
    rows: list,
    totals: totals.figures,
    unfetchedTasks: unfetched.size,
    mismatchedTasks: mismatched
  }
}

export interface CostChart {
  /** Days or months, oldest first, every one in the range. */
  categories: string[]
  stacks: { key: string; name: string; values: number[] }[]
}

/** Cost per day (or month) in the range, stacked by project or model: the costliest MAX_STACKS, the rest as "Other". */
export function costChart(
  items: readonly CostReportTask[],
  range: CostRange,
  period: 'day' | 'month',
  stackBy: CostStack,
  tz: TzOffset
): CostChart {
  const categories: string[] = []
  for (let d = range.since; d <= range.until; d = addDays(d, 1)) {
    const key = period === 'day' ? d : d.slice(0, 7)
    if (categories[categories.length - 1] !== key) categories.push(key)
  }
  const index = new Map(categories.map((c, i) => [c, i]))
  const stacks = new Map<string, { key: string; name: string; values: number[]; total: number }>()
  const keep = inRange(range)
  for (const item of items) {
    for (const piece of piecesOf(item, tz).filter(keep)) {
      const { key, label } = groupOf(stackBy, piece)
      const stack = stacks.get(key) ?? { key, name: label, values: categories.map(() => 0), total: 0 }
      const i = index.get(period === 'day' ? piece.day : piece.day.slice(0, 7))!
      stack.values[i] = roundUsd(stack.values[i]! + piece.costUsd)
      stack.total += piece.costUsd
      stacks.set(key, stack)
    }
  }
  const sorted = [...stacks.values()].sort((a, b) => b.total - a.total || a.name.localeCompare(b.name))
  const shown = sorted.slice(0, sorted.length > MAX_STACKS ? MAX_STACKS - 1 : MAX_STACKS)
  const rest = sorted.slice(shown.length)
  const out = shown.map(({ key, name, values }) => ({ key, name, values }))
  if (rest.length > 0) {
    out.push({
      key: '\u0000other',
      name: `Other (${rest.length})`,
      values: categories.map((_, i) => roundUsd(rest.reduce((s, r) => s + r.values[i]!, 0)))
    })
  }
  return { categories, stacks: out }
}
