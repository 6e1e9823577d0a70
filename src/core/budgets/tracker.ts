// What was told is remembered in state.json, so a restart tells nothing twice; whether and when a crossing is told
// is the notification gate's decision.
import type { BudgetStatus } from '../../shared/budgets'
import { taskCostUsd } from '../../shared/cost'
import type { MonitorEvent } from '../../shared/monitor'
import { createLatestWriter } from '../app/latest-writer'
import type { BudgetMemory, HeldBudgetEvent, ToldCrossing } from '../settings/state-document'
import { checkCrossing, toldApplies } from './crossing'
import { type BudgetScopeInput, evaluateBudgets } from './evaluate'
import type { TaskFacts } from './spend-book'
import { costsMoreThanUsual, usualCost } from './unusual'

/** Tasks remembered per connection as told "costing more than usual": far more than run at once. */
export const MAX_UNUSUAL_TOLD = 500

export type UnusualEvent = Extract<MonitorEvent, { kind: 'task-cost-unusual' }>

/** What the tracker reads of one connection: what evaluate.ts reads to place its budgets. */
export type ConnectionBudgetInput = BudgetScopeInput

export interface BudgetCheck {
  statuses: BudgetStatus[]
  events: (HeldBudgetEvent | UnusualEvent)[]
}

export interface BudgetTracker {
  /** Where the connection's budgets stand, and what is news since the last check. */
  check(input: ConnectionBudgetInput): BudgetCheck
  /** Where they stand, without telling anything (the window's view between polls). */
  statuses(input: ConnectionBudgetInput): BudgetStatus[]
  /** The running tasks flagged as costing more than usual, by task id (told or not). */
  unusualTasks(
    input: Pick<ConnectionBudgetInput, 'book' | 'projectIds' | 'usagesByTask'>
  ): Map<string, { costUsd: number; usualUsd: number; projectId: string }>
  settled(): Promise<void>
}

export interface BudgetTrackerDeps {
  read(): BudgetMemory
  write(parts: Partial<BudgetMemory>): Promise<void>
  onError(context: string, error: unknown): void
}

/** The running tasks that cost more than usual, each with what it cost so far and its project's usual cost. */
function costlyTasks(
  input: Pick<ConnectionBudgetInput, 'book' | 'projectIds' | 'usagesByTask'>
): { task: TaskFacts; projectId: string; costUsd: number; usualUsd: number }[] {
  const out: { task: TaskFacts; projectId: string; costUsd: number; usualUsd: number }[] = []
  for (const projectId of input.projectIds) {
    const usualUsd = usualCost(input.book.completedCosts(projectId))
    if (usualUsd === null) continue
    for (const task of input.book.running(projectId)) {
      const costUsd = taskCostUsd(task, input.usagesByTask)
      if (costsMoreThanUsual(costUsd, usualUsd)) out.push({ task, projectId, costUsd, usualUsd })
    }
  }
  return out
}

export function createBudgetTracker(deps: BudgetTrackerDeps): BudgetTracker {
  const memory = deps.read()
  const told: Record<string, Record<string, ToldCrossing>> = memory.told
  const unusualTold: Record<string, string[]> = memory.unusualTold
  const writer = createLatestWriter(
    (parts: Partial<BudgetMemory>) => deps.write(parts),
    (e) => deps.onError('saving what budgets told', e)
  )

  return {
    statuses: (input) => evaluateBudgets(input),
    unusualTasks: (input) =>
      new Map(
        costlyTasks(input).map((c) => [c.task.id, { costUsd: c.costUsd, usualUsd: c.usualUsd, projectId: c.projectId }])
      ),
    check(input) {
      const statuses = evaluateBudgets(input)
      const at = new Date(input.now).toISOString()
      const events: BudgetCheck['events'] = []
      const mine = { ...(told[input.connectionId] ?? {}) }
      let changed = false
      for (const status of statuses) {
        const { budget } = status
        const previous = mine[budget.id] ?? null
        const result = checkCrossing(budget, status.periodKey, status.spentUsd, previous)
        // Before every project in its scope was polled (after a start) spending reads low: what
        // was told stands until it can really fall back (a higher level is told as usual).
        const scope = budget.projectId === null ? input.projectIds : [budget.projectId]
        if (
          !scope.every((id) => input.book.has(id)) &&
          toldApplies(budget, status.periodKey, previous) &&
          (result.told === null || previous.level === 'over')
        ) {
          result.told = previous
        }
        if (JSON.stringify(result.told) !== JSON.stringify(mine[budget.id] ?? null)) changed = true
        if (result.told) mine[budget.id] = result.told
        else delete mine[budget.id]
        if (result.crossed) {
          events.push({
            kind: 'budget',
            connectionId: input.connectionId,
            projectId: budget.projectId,
            at,
            budgetId: budget.id,
            period: budget.period,
            periodKey: status.periodKey,
            level: result.crossed,
            spentUsd: status.spentUsd,
            budgetUsd: budget.limitUsd
          })
        }
      }
      // Budgets that no longer exist are forgotten.
      const ids = new Set(input.budgets.map((b) => b.id))
      for (const id of Object.keys(mine)) {
        if (!ids.has(id)) {
          delete mine[id]
          changed = true
        }
      }
      told[input.connectionId] = mine

      const toldTasks = unusualTold[input.connectionId] ?? []
      for (const { task, projectId, costUsd, usualUsd } of costlyTasks(input)) {
        if (toldTasks.includes(task.id)) continue
        toldTasks.push(task.id)
        changed = true
        events.push({
          kind: 'task-cost-unusual',
          connectionId: input.connectionId,
          projectId,
          at,
          taskId: task.id,
          taskName: task.name,
          costUsd,
          usualUsd
        })
      }
      unusualTold[input.connectionId] = toldTasks.slice(-MAX_UNUSUAL_TOLD)
      if (changed) writer.write({ told: structuredClone(told), unusualTold: structuredClone(unusualTold) })
      return { statuses, events }
    },
    settled: () => writer.settled()
  }
}
