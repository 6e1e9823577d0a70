// The human form of each result: aligned columns, status words, USD and tokens as the window shows
// them (shared/format.ts). Pure: a result in, text out.
import type { TaskCost } from '../shared/cost'
import { cacheReadTokensOf } from '../shared/cost'
import {
  formatAmount,
  formatMoney,
  formatTokens,
  formatUsdColumn,
  formatUsdFixed,
  SERVICE_PRICE_DECIMALS,
  usdColumnDecimals
} from '../shared/format'
import type { MonitorEvent } from '../shared/monitor'
import type { ProviderStatus, ProviderStep, ProviderTask, WaitingKind } from '../shared/provider'
import type { Project, PublishResult, Task, TaskStep, UsageRecord } from '../shared/service'
import { isStepActive, stepStatusLabel, taskStatusLabel } from '../shared/status'
import { describeStepMetadata } from '../shared/step-metadata'
import type { NowItem } from './now-items'
import { alignRight, oneLine, renderFields, renderTable } from './table'

const dash = (s: string): string => (s === '' ? '–' : s)
/** An id from the service, on one line. */
const id = (s: string): string => oneLine(s, 200)

export function renderProject(p: Project): string {
  return renderFields([
    ['ID', p.id],
    ['Name', dash(p.name)],
    ['Description', dash(oneLine(p.description, 200))],
    ['Software product', dash(p.software_product_id)],
    ['Type', dash(p.project_type)],
    ['Template', dash(p.project_template_type)],
    ['User e-mail', dash(p.user_email)],
    ['Prebuilt URL', dash(p.prebuilt_url)],
    ['Return URL', dash(p.return_url)],
    ['Ref ID', dash(p.ref_id)],
    ['Created', p.created_at],
    ['Updated', p.updated_at]
  ])
}

/** What an empty list says: nothing yet, or nothing readable (`unreadable` records were skipped). */
function emptyList(what: string, unreadable: number, none: string): string {
  return unreadable > 0
    ? `No ${what} could be read: the service sent ${unreadable} that agent-tray cannot read.\n`
    : none
}

export function renderTasks(tasks: readonly Task[], unreadable = 0): string {
  if (tasks.length === 0) return emptyList('task', unreadable, 'No tasks yet.\n')
  const rows = tasks.map((t) => {
    const done = t.steps.filter((s) => !isStepActive(s.status)).length
    return [
      t.id,
      taskStatusLabel(t.status, t.status_raw),
      `${done}/${t.steps.length}`,
      formatMoney(t.total_price),
      t.updated_at,
      oneLine(t.name)
    ]
  })
  return renderTable(['ID', 'STATUS', 'STEPS', 'COST', 'UPDATED', 'NAME'], alignRight(rows, [3]))
}

/** One line for a step's tool metadata: "write src/app.ts", "$ npm test", or key=value pairs. */
export function describeMetadata(metadata: Record<string, unknown>): string {
  const view = describeStepMetadata(metadata)
  switch (view.kind) {
    case 'file':
      return `${view.tool === 'read_file_from_sandbox' ? 'read' : 'write'} ${view.path}`
    case 'directory':
      return `list ${view.path === '' ? '/' : view.path}`
    case 'command':
      return `$ ${view.command}`
    case 'replace':
      return `replace "${view.pattern}" → "${view.newValue}" in ${view.files.join(', ')}`
    case 'generic': {
      const pairs = view.entries.map(([k, v]) => `${k}=${v}`).join(' ')
      return [view.tool ?? '', pairs].filter((s) => s !== '').join(': ')
    }
    case 'none':
      return ''
  }
}

export function renderSteps(steps: readonly TaskStep[], unreadable = 0): string {
  if (steps.length === 0) return emptyList('step', unreadable, 'No steps yet.\n')
  const rows = steps.map((s) => [
    s.id,
    stepStatusLabel(s.status, s.status_raw),
    s.type === 'unknown' ? (s.type_raw ?? 'unknown') : (s.type ?? '–'),
    oneLine(s.name, 40),
    oneLine(describeMetadata(s.metadata), 80)
  ])
  return renderTable(['ID', 'STATUS', 'TYPE', 'NAME', 'DETAIL'], rows)
}

export interface UsageReport {
  taskId: string
  usages: UsageRecord[]
  cost: TaskCost
  /** Why total_price is unknown, when it is. */
  totalNote?: string
  /** Usage records the service sent that could not be read. */
  unreadable?: number
}

