// Per-unit budgets of agent accounts are told as USD budgets are: each level once per period, a changed limit or
// warning share starting afresh, a level fallen back below told again when crossed again. What was told is kept in
// state.json (`unitTold`), so a restart tells nothing twice.
import { budgetCrossing } from '../../shared/cost'
import type { MonitorEvent } from '../../shared/monitor'
import type { UnitBudgetStatus } from '../../shared/unit-costs'
import { createLatestWriter } from '../app/latest-writer'
import type { UnitToldCrossing } from '../settings/state-document'

export type UnitBudgetEvent = Extract<MonitorEvent, { kind: 'unit-budget' }>
/** Connection id → budget id → what was told of it in its current period. */
export type UnitToldMemory = Record<string, Record<string, UnitToldCrossing>>

export interface UnitBudgetTracker {
  /** What is news of this account's per-unit budgets, given where they stand now. */
  check(connectionId: string, statuses: readonly UnitBudgetStatus[], at: number): UnitBudgetEvent[]
  settled(): Promise<void>
}

export interface UnitBudgetTrackerDeps {
  read(): UnitToldMemory
  write(told: UnitToldMemory): Promise<void>
  onError(context: string, error: unknown): void
}

/** Whether what was told is of this budget in this period (another limit or warning share is another budget). */
function applies(status: UnitBudgetStatus, told: UnitToldCrossing | undefined): told is UnitToldCrossing {
  const { budget } = status
  return (
    told !== undefined &&
    told.periodKey === status.periodKey &&
    told.limit === budget.limit &&
    told.warnRatio === budget.warnRatio
  )
}

export function createUnitBudgetTracker(deps: UnitBudgetTrackerDeps): UnitBudgetTracker {
  const told = deps.read()
  const writer = createLatestWriter(
    (memory: UnitToldMemory) => deps.write(memory),
    (e) => deps.onError('saving what per-unit budgets told', e)
  )
  return {
    check(connectionId, statuses, at) {
      const before = told[connectionId] ?? {}
      const mine: Record<string, UnitToldCrossing> = {}
      const events: UnitBudgetEvent[] = []
      for (const status of statuses) {
        const { budget } = status
        const previous = before[budget.id]
        const { crossed, notified } = budgetCrossing(applies(status, previous) ? previous.level : null, status.state)
        if (notified !== null)
          mine[budget.id] = {
            periodKey: status.periodKey,
            level: notified,
            limit: budget.limit,
            warnRatio: budget.warnRatio
          }
        if (crossed === null) continue
        events.push({
          kind: 'unit-budget',
          connectionId,
          projectId: null,
          at: new Date(at).toISOString(),
          budgetId: budget.id,
          unit: budget.unit,
          period: budget.period,
          periodKey: status.periodKey,
          level: crossed,
          spent: status.spent,
          limit: budget.limit
        })
      }
      // Budgets that no longer exist are forgotten with the rest.
      if (JSON.stringify(mine) !== JSON.stringify(before)) {
        if (Object.keys(mine).length === 0) delete told[connectionId]
        else told[connectionId] = mine
        writer.write(structuredClone(told))
      }
      return events
    },
    settled: () => writer.settled()
  }
}
