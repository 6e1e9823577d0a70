import { describe, expect, it } from 'vitest'
import type { MonitorEvent } from '../../shared/monitor'
import { BudgetHold, type BudgetEvent } from './budget-hold'

const budget = (projectId: string, budgetUsd: number, spentUsd: number, connectionId = 'c', periodKey = 'total'): BudgetEvent => ({
  kind: 'budget',
  level: 'over',
  connectionId,
  projectId,
  at: '2025-03-10T22:00:00.000Z',
  budgetId: `b-${projectId}`,
  period: periodKey === 'total' ? 'total' : 'day',
  periodKey,
  budgetUsd,
  spentUsd
})
const status: MonitorEvent = {
  kind: 'task-status',
  connectionId: 'c',
  projectId: 'p1',
  at: '2025-03-10T22:00:00.000Z',
  taskId: 't',
  taskName: 'T',
  from: 'in_progress',
  to: 'completed'
} as MonitorEvent

describe('BudgetHold', () => {
  it('keeps only budget crossings, the latest per budget and period, and releases them once', () => {
    const hold = new BudgetHold()
    hold.hold([status, budget('p1', 10, 10.5)])
    hold.hold([budget('p1', 10, 11)])
    expect(hold.size).toBe(1)
    const watched = () => ({ limitUsd: 10, muted: false })
    expect(hold.release(watched)).toEqual([budget('p1', 10, 11)])
    expect(hold.size).toBe(0)
    expect(hold.release(watched)).toEqual([])
  })

  it('drops what no longer holds: unwatched, muted since, or a different budget now', () => {
    const hold = new BudgetHold()
    hold.hold([budget('gone', 1, 2), budget('muted', 1, 2), budget('raised', 1, 2), budget('kept', 1, 2), budget('kept', 1, 2, 'other')])
    const now = (e: BudgetEvent) =>
      e.connectionId !== 'c'
        ? undefined
        : ({ gone: undefined, muted: { limitUsd: 1, muted: true }, raised: { limitUsd: 5, muted: false }, kept: { limitUsd: 1, muted: false } } as const)[
            e.projectId as 'gone'
          ]
    expect(hold.release(now)).toEqual([budget('kept', 1, 2)])
  })

  it('starts from what was saved and saves every change, so a restart loses nothing', () => {
    const saves: BudgetEvent[][] = []
    const yesterday = budget('p1', 10, 12, 'c', '2025-03-09')
    const hold = new BudgetHold([yesterday], (events) => saves.push(events))
    const today = budget('p1', 10, 11, 'c', '2025-03-10')
    hold.hold([today])
    // Two periods of one budget are two crossings, both kept.
    expect(saves).toEqual([[yesterday, today]])
    expect(hold.release(() => ({ limitUsd: 10, muted: false }))).toEqual([yesterday, today])
    expect(saves.at(-1)).toEqual([])
  })
})
