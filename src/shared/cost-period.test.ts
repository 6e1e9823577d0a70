import { describe, expect, it } from 'vitest'
import { costByPeriod, costInPeriod, periodKey, taskCostByPeriod, unaccountedUsd } from './cost-period'
import type { UsageRecord } from './service'

function usage(final_price: number, created_at: string): UsageRecord {
  return {
    id: `u-${created_at}-${final_price}`,
    task_id: 't',
    usage_type: 'llm_call',
    provider: 'openai',
    model: 'gpt-4.1',
    remark: '',
    request_data: {},
    response_data: {},
    usage_metadata: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    price: { input: 0, output: 0, currency: 'USD' } as unknown as UsageRecord['price'],
    final_price,
    created_at,
    updated_at: created_at
  }
}

const PARIS_WINTER = 60 // UTC+1
const NEW_YORK_WINTER = -300 // UTC-5

describe('periodKey', () => {
  it('gives the local day and month in the injected time zone', () => {
    expect(periodKey('2026-01-31T23:30:00.000Z', PARIS_WINTER, 'day')).toBe('2026-02-01')
    expect(periodKey('2026-01-31T23:30:00.000Z', PARIS_WINTER, 'month')).toBe('2026-02')
    expect(periodKey('2026-02-01T03:00:00.000Z', NEW_YORK_WINTER, 'month')).toBe('2026-01')
    expect(periodKey('not a time', 0, 'day')).toBeNull()
    expect(periodKey('not a time', 0, 'month')).toBeNull()
  })
})

describe('taskCostByPeriod', () => {
  it('spreads a task that runs across midnight over both days by its records, not all on its creation day', () => {
    const task = { id: 't', total_price: 0.75, updated_at: '2026-03-11T00:40:00.000Z' }
    const usages = [usage(0.25, '2026-03-10T22:50:00.000Z'), usage(0.5, '2026-03-10T23:20:00.000Z')]
    // In Paris the second call is already 11 March; in UTC both are on the 10th.
    expect(taskCostByPeriod(task, usages, PARIS_WINTER, 'day')).toEqual([
      { key: '2026-03-10', costUsd: 0.25, estimatedUsd: 0 },
      { key: '2026-03-11', costUsd: 0.5, estimatedUsd: 0 }
    ])
    expect(taskCostByPeriod(task, usages, 0, 'day')).toEqual([{ key: '2026-03-10', costUsd: 0.75, estimatedUsd: 0 }])
  })

  it('spreads a task across a month boundary in the user’s zone', () => {
    const task = { id: 't', total_price: 3, updated_at: '2026-05-01T06:00:00.000Z' }
    const usages = [usage(1, '2026-04-30T20:00:00.000Z'), usage(2, '2026-05-01T04:30:00.000Z')]
    expect(taskCostByPeriod(task, usages, NEW_YORK_WINTER, 'month')).toEqual([
      { key: '2026-04', costUsd: 3, estimatedUsd: 0 }
    ])
    expect(taskCostByPeriod(task, usages, PARIS_WINTER, 'month')).toEqual([
      { key: '2026-04', costUsd: 1, estimatedUsd: 0 },
      { key: '2026-05', costUsd: 2, estimatedUsd: 0 }
    ])
  })

  it('without records, puts total_price on the day the task last changed, marked as an estimate', () => {
    const task = { id: 't', total_price: 1.2, updated_at: '2026-03-11T10:00:00.000Z' }
    expect(taskCostByPeriod(task, undefined, 0, 'day')).toEqual([
      { key: '2026-03-11', costUsd: 1.2, estimatedUsd: 1.2 }
    ])
  })

  it('keeps total_price the authority: what the records miss is an estimate on the last-changed day; rounding is not', () => {
    const task = { id: 't', total_price: 1, updated_at: '2026-03-11T10:00:00.000Z' }
    expect(taskCostByPeriod(task, [usage(0.4, '2026-03-10T10:00:00.000Z')], 0, 'day')).toEqual([
      { key: '2026-03-10', costUsd: 0.4, estimatedUsd: 0 },
      { key: '2026-03-11', costUsd: 0.6, estimatedUsd: 0.6 }
    ])
    expect(taskCostByPeriod(task, [usage(0.9999995, '2026-03-10T10:00:00.000Z')], 0, 'day')).toEqual([
      { key: '2026-03-10', costUsd: 0.9999995, estimatedUsd: 0 }
    ])
  })

  it('uses the records alone when the task has no total_price, and nothing when it has neither', () => {
    const task = { id: 't', total_price: null, updated_at: '2026-03-11T10:00:00.000Z' }
    expect(taskCostByPeriod(task, [usage(0.3, '2026-03-10T10:00:00.000Z')], 0, 'day')).toEqual([
      { key: '2026-03-10', costUsd: 0.3, estimatedUsd: 0 }
    ])
    expect(taskCostByPeriod(task, undefined, 0, 'day')).toEqual([])
  })

  it('counts a record with an unreadable time on the task’s last-changed day', () => {
    const task = { id: 't', total_price: 0.5, updated_at: '2026-03-11T10:00:00.000Z' }
    expect(taskCostByPeriod(task, [usage(0.5, 'garbage')], 0, 'day')).toEqual([
      { key: '2026-03-11', costUsd: 0.5, estimatedUsd: 0 }
    ])
  })
})

