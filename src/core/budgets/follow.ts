// Budgets for the command's `watch`: the app's checks and words, remembered for this run only, so a crossing already
// past is said once at start.
import type { Budget } from '../../shared/budgets'
import type { TzOffset } from '../../shared/cost'
import type { MonitorEvent } from '../../shared/monitor'
import type { Monitor } from '../monitor/monitor'
import { emptyBudgetMemory } from '../settings/state-document'
import type { Clock } from '../util/clock'
import { SpendBook } from './spend-book'
import { createBudgetTracker } from './tracker'

export function followBudgets(
  monitor: Monitor,
  options: {
    budgets: readonly Budget[]
    projectIds: readonly string[]
    clock: Clock
    tz: TzOffset
    onEvent: (event: MonitorEvent) => void
  }
): () => void {
  const book = new SpendBook()
  const memory = emptyBudgetMemory()
  const tracker = createBudgetTracker({ read: () => memory, write: async () => {}, onError: () => {} })
  const offTasks = monitor.on('tasks', ({ projectId, tasks }) =>
    book.takeTasks(projectId, tasks, options.clock.now(), monitor.usagesByTask())
  )
  const offCycle = monitor.on('cycle', () => {
    const { events } = tracker.check({
      connectionId: monitor.connectionId,
      budgets: options.budgets,
      projectIds: options.projectIds,
      book,
      usagesByTask: monitor.usagesByTask(),
      now: options.clock.now(),
      tz: options.tz
    })
    for (const e of events) options.onEvent(e)
  })
  return () => {
    offTasks()
    offCycle()
  }
}
