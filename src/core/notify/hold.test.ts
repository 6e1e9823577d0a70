import { describe, expect, it } from 'vitest'
import type { MonitorEvent } from '../../shared/monitor'
import { type HeldEvent, Hold, MAX_HELD } from './hold'

type BudgetEvent = Extract<HeldEvent, { kind: 'budget' }>
type UnusualEvent = Extract<HeldEvent, { kind: 'task-cost-unusual' }>

const budget = (
  projectId: string,
  budgetUsd: number,
  spentUsd: number,
  connectionId = 'c',
  periodKey = 'total'
): BudgetEvent => ({
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
const costly = (taskId: string, costUsd: number): UnusualEvent => ({
  kind: 'task-cost-unusual',
  connectionId: 'c',
  projectId: 'p1',
  at: '2025-03-10T22:00:00.000Z',
  taskId,
  taskName: `Task ${taskId}`,
  costUsd,
  usualUsd: 1
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

const asHeld = (e: HeldEvent) => e

describe('Hold', () => {
  it('keeps only budget crossings and costly tasks, the latest per budget and period or per task, and releases them once', () => {
    const hold = new Hold()
    hold.hold([status, budget('p1', 10, 10.5), costly('a', 4)])
    hold.hold([budget('p1', 10, 11), costly('a', 5)])
    expect(hold.size).toBe(2)
    expect(hold.release(asHeld)).toEqual([budget('p1', 10, 11), costly('a', 5)])
    expect(hold.size).toBe(0)
    expect(hold.release(asHeld)).toEqual([])
  })

  it('tells what the verdict gives, drops what it drops, and keeps what must wait', () => {
    const saves: HeldEvent[][] = []
    const hold = new Hold([], (events) => saves.push(events))
    hold.hold([budget('gone', 1, 2), costly('ended', 4), costly('unseen', 4), costly('dearer', 4)])
    const verdict = (e: HeldEvent) =>
      e.kind === 'budget' || e.kind === 'unit-budget' || e.taskId === 'ended'
        ? null
        : e.taskId === 'unseen'
          ? ('wait' as const)
          : { ...e, costUsd: 9 }
    expect(hold.release(verdict)).toEqual([costly('dearer', 9)])
    expect(saves.at(-1)).toEqual([costly('unseen', 4)])
    expect(hold.release(asHeld)).toEqual([costly('unseen', 4)])
    expect(saves.at(-1)).toEqual([])
  })

  it('starts from what was saved and saves every change, so a restart loses nothing', () => {
    const saves: HeldEvent[][] = []
    const yesterday = budget('p1', 10, 12, 'c', '2025-03-09')
    const hold = new Hold([yesterday, costly('a', 4)], (events) => saves.push(events))
    const today = budget('p1', 10, 11, 'c', '2025-03-10')
    hold.hold([today])
    // Two periods of one budget are two crossings, both kept.
    expect(saves).toEqual([[yesterday, costly('a', 4), today]])
    expect(hold.release(asHeld)).toEqual([yesterday, costly('a', 4), today])
    expect(saves.at(-1)).toEqual([])
  })

  it('saves only when what it holds changed', () => {
    const saves: HeldEvent[][] = []
    const hold = new Hold([], (events) => saves.push(events))
    hold.hold([status])
    expect(hold.release(asHeld)).toEqual([])
    expect(saves).toEqual([])
    hold.hold([costly('a', 4)])
    expect(saves).toHaveLength(1)
    hold.release(() => 'wait')
    expect(saves).toHaveLength(1)
  })

  it('keeps at most MAX_HELD, the oldest dropped first', () => {
    const hold = new Hold()
    hold.hold(Array.from({ length: MAX_HELD + 3 }, (_, i) => costly(`t${i}`, 4)))
    expect(hold.size).toBe(MAX_HELD)
    const released = hold.release(asHeld)
    expect(released[0]).toEqual(costly('t3', 4))
    expect(released.at(-1)).toEqual(costly(`t${MAX_HELD + 2}`, 4))
  })
})
