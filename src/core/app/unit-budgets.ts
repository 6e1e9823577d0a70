// Agent accounts' costs per unit and their per-unit budgets, read from what each account's last poll reported; a
// crossing is told like a USD budget's (the gate, forwarding, the window), after every poll and every edit.
import type { TzOffset } from '../../shared/cost'
import type { MonitorEvent } from '../../shared/monitor'
import type { Settings } from '../../shared/settings'
import { accountUnits, type AgentCostView, unitBudgetStatuses, unitSpend } from '../../shared/unit-costs'
import { createUnitBudgetTracker } from '../budgets/unit-tracker'
import type { SettingsStore } from '../settings/store'
import type { Clock } from '../util/clock'
import type { OpenAgent } from './open-agent'

export interface AppUnitBudgets {
  /** Every open agent account's costs and budgets, as the window shows them. */
  views(): AgentCostView[]
  /** One account's, or null when it is not open. */
  view(connectionId: string): AgentCostView | null
  /** What is news of this account's per-unit budgets now. */
  check(connectionId: string): MonitorEvent[]
  settled(): Promise<void>
}

export interface AppUnitBudgetsDeps {
  settings(): Settings
  memory: Pick<SettingsStore, 'readBudgetMemory' | 'writeBudgetMemory'>
  clock: Clock
  tz: TzOffset
  agents(): readonly OpenAgent[]
  reportError(context: string, error: unknown): void
}

export function createAppUnitBudgets(deps: AppUnitBudgetsDeps): AppUnitBudgets {
  const tracker = createUnitBudgetTracker({
    read: () => deps.memory.readBudgetMemory().unitTold,
    write: (unitTold) => deps.memory.writeBudgetMemory({ unitTold }),
    onError: deps.reportError
  })

  function viewOf(agent: OpenAgent): AgentCostView {
    const connectionId = agent.connection.id
    const tasks = agent.watch.views()
    const now = deps.clock.now()
    return {
      connectionId,
      units: unitSpend(tasks, now, deps.tz),
      budgets: unitBudgetStatuses(deps.settings().unitBudgets[connectionId] ?? [], tasks, now, deps.tz),
      budgetUnits: accountUnits(agent.watch.account.descriptor.costUnits, tasks)
    }
  }

  const find = (connectionId: string): OpenAgent | undefined =>
    deps.agents().find((a) => a.connection.id === connectionId)

  return {
    views: () => deps.agents().map(viewOf),
    view(connectionId) {
      const agent = find(connectionId)
      return agent ? viewOf(agent) : null
    },
    check(connectionId) {
      const agent = find(connectionId)
      // Until a poll has read its tasks (and while polls fail) its spending is not known: nothing told, nothing forgotten.
      if (!agent || agent.watch.health.state !== 'ok') return []
      return tracker.check(connectionId, viewOf(agent).budgets, deps.clock.now())
    },
    settled: () => tracker.settled()
  }
}
