import { describe, expect, it } from 'vitest'
import type { MonitorEvent } from '../../shared/monitor'
import { BudgetHold, type BudgetEvent } from './budget-hold'

const budget = (projectId: string, budgetUsd: number, spentUsd: number, connectionId = 'c'): BudgetEvent => ({
  kind: 'budget',
  level: 'over',
  connectionId,
  projectId,
  at: '2025-03-10T22:00:00.000Z',
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
  it('keeps only budget crossings, the latest per project, and releases them once', () => {
    const hold = new BudgetHold()
    hold.hold([status, budget('p1', 10, 10.5)])
    hold.hold([budget('p1', 10, 11)])
    expect(hold.size).toBe(1)
    const watched = () => ({ budgetUsd: 10, muted: false })
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
        : ({ gone: undefined, muted: { budgetUsd: 1, muted: true }, raised: { budgetUsd: 5, muted: false }, kept: { budgetUsd: 1, muted: false } } as const)[
            e.projectId as 'gone'
          ]
    expect(hold.release(now)).toEqual([budget('kept', 1, 2)])
  })
})