export function renderUsage(r: UsageReport): string {
  if (r.usages.length === 0) {
    return (
      emptyList('usage record', r.unreadable ?? 0, `No usage records for task ${id(r.taskId)}.\n`) +
      (r.cost.totalPriceUsd !== null ? `Task total_price: ${formatMoney(r.cost.totalPriceUsd)}\n` : '')
    )
  }
  // A record's price as the service rounds it (6 decimals), every row alike; the sums per model in one precision.
  const callCosts = r.usages.map((u) => formatUsdFixed(u.final_price, SERVICE_PRICE_DECIMALS))
  const modelCosts = formatUsdColumn(r.cost.byModel.map((m) => m.costUsd))
  const calls = r.usages.map((u, i) => [
    u.created_at,
    `${u.provider}/${u.model}`,
    oneLine(u.remark, 30),
    formatTokens(u.usage_metadata.input_tokens),
    formatTokens(u.usage_metadata.output_tokens),
    formatTokens(cacheReadTokensOf(u.usage_metadata)),
    callCosts[i]!
  ])
  const models = r.cost.byModel.map((m, i) => [
    `${m.provider}/${m.model}`,
    String(m.calls),
    formatTokens(m.inputTokens),
    formatTokens(m.outputTokens),
    formatTokens(m.cacheReadTokens),
    modelCosts[i]!
  ])
  const c = r.cost
  const out = [
    `Calls (${c.calls}):`,
    renderTable(['TIME', 'MODEL', 'REMARK', 'IN', 'OUT', 'CACHE READ', 'COST'], alignRight(calls, [3, 4, 5, 6])),
    'By model:',
    renderTable(['MODEL', 'CALLS', 'IN', 'OUT', 'CACHE READ', 'COST'], alignRight(models, [1, 2, 3, 4, 5])),
    renderFields([
      ['Input tokens', formatTokens(c.inputTokens)],
      ['Output tokens', formatTokens(c.outputTokens)],
      ['Cache-read tokens', formatTokens(c.cacheReadTokens)],
      ['Total tokens', formatTokens(c.totalTokens)],
      // The two figures a reader compares, one under the other: both at the service's precision.
      ['Sum of calls', formatUsdFixed(c.usageSumUsd, SERVICE_PRICE_DECIMALS)],
      [
        'Task total_price',
        c.totalPriceUsd === null
          ? `– (${r.totalNote ?? 'not known'})`
          : formatUsdFixed(c.totalPriceUsd, SERVICE_PRICE_DECIMALS)
      ]
    ])
  ]
  if (c.mismatch) {
    // The three figures compared in one precision, fine enough that the difference shows (as the task screen does).
    const { sum, total, difference } = c.mismatch
    const usd = (v: number): string => formatUsdFixed(v, usdColumnDecimals([sum, total, difference]))
    out.push(
      `MISMATCH: the calls add up to ${usd(sum)} but the task's total_price is ${usd(total)} (difference ${usd(difference)}).\n`
    )
  }
  return out.join('\n')
}

export function renderPublish(result: PublishResult, hostname: string): string {
  const head = result.status === 'success' ? `Published to ${hostname}.` : `Publishing to ${hostname} failed.`
  return [head, ...result.message.map((m) => `  ${oneLine(m, 400)}`)].join('\n') + '\n'
}

/** What a waiting task asks, in a few words. */
const WAITING_WORDS: Record<WaitingKind, string> = {
  plan_approval: 'approve the plan',
  question: 'answer a question',
  permission: 'give a permission'
}

/** A task's status as the command says it: unknown with the service's word; waiting with what is asked. */
function providerStatusLabel(
  status: ProviderStatus,
  serviceStatus: string,
  waiting: WaitingKind | null = null
): string {
  if (status === 'unknown') return serviceStatus === '' ? 'unknown' : `unknown (${serviceStatus})`
  if (status === 'waiting' && waiting !== null) return `waiting: ${WAITING_WORDS[waiting]}`
  return status
}

/** `now`: one row per task; the ID column is what `approve` and `reply` take. */
export function renderNow(items: readonly NowItem[], all: boolean): string {
  if (items.length === 0) return all ? 'No tasks.\n' : 'Nothing needs you.\n'
  const rows = items.map((t) => [
    providerStatusLabel(t.status, t.service_status, t.waiting?.kind ?? null),
    t.service,
    oneLine(t.account, 30),
    oneLine(t.title),
    t.cost === null ? '–' : oneLine(formatAmount(t.cost.amount, t.cost.unit), 30),
    id(t.id)
  ])
  return renderTable(['STATUS', 'SERVICE', 'ACCOUNT', 'TITLE', 'COST', 'ID'], rows)
}

