// The budgets at work on task lists, with an injected clock and time zone: spend per period from
// usage records where known (else the estimate), the pace and projection beside each budget, and
// "costing more than usual" told once per task, remembered like the crossings.
import { describe, expect, it } from 'vitest'
import type { Budget } from '../../shared/budgets'
import type { Task, UsageRecord } from '../../shared/service'
import { testTask } from '../../shared/test-task'
import { type BudgetMemory, emptyBudgetMemory } from '../settings/state-document'
import { SpendBook } from './spend-book'
import { type ConnectionBudgetInput, createBudgetTracker, MAX_UNUSUAL_TOLD } from './tracker'

const at = (iso: string): number => Date.parse(iso)

function task(id: string, over: Partial<Task> = {}): Task {
  return testTask(id, { created_at: '2026-11-20T10:00:00Z', updated_at: '2026-11-20T11:00:00Z', ...over })
}

const usage = (taskId: string, createdAt: string, price: number): UsageRecord =>
  ({
    id: `${taskId}-${createdAt}`,
    task_id: taskId,
    created_at: createdAt,
    updated_at: createdAt,
    final_price: price,
    provider: 'p',
    model: 'm'
  }) as unknown as UsageRecord

function rig(budgets: Budget[], memory: BudgetMemory = emptyBudgetMemory()) {
  const writes: Partial<BudgetMemory>[] = []
  const tracker = createBudgetTracker({
    read: () => structuredClone(memory),
    write: async (p) => void writes.push(structuredClone(p)),
    onError: () => undefined
  })
  const book = new SpendBook()
  const input = (now: number, over: Partial<ConnectionBudgetInput> = {}): ConnectionBudgetInput => ({
    connectionId: 'c1',
    budgets,
    projectIds: ['p1', 'p2'],
    book,
    now,
    tz: 60,
    ...over
  })
  return { tracker, book, input, writes }
}

