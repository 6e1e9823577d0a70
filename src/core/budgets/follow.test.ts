// Budgets beside a bare monitor (follow.ts, the command's `watch`): a real Monitor over an
// in-memory task list; each round's crossings come out as events, each once, until unfollowed.
import { describe, expect, it } from 'vitest'
import type { Budget } from '../../shared/budgets'
import type { MonitorEvent } from '../../shared/monitor'
import type { Task } from '../../shared/service'
import { testTask } from '../../shared/test-task'
import { Monitor, type TaskSource } from '../monitor/monitor'
import { ManualClock } from '../util/clock'
import { followBudgets } from './follow'

const NOW = Date.parse('2026-11-27T12:00:00Z')

function task(price: number): Task {
  return testTask('t1', { total_price: price })
}

describe('budgets beside a bare monitor', () => {
  it("tells each of the day's crossings once, after the round that saw it, until unfollowed", async () => {
    const clock = new ManualClock(NOW)
    let price = 5
    const source: TaskSource = {
      listTasks: async () => [task(price)],
      getStepsAndUsages: async () => ({ steps: [], usages: [] })
    }
    const monitor = new Monitor({ connectionId: 'c1', source, clock, projects: ['p1'], random: () => 0.5 })
    const budgets: Budget[] = [{ id: 'd', projectId: 'p1', period: 'day', limitUsd: 10, warnRatio: 0.8 }]
    const told: MonitorEvent[] = []
    const unfollow = followBudgets(monitor, { budgets, projectIds: ['p1'], clock, tz: 0, onEvent: (e) => told.push(e) })

    await monitor.pollNow()
    expect(told).toEqual([])
    price = 8.5
    await monitor.pollNow()
    expect(told).toEqual([
      {
        kind: 'budget',
        connectionId: 'c1',
        projectId: 'p1',
        at: new Date(NOW).toISOString(),
        budgetId: 'd',
        period: 'day',
        periodKey: '2026-11-27',
        level: 'near',
        spentUsd: 8.5,
        budgetUsd: 10
      }
    ])
    await monitor.pollNow()
    expect(told).toHaveLength(1)

    unfollow()
    price = 12
    await monitor.pollNow()
    expect(told).toHaveLength(1)
    monitor.dispose()
  })
})