/** A step a stream told (a tool call), in the form of an agent's event line: time, service, task, then the step. */
export function renderAgentStep(
  at: string,
  serviceName: string,
  taskId: string,
  step: ProviderStep,
  task: ProviderTask | undefined
): string {
  const when = at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')
  const title = task === undefined ? '' : ` ${oneLine(task.title)}`
  const detail = step.detail === null ? '' : ` ${oneLine(step.detail, 120)}`
  const status = step.serviceStatus === null ? '' : ` [${oneLine(step.serviceStatus, 30)}]`
  return `${when}  ${oneLine(serviceName)}  task ${id(taskId)}${title} step: ${oneLine(step.title)}${detail}${status}`
}

/** One line per monitor event, time first, so a log reads top to bottom. */
export function renderEvent(e: MonitorEvent): string {
  const at = e.at.replace('T', ' ').replace(/\.\d+Z$/, 'Z')
  switch (e.kind) {
    case 'task-added':
      return `${at}  ${id(e.projectId)}  task ${id(e.taskId)} added: ${oneLine(e.taskName)} [${taskStatusLabel(e.status)}]`
    case 'task-status':
      return `${at}  ${id(e.projectId)}  task ${id(e.taskId)} ${oneLine(e.taskName)}: ${taskStatusLabel(e.from)} → ${taskStatusLabel(e.to)}`
    case 'step-added':
      return `${at}  ${id(e.projectId)}  task ${id(e.taskId)} step ${id(e.stepId)} added: ${oneLine(e.stepName)} [${stepStatusLabel(e.status)}]`
    case 'step-status':
      return `${at}  ${id(e.projectId)}  task ${id(e.taskId)} step ${id(e.stepId)} ${oneLine(e.stepName)}: ${stepStatusLabel(e.from)} → ${stepStatusLabel(e.to)}`
    case 'task-price':
      return `${at}  ${id(e.projectId)}  task ${id(e.taskId)} cost ${formatMoney(e.from)} → ${formatMoney(e.to)}`
    case 'project-health': {
      const h = e.health
      if (h.state === 'error')
        return `${at}  ${id(e.projectId)}  error: ${oneLine(h.error.message, 400)} (next try ${h.nextPollAt})`
      return `${at}  ${id(e.projectId)}  ${h.state === 'ok' ? 'reachable' : 'unknown'}`
    }
    case 'budget':
      return `${at}  ${e.projectId === null ? 'all projects' : id(e.projectId)}  ${e.period === 'total' ? 'total' : e.periodKey} budget ${e.level === 'over' ? 'reached' : 'nearly reached'}: ${formatMoney(e.spentUsd)} of ${formatMoney(e.budgetUsd)}`
    case 'unit-budget':
      return `${at}  ${id(e.connectionId)}  ${e.period === 'total' ? 'total' : e.periodKey} ${oneLine(e.unit)} budget ${e.level === 'over' ? 'reached' : 'nearly reached'}: ${formatAmount(e.spent, e.unit)} of ${formatAmount(e.limit, e.unit)}`
    case 'task-cost-unusual':
      return `${at}  ${id(e.projectId)}  task ${id(e.taskId)} ${oneLine(e.taskName)} costs more than usual: ${formatMoney(e.costUsd)} (usual ${formatMoney(e.usualUsd)})`
    case 'agent-waiting': {
      const asked = e.waiting.text === null ? '' : `: ${oneLine(e.waiting.text, 200)}`
      return `${at}  ${oneLine(e.serviceName)}  task ${id(e.taskId)} ${oneLine(e.taskName)} needs you (${WAITING_WORDS[e.waiting.kind]})${asked}`
    }
    case 'agent-status':
      return `${at}  ${oneLine(e.serviceName)}  task ${id(e.taskId)} ${oneLine(e.taskName)}: ${e.from ?? 'new'} → ${providerStatusLabel(e.to, e.serviceStatus)}`
    default:
      return `${at}  ${id((e as { projectId: string }).projectId)}  ${(e as { kind: string }).kind}`
  }
}
