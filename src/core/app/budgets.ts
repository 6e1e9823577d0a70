// Budgets after each round (or edit): crossings go to attention, the window and the notification gate like a monitor
// event, so a crossing is held or told by the same rules as a failed task.
import type { BudgetStatus } from '../../shared/budgets'
import type { TzOffset } from '../../shared/cost'
import type { MonitorEvent } from '../../shared/monitor'
import type { Settings } from '../../shared/settings'
import { type ConnectionBudgetInput, createBudgetTracker } from '../budgets/tracker'
import type { SettingsStore } from '../settings/store'
import type { Clock } from '../util/clock'
import type { OpenConnection, Session } from './session'

export interface AppBudgets {
  /** What is news of this connection's budgets now: to be told with `events` (the round's own). */
  check(open: OpenConnection): MonitorEvent[]
  /** Every open connection's budgets, as the window shows them. */
  statuses(): BudgetStatus[]
  /** The connection's running tasks that cost more than usual, with the usual cost. */
  unusual(open: OpenConnection): Map<string, { costUsd: number; usualUsd: number; projectId: string }>
  settled(): Promise<void>
}

export interface AppBudgetsDeps {
  settings(): Settings
  /** Where what was told is kept (state.json), so a restart tells nothing twice. */
  memory: Pick<SettingsStore, 'readBudgetMemory' | 'writeBudgetMemory'>
  clock: Clock
  tz: TzOffset
  session: Pick<Session, 'open'>
  reportError(context: string, error: unknown): void
}

export function createAppBudgets(ctx: AppBudgetsDeps): AppBudgets {
  const tracker = createBudgetTracker({
    read: () => ctx.memory.readBudgetMemory(),
    write: (parts) => ctx.memory.writeBudgetMemory(parts),
    onError: ctx.reportError
  })

  function input(open: OpenConnection): ConnectionBudgetInput {
    const settings = ctx.settings()
    const connectionId = open.connection.id
    return {
      connectionId,
      budgets: settings.budgets[connectionId] ?? [],
      projectIds: (settings.watched[connectionId] ?? []).map((w) => w.projectId),
      book: open.spend,
      usagesByTask: open.monitor.usagesByTask(),
      now: ctx.clock.now(),
      tz: ctx.tz
    }
  }

  return {
    check(open) {
      const { events } = tracker.check(input(open))
      return events
    },
    statuses: () => ctx.session.open().flatMap((open) => tracker.statuses(input(open))),
    unusual: (open) => tracker.unusualTasks(input(open)),
    settled: () => tracker.settled()
  }
}
