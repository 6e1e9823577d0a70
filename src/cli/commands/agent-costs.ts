// `costs --agents` (or `costs` pointed at an agent account): what each agent account spent in each of its units, today,
// this month and in total, and where its per-unit budgets stand; by the window's rules (shared/unit-costs.ts).
import { isServiceError } from '../../core/client'
import { type BudgetPeriod, periodTitle, periodWords } from '../../shared/budgets'
import { formatAmount } from '../../shared/format'
import type { Connection } from '../../shared/settings'
import { type UnitBudgetStatus, unitBudgetStatuses, type UnitSpend, unitSpend } from '../../shared/unit-costs'
import { openStoredAgentAccount } from '../accounts'
import { isCliError, usageError } from '../cli-error'
import { type Context, printJson } from '../context'
import { EXIT, type ExitCode, exitCodeForServiceError } from '../exit-codes'
import { descriptorOf } from '../services'
import { alignRight, oneLine, renderTable } from '../table'

export interface AgentCosts {
  account: string
  service: string
  units: UnitSpend[]
  budgets: {
    id: string
    unit: string
    period: BudgetPeriod
    period_key: string
    spent: number
    limit: number
    warn_ratio: number
    state: UnitBudgetStatus['state']
  }[]
}

export async function agentCostsCommand(
  ctx: Context,
  accounts: readonly Connection[],
  pointed: boolean
): Promise<ExitCode> {
  if (accounts.length === 0)
    throw usageError('No agent account is set up: run `agent-tray login --service devin` (or another agent service).')
  const settings = (await ctx.deps.settings()).read()
  const now = ctx.deps.now().getTime()
  let failed: ExitCode | undefined
  const out: AgentCosts[] = []
  // Each account alone: one that fails is said (and sets the exit code), the others are still shown.
  for (const connection of accounts) {
    try {
      const account = await openStoredAgentAccount(ctx, connection, pointed)
      try {
        const polled = await account.poll(ctx.deps.signal)
        const tasks = polled.changed ? polled.tasks : []
        const budgets = unitBudgetStatuses(settings.unitBudgets[connection.id] ?? [], tasks, now, ctx.deps.tz)
        out.push({
          account: connection.name,
          service: descriptorOf(connection).displayName,
          units: unitSpend(tasks, now, ctx.deps.tz),
          budgets: budgets.map((s) => ({
            id: s.budget.id,
            unit: s.budget.unit,
            period: s.budget.period,
            period_key: s.periodKey,
            spent: s.spent,
            limit: s.budget.limit,
            warn_ratio: s.budget.warnRatio,
            state: s.state
          }))
        })
      } finally {
        await account.close()
      }
    } catch (e) {
      const code = isCliError(e) ? e.exitCode : isServiceError(e) ? exitCodeForServiceError(e.kind) : undefined
      if (code === undefined) throw e
      failed ??= code
      ctx.io.stderr.write(`[${oneLine(connection.name)}] ${e instanceof Error ? e.message : String(e)}\n`)
    }
  }
  if (ctx.opts.json) printJson(ctx, out)
  else ctx.io.stdout.write(renderAgentCosts(out))
  return failed ?? EXIT.ok
}

const LEVEL_WORDS: Record<UnitBudgetStatus['state'], string> = {
  none: '',
  ok: 'within budget',
  near: 'past the warning',
  over: 'limit reached'
}

/** One table of amounts per account and unit, each with its unit named; then the budgets. */
export function renderAgentCosts(accounts: readonly AgentCosts[]): string {
  const units = accounts.flatMap((a) =>
    a.units.map((u) => [
      oneLine(a.account, 30),
      oneLine(a.service, 20),
      formatAmount(u.today, u.unit),
      formatAmount(u.thisMonth, u.unit),
      formatAmount(u.total, u.unit),
      String(u.tasks)
    ])
  )
  let text =
    units.length === 0
      ? 'No agent account has reported a cost yet.\n'
      : renderTable(['ACCOUNT', 'SERVICE', 'TODAY', 'THIS MONTH', 'TOTAL', 'TASKS'], alignRight(units, [2, 3, 4, 5]))
  const budgets = accounts.flatMap((a) =>
    a.budgets.map((b) => [
      oneLine(a.account, 30),
      `${periodTitle(b.period).toLowerCase()} ${oneLine(b.unit, 40)}`,
      `${formatAmount(b.spent, b.unit)} ${periodWords(b.period)}`,
      formatAmount(b.limit, b.unit),
      LEVEL_WORDS[b.state]
    ])
  )
  if (budgets.length > 0) text += `\n${renderTable(['ACCOUNT', 'BUDGET', 'SPENT', 'LIMIT', 'LEVEL'], budgets)}`
  return `${text}A task's cost counts on the local day and in the month it started; units are never added together.\n`
}