describe('taskCostByPeriod at its edges', () => {
  it('leaves out a price that is not a finite number, so one bad figure cannot spoil a period', () => {
    const task = { id: 't', total_price: 1, updated_at: '2026-03-11T10:00:00.000Z' }
    const bad = [Number.NaN, Number.POSITIVE_INFINITY, '0.5' as unknown as number].map((p) =>
      usage(p, '2026-03-10T10:00:00.000Z')
    )
    expect(taskCostByPeriod(task, [...bad, usage(0.25, '2026-03-10T10:00:00.000Z')], 0, 'day')).toEqual([
      { key: '2026-03-10', costUsd: 0.25, estimatedUsd: 0 },
      { key: '2026-03-11', costUsd: 0.75, estimatedUsd: 0.75 }
    ])
    expect(unaccountedUsd({ total_price: 1 }, bad)).toBe(1)
  })

  it('takes a gap of exactly a millionth per record as rounding, and more as an estimate', () => {
    expect(unaccountedUsd({ total_price: 0.000002 }, [usage(0.000001, '2026-03-10T10:00:00.000Z')])).toBe(0)
    expect(unaccountedUsd({ total_price: 0.000003 }, [usage(0.000001, '2026-03-10T10:00:00.000Z')])).toBe(0.000002)
    expect(unaccountedUsd({ total_price: 0.000001 }, undefined)).toBe(0.000001)
    expect(unaccountedUsd({ total_price: null }, undefined)).toBe(0)
  })

  it('puts nothing on the last-changed day of a task its records account for, and nothing anywhere when no time can be read', () => {
    const task = { id: 't', total_price: 0.5, updated_at: '2026-03-12T10:00:00.000Z' }
    expect(taskCostByPeriod(task, [usage(0.5, '2026-03-10T10:00:00.000Z')], 0, 'day')).toEqual([
      { key: '2026-03-10', costUsd: 0.5, estimatedUsd: 0 }
    ])
    const timeless = { id: 't', total_price: 0.5, updated_at: 'garbage' }
    expect(taskCostByPeriod(timeless, undefined, 0, 'day')).toEqual([])
    expect(taskCostByPeriod(timeless, [usage(0.2, 'garbage')], 0, 'day')).toEqual([])
  })
})

describe('costByPeriod and costInPeriod', () => {
  const tasks = [
    { id: 'a', total_price: 0.75, updated_at: '2026-03-11T00:40:00.000Z' },
    { id: 'b', total_price: 2, updated_at: '2026-03-11T09:00:00.000Z' }
  ]
  const usages = { a: [usage(0.25, '2026-03-10T22:50:00.000Z'), usage(0.5, '2026-03-10T23:20:00.000Z')] }

  it('sums per period with the estimated part and the number of tasks that cost something in it', () => {
    expect(costByPeriod(tasks, usages, PARIS_WINTER, 'day')).toEqual([
      { key: '2026-03-10', costUsd: 0.25, estimatedUsd: 0, taskCount: 1 },
      { key: '2026-03-11', costUsd: 2.5, estimatedUsd: 2, taskCount: 2 }
    ])
    // The periods add up to the tasks' total_price.
    expect(costByPeriod(tasks, usages, PARIS_WINTER, 'month')).toEqual([
      { key: '2026-03', costUsd: 2.75, estimatedUsd: 2, taskCount: 2 }
    ])
  })

  it('lists periods oldest first whatever the order of the tasks, and takes no records known', () => {
    const newestFirst = [
      { id: 'c', total_price: 1, updated_at: '2026-03-12T09:00:00.000Z' },
      { id: 'd', total_price: 2, updated_at: '2026-03-02T09:00:00.000Z' },
      { id: 'e', total_price: 4, updated_at: '2026-03-07T09:00:00.000Z' }
    ]
    expect(costByPeriod(newestFirst, undefined, 0, 'day').map((p) => [p.key, p.costUsd, p.estimatedUsd])).toEqual([
      ['2026-03-02', 2, 2],
      ['2026-03-07', 4, 4],
      ['2026-03-12', 1, 1]
    ])
  })

  it('reads an unreadable period as nothing spent, keyed empty', () => {
    expect(costInPeriod(tasks, usages, PARIS_WINTER, 'day', periodKey('garbage', PARIS_WINTER, 'day'))).toEqual({
      key: '',
      costUsd: 0,
      estimatedUsd: 0
    })
  })

  it('reads one period, zero when nothing was spent in it', () => {
    expect(costInPeriod(tasks, usages, PARIS_WINTER, 'day', '2026-03-10')).toEqual({
      key: '2026-03-10',
      costUsd: 0.25,
      estimatedUsd: 0
    })
    expect(costInPeriod(tasks, usages, PARIS_WINTER, 'day', '2026-03-12')).toEqual({
      key: '2026-03-12',
      costUsd: 0,
      estimatedUsd: 0
    })
  })
})