describe('budgets over task lists', () => {
  it("a day's spend is what the usage records say was spent that local day; the rest goes on the task's last change, estimated", () => {
    const budgets: Budget[] = [{ id: 'd', projectId: 'p1', period: 'day', limitUsd: 10, warnRatio: 0.8 }]
    const { tracker, book, input } = rig(budgets)
    // Created yesterday (local), most of it spent yesterday; 3 of its 5 today.
    const t = task('a', {
      status: 'in_progress',
      created_at: '2026-11-22T20:00:00Z',
      updated_at: '2026-11-23T09:00:00Z',
      total_price: 6
    })
    const usages = { a: [usage('a', '2026-11-22T21:00:00Z', 2), usage('a', '2026-11-23T08:00:00Z', 3)] }
    const now = at('2026-11-23T09:30:00Z')
    book.takeTasks('p1', [t], now, usages)
    book.takeTasks('p2', [], now)
    const [status] = tracker.statuses(input(now, { usagesByTask: usages }))
    // 3 by the records today, and the 1 the records do not account for, put on today as an estimate.
    expect(status).toMatchObject({ periodKey: '2026-11-23', spentUsd: 4, estimatedUsd: 1, state: 'ok' })
    // Without records, the whole 6 counts on the day the task last changed, all estimated.
    expect(tracker.statuses(input(now))[0]).toMatchObject({ spentUsd: 6, estimatedUsd: 6 })
  })

  it('gives each budget its pace and where the period ends at it (UTC+1)', () => {
    const budgets: Budget[] = [
      { id: 'd', projectId: null, period: 'day', limitUsd: 100, warnRatio: 0.8 },
      { id: 't', projectId: 'p1', period: 'total', limitUsd: 100, warnRatio: 0.8 }
    ]
    const { tracker, book, input } = rig(budgets)
    const running = (price: number) =>
      task('r', {
        status: 'in_progress',
        created_at: '2026-11-23T18:00:00Z',
        updated_at: '2026-11-23T21:00:00Z',
        total_price: price
      })
    // Seen at 2 at 21:45 UTC, at 3 at 22:00 UTC (23:00 local): 1 in 15 minutes is 4 per hour.
    book.takeTasks('p1', [running(2)], at('2026-11-23T21:45:00Z'))
    book.takeTasks('p1', [running(3)], at('2026-11-23T22:00:00Z'))
    book.takeTasks('p2', [], at('2026-11-23T22:00:00Z'))
    const [day, total] = tracker.statuses(input(at('2026-11-23T22:00:00Z')))
    // An hour left of the local day: 3 + 4.
    expect(day).toMatchObject({ burnUsdPerHour: 4, spentUsd: 3, projectedUsd: 7 })
    expect(total).toMatchObject({ burnUsdPerHour: 4, spentUsd: 3, projectedUsd: null })
  })

  it("flags a running task past 3 × the median of its project's completed tasks, told once, remembered across a restart", async () => {
    const { tracker, book, input, writes } = rig([])
    const now = at('2026-11-23T12:00:00Z')
    const done = [task('a', { total_price: 1 }), task('b', { total_price: 2 }), task('c', { total_price: 10 })]
    book.takeTasks('p1', [...done, task('r', { status: 'in_progress', total_price: 5 })], now)
    book.takeTasks('p2', [task('x', { total_price: 1 }), task('y', { status: 'in_progress', total_price: 100 })], now)
    expect(tracker.check(input(now)).events).toEqual([])

    book.takeTasks('p1', [...done, task('r', { status: 'in_progress', total_price: 6.5 })], now)
    const flagged = tracker.check(input(now)).events
    // Median 2: 6.5 is more than 6. The other project has one completed task only: no "usual" yet.
    expect(flagged).toEqual([
      {
        kind: 'task-cost-unusual',
        connectionId: 'c1',
        projectId: 'p1',
        at: new Date(now).toISOString(),
        taskId: 'r',
        taskName: 'Task r',
        costUsd: 6.5,
        usualUsd: 2
      }
    ])
    expect(tracker.unusualTasks(input(now)).get('r')).toEqual({ costUsd: 6.5, usualUsd: 2, projectId: 'p1' })
    expect(tracker.check(input(now)).events).toEqual([])
    await tracker.settled()
    expect(writes.at(-1)?.unusualTold).toEqual({ c1: ['r'] })

    const again = rig([], { ...emptyBudgetMemory(), unusualTold: writes.at(-1)!.unusualTold! })
    again.book.takeTasks('p1', [...done, task('r', { status: 'in_progress', total_price: 8 })], now)
    again.book.takeTasks('p2', [], now)
    expect(again.tracker.check(again.input(now)).events).toEqual([])
  })

  it('after a start, what was told stands until every project in scope was seen again', () => {
    const budgets: Budget[] = [{ id: 'm', projectId: null, period: 'month', limitUsd: 10, warnRatio: 0.8 }]
    const now = at('2026-11-23T12:00:00Z')
    const told = { c1: { m: { periodKey: '2026-11', level: 'over' as const, limitUsd: 10, warnRatio: 0.8 } } }
    const { tracker, book, input } = rig(budgets, { ...emptyBudgetMemory(), told })
    // Only p1 seen yet, spending low: no news, and the limit stays told.
    book.takeTasks('p1', [task('a', { updated_at: '2026-11-23T10:00:00Z', total_price: 1 })], now)
    expect(tracker.check(input(now)).events).toEqual([])
    book.takeTasks('p2', [task('b', { updated_at: '2026-11-23T10:00:00Z', total_price: 12 })], now)
    expect(tracker.check(input(now)).events).toEqual([])
  })

  it("tells a budget's warning, then its limit, once each with what was spent, and remembers what it told", async () => {
    const budgets: Budget[] = [{ id: 'd', projectId: 'p1', period: 'day', limitUsd: 10, warnRatio: 0.8 }]
    const { tracker, book, input, writes } = rig(budgets)
    const now = at('2026-11-23T12:00:00Z')
    const spend = (price: number): void => {
      book.takeTasks('p1', [task('a', { updated_at: '2026-11-23T10:00:00Z', total_price: price })], now)
      book.takeTasks('p2', [], now)
    }
    spend(5)
    expect(tracker.check(input(now)).events).toEqual([])
    expect(writes).toEqual([])
    spend(8)
    const warned = tracker.check(input(now)).events
    expect(warned).toEqual([
      {
        kind: 'budget',
        connectionId: 'c1',
        projectId: 'p1',
        at: new Date(now).toISOString(),
        budgetId: 'd',
        period: 'day',
        periodKey: '2026-11-23',
        level: 'near',
        spentUsd: 8,
        budgetUsd: 10
      }
    ])
    expect(tracker.check(input(now)).events).toEqual([])
    spend(11)
    expect(tracker.check(input(now)).events.map((e) => e.kind === 'budget' && e.level)).toEqual(['over'])
    await tracker.settled()
    expect(writes.at(-1)?.told).toEqual({
      c1: { d: { periodKey: '2026-11-23', level: 'over', limitUsd: 10, warnRatio: 0.8 } }
    })
  })

  it('forgets what it told of a budget that was removed', async () => {
    const told = { c1: { gone: { periodKey: '2026-11-23', level: 'near' as const, limitUsd: 10, warnRatio: 0.8 } } }
    const { tracker, book, input, writes } = rig([], { ...emptyBudgetMemory(), told })
    const now = at('2026-11-23T12:00:00Z')
    book.takeTasks('p1', [], now)
    book.takeTasks('p2', [], now)
    tracker.check(input(now))
    await tracker.settled()
    expect(writes.at(-1)?.told).toEqual({ c1: {} })
  })

  it("after a start, a project budget's told warning stands until that project is seen, and goes once it is seen below it", async () => {
    const budgets: Budget[] = [{ id: 'p', projectId: 'p2', period: 'month', limitUsd: 10, warnRatio: 0.8 }]
    const now = at('2026-11-23T12:00:00Z')
    const told = { c1: { p: { periodKey: '2026-11', level: 'near' as const, limitUsd: 10, warnRatio: 0.8 } } }
    const { tracker, book, input, writes } = rig(budgets, { ...emptyBudgetMemory(), told })
    // p1 seen, p2 (the budget's project) not yet: the warning stays told.
    book.takeTasks('p1', [task('a', { updated_at: '2026-11-23T10:00:00Z', total_price: 20 })], now)
    expect(tracker.check(input(now)).events).toEqual([])
    await tracker.settled()
    expect(writes).toEqual([])
    // p2 seen below the warning: nothing is told any more, so a new crossing is told again.
    book.takeTasks('p2', [task('b', { project_id: 'p2', updated_at: '2026-11-23T10:00:00Z', total_price: 1 })], now)
    expect(tracker.check(input(now)).events).toEqual([])
    await tracker.settled()
    expect(writes.at(-1)?.told).toEqual({ c1: {} })
    book.takeTasks('p2', [task('b', { project_id: 'p2', updated_at: '2026-11-23T10:00:00Z', total_price: 9 })], now)
    expect(tracker.check(input(now)).events.map((e) => e.kind === 'budget' && e.level)).toEqual(['near'])
  })

  it('after a start, a told limit stands while a project is unseen even where the spend seen so far reads a warning', () => {
    const budgets: Budget[] = [{ id: 'm', projectId: null, period: 'month', limitUsd: 10, warnRatio: 0.8 }]
    const now = at('2026-11-23T12:00:00Z')
    const told = { c1: { m: { periodKey: '2026-11', level: 'over' as const, limitUsd: 10, warnRatio: 0.8 } } }
    const { tracker, book, input } = rig(budgets, { ...emptyBudgetMemory(), told })
    book.takeTasks('p1', [task('a', { updated_at: '2026-11-23T10:00:00Z', total_price: 9 })], now)
    expect(tracker.check(input(now)).events).toEqual([])
    // p2 seen: 12 in all, still over; the limit is not told a second time.
    book.takeTasks('p2', [task('b', { updated_at: '2026-11-23T10:00:00Z', total_price: 3 })], now)
    expect(tracker.check(input(now)).events).toEqual([])
  })

  it('after a start, a warning read from the projects seen so far is told once, whatever was told the day before', () => {
    const budgets: Budget[] = [{ id: 'd', projectId: null, period: 'day', limitUsd: 10, warnRatio: 0.8 }]
    const now = at('2026-11-23T12:00:00Z')
    const told = { c1: { d: { periodKey: '2026-11-22', level: 'over' as const, limitUsd: 10, warnRatio: 0.8 } } }
    const { tracker, book, input } = rig(budgets, { ...emptyBudgetMemory(), told })
    // Only p1 seen yet: $8.50 today is past the warning, whatever p2 spent.
    book.takeTasks('p1', [task('a', { updated_at: '2026-11-23T10:00:00Z', total_price: 8.5 })], now)
    expect(tracker.check(input(now)).events.map((e) => e.kind === 'budget' && `${e.periodKey} ${e.level}`)).toEqual([
      '2026-11-23 near'
    ])
    expect(tracker.check(input(now)).events).toEqual([])
  })

  it('after a start, a limit read from the projects seen so far is told once, though only the warning was told', () => {
    const budgets: Budget[] = [{ id: 'd', projectId: null, period: 'day', limitUsd: 10, warnRatio: 0.8 }]
    const now = at('2026-11-23T12:00:00Z')
    const told = { c1: { d: { periodKey: '2026-11-23', level: 'near' as const, limitUsd: 10, warnRatio: 0.8 } } }
    const { tracker, book, input } = rig(budgets, { ...emptyBudgetMemory(), told })
    book.takeTasks('p1', [task('a', { updated_at: '2026-11-23T10:00:00Z', total_price: 11 })], now)
    expect(tracker.check(input(now)).events.map((e) => e.kind === 'budget' && e.level)).toEqual(['over'])
    expect(tracker.check(input(now)).events).toEqual([])
  })

  it("once every watched project is seen, an account budget's told warning goes when spending is below it, and is told again when crossed again", () => {
    const budgets: Budget[] = [{ id: 'm', projectId: null, period: 'month', limitUsd: 10, warnRatio: 0.8 }]
    const now = at('2026-11-23T12:00:00Z')
    const told = { c1: { m: { periodKey: '2026-11', level: 'near' as const, limitUsd: 10, warnRatio: 0.8 } } }
    const { tracker, book, input } = rig(budgets, { ...emptyBudgetMemory(), told })
    const spend = (p1: number, p2: number): void => {
      book.takeTasks('p1', [task('a', { updated_at: '2026-11-23T10:00:00Z', total_price: p1 })], now)
      book.takeTasks('p2', [task('b', { updated_at: '2026-11-23T10:00:00Z', total_price: p2 })], now)
    }
    // The warning was told for spending that was then lowered (a task's price corrected).
    spend(1, 2)
    expect(tracker.check(input(now)).events).toEqual([])
    spend(4, 4.5)
    expect(tracker.check(input(now)).events.map((e) => e.kind === 'budget' && e.level)).toEqual(['near'])
  })

  it("a project budget's told warning goes once its own project is seen below it, another project still unseen", () => {
    const budgets: Budget[] = [{ id: 'p', projectId: 'p1', period: 'month', limitUsd: 10, warnRatio: 0.8 }]
    const now = at('2026-11-23T12:00:00Z')
    const told = { c1: { p: { periodKey: '2026-11', level: 'near' as const, limitUsd: 10, warnRatio: 0.8 } } }
    const { tracker, book, input } = rig(budgets, { ...emptyBudgetMemory(), told })
    book.takeTasks('p1', [task('a', { updated_at: '2026-11-23T10:00:00Z', total_price: 1 })], now)
    expect(tracker.check(input(now)).events).toEqual([])
    book.takeTasks('p1', [task('a', { updated_at: '2026-11-23T10:00:00Z', total_price: 9 })], now)
    expect(tracker.check(input(now)).events.map((e) => e.kind === 'budget' && e.level)).toEqual(['near'])
  })

  it('remembers the latest tasks told as costing more than usual, up to its bound', async () => {
    const old = Array.from({ length: MAX_UNUSUAL_TOLD }, (_, i) => `old${i}`)
    const { tracker, book, input, writes } = rig([], { ...emptyBudgetMemory(), unusualTold: { c1: old } })
    const now = at('2026-11-23T12:00:00Z')
    const done = [task('a', { total_price: 1 }), task('b', { total_price: 1 }), task('c', { total_price: 1 })]
    book.takeTasks('p1', [...done, task('r', { status: 'in_progress', total_price: 5 })], now)
    book.takeTasks('p2', [], now)
    expect(tracker.check(input(now)).events.map((e) => e.kind === 'task-cost-unusual' && e.taskId)).toEqual(['r'])
    await tracker.settled()
    expect(writes.at(-1)?.unusualTold?.c1).toEqual([...old.slice(1), 'r'])
  })

  it('is settled only once what it told is saved', async () => {
    let letSave!: () => void
    const disk = new Promise<void>((resolve) => (letSave = resolve))
    const saved: Partial<BudgetMemory>[] = []
    const tracker = createBudgetTracker({
      read: emptyBudgetMemory,
      write: async (p) => {
        await disk
        saved.push(p)
      },
      onError: () => undefined
    })
    const book = new SpendBook()
    const now = at('2026-11-23T12:00:00Z')
    book.takeTasks('p1', [task('a', { updated_at: '2026-11-23T10:00:00Z', total_price: 9 })], now)
    const budgets: Budget[] = [{ id: 'd', projectId: 'p1', period: 'day', limitUsd: 10, warnRatio: 0.8 }]
    tracker.check({ connectionId: 'c1', budgets, projectIds: ['p1'], book, now, tz: 60 })
    const settled = tracker.settled().then(() => saved.length)
    letSave()
    // Settled after the save it waited for, not before.
    expect(await settled).toBe(1)
  })

  it('flags a running task without a price by what its usage records add up to', () => {
    const { tracker, book, input } = rig([])
    const now = at('2026-11-23T12:00:00Z')
    const done = [task('a', { total_price: 1 }), task('b', { total_price: 2 }), task('c', { total_price: 3 })]
    const usagesByTask = { r: [usage('r', '2026-11-23T11:00:00Z', 4), usage('r', '2026-11-23T11:30:00Z', 3)] }
    book.takeTasks('p1', [...done, task('r', { status: 'in_progress', total_price: null })], now, usagesByTask)
    book.takeTasks('p2', [], now)
    expect(tracker.unusualTasks(input(now, { usagesByTask })).get('r')).toEqual({
      costUsd: 7,
      usualUsd: 2,
      projectId: 'p1'
    })
  })

  it('takes no usual from completed tasks whose cost is not known, so flags nothing against them', () => {
    const { tracker, book, input } = rig([])
    const now = at('2026-11-23T12:00:00Z')
    // Three completed tasks without a price or known records, and one priced: no usual yet.
    const unpriced = [
      task('a', { total_price: null }),
      task('b', { total_price: null }),
      task('c', { total_price: null }),
      task('d', { total_price: 2 })
    ]
    book.takeTasks('p1', [...unpriced, task('r', { status: 'in_progress', total_price: 0.01 })], now)
    book.takeTasks('p2', [], now)
    expect(tracker.check(input(now)).events).toEqual([])
    // Once their records are known they count: the usual is their median, and the running task is measured by it.
    const usagesByTask = {
      a: [usage('a', '2026-11-20T10:30:00Z', 1)],
      b: [usage('b', '2026-11-20T10:30:00Z', 3)],
      c: []
    }
    book.takeTasks('p1', [...unpriced, task('r', { status: 'in_progress', total_price: 7 })], now, usagesByTask)
    expect(tracker.unusualTasks(input(now, { usagesByTask })).get('r')).toEqual({
      costUsd: 7,
      usualUsd: 1.5,
      projectId: 'p1'
    })
  })

  it('reports a failure to save what it told, and does not throw it', async () => {
    const errors: string[] = []
    const tracker = createBudgetTracker({
      read: emptyBudgetMemory,
      write: () => Promise.reject(new Error('disk full')),
      onError: (context) => void errors.push(context)
    })
    const book = new SpendBook()
    const now = at('2026-11-23T12:00:00Z')
    book.takeTasks('p1', [task('a', { updated_at: '2026-11-23T10:00:00Z', total_price: 9 })], now)
    const budgets: Budget[] = [{ id: 'd', projectId: 'p1', period: 'day', limitUsd: 10, warnRatio: 0.8 }]
    expect(tracker.check({ connectionId: 'c1', budgets, projectIds: ['p1'], book, now, tz: 60 }).events).toHaveLength(1)
    await tracker.settled()
    expect(errors).toEqual(['saving what budgets told'])
  })
})
