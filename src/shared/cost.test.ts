import { describe, expect, it } from 'vitest'
import {
  budgetCrossing,
  budgetState,
  cacheReadTokensOf,
  costByDay,
  costOnDay,
  localDateKey,
  projectCost,
  taskCost
} from './cost'
import type { Task, UsageRecord } from './service'
import { testTask } from './test-task'

function usage(over: Partial<UsageRecord> & Pick<UsageRecord, 'final_price'>): UsageRecord {
  return {
    id: `u-${Math.round(over.final_price * 1e6)}`,
    task_id: 't1',
    usage_type: 'llm_call',
    provider: 'openai',
    model: 'gpt-4o',
    remark: '',
    request_data: {},
    response_data: {},
    usage_metadata: { input_tokens: 100, output_tokens: 20, total_tokens: 120 },
    price: {},
    created_at: '2025-03-10T10:00:00.000Z',
    updated_at: '2025-03-10T10:00:00.000Z',
    ...over
  }
}

function task(over: Partial<Task> & Pick<Task, 'id'>): Task {
  return testTask(over.id, {
    name: over.id,
    created_at: '2025-03-10T10:00:00.000Z',
    updated_at: '2025-03-10T10:00:00.000Z',
    total_price: null,
    ...over
  })
}

describe('taskCost', () => {
  it('sums final_price and tokens without assuming total = input + output', () => {
    const cost = taskCost(
      [
        usage({ final_price: 0.001, usage_metadata: { input_tokens: 100, output_tokens: 20, total_tokens: 150 } }),
        usage({ final_price: 0.002, usage_metadata: { input_tokens: 300, output_tokens: 40, total_tokens: 340 } })
      ],
      0.003
    )
    expect(cost.usageSumUsd).toBe(0.003)
    expect(cost.costUsd).toBe(0.003)
    expect(cost.calls).toBe(2)
    expect(cost.inputTokens).toBe(400)
    expect(cost.outputTokens).toBe(60)
    expect(cost.totalTokens).toBe(490)
    expect(cost.mismatch).toBeNull()
  })

  it('keeps absent cache reads distinct from 0 and reads either key', () => {
    expect(taskCost([usage({ final_price: 0.1 })], null).cacheReadTokens).toBeNull()
    const zero = usage({
      final_price: 0.1,
      usage_metadata: { input_tokens: 1, output_tokens: 1, total_tokens: 2, cache_read_tokens: 0 }
    })
    expect(taskCost([zero], null).cacheReadTokens).toBe(0)
    const detail = usage({
      final_price: 0.1,
      usage_metadata: { input_tokens: 1, output_tokens: 1, total_tokens: 2, input_token_details: { cache_read: 64 } }
    })
    expect(cacheReadTokensOf(detail.usage_metadata)).toBe(64)
    expect(taskCost([zero, detail, usage({ final_price: 0 })], null).cacheReadTokens).toBe(64)
    // The service's own key wins over LangChain's detail.
    expect(
      cacheReadTokensOf({
        input_tokens: 1,
        output_tokens: 1,
        total_tokens: 2,
        cache_read_tokens: 5,
        input_token_details: { cache_read: 9 }
      })
    ).toBe(5)
  })

  it('breaks the cost down by provider and by model', () => {
    const cost = taskCost(
      [
        usage({ final_price: 0.01, provider: 'openai', model: 'gpt-4o' }),
        usage({ final_price: 0.02, provider: 'openai', model: 'gpt-4o-mini' }),
        usage({ final_price: 0.05, provider: 'anthropic', model: 'claude' }),
        usage({ final_price: 0.01, provider: 'openai', model: 'gpt-4o' })
      ],
      0.09
    )
    expect(cost.byProvider.map((r) => [r.provider, r.calls, r.costUsd])).toEqual([
      ['anthropic', 1, 0.05],
      ['openai', 3, 0.04]
    ])
    expect(cost.byModel.map((r) => [r.model, r.calls, r.costUsd, r.inputTokens])).toEqual([
      ['claude', 1, 0.05, 100],
      ['gpt-4o', 2, 0.02, 200],
      ['gpt-4o-mini', 1, 0.02, 100]
    ])
  })

  it('flags a sum that differs from total_price by more than rounding', () => {
    const records = [usage({ final_price: 0.000001 }), usage({ final_price: 0.000002 })]
    // 2 records: up to 2e-6 of drift is rounding.
    expect(taskCost(records, 0.000004).mismatch).toBeNull()
    expect(taskCost(records, 0.000006).mismatch).toEqual({ sum: 0.000003, total: 0.000006, difference: -0.000003 })
    const big = taskCost([usage({ final_price: 1.5 })], 1.2)
    expect(big.mismatch).toEqual({ sum: 1.5, total: 1.2, difference: 0.3 })
    expect(big.costUsd).toBe(1.2)
  })

  it('counts a record without token accounting by its price alone', () => {
    const bare = usage({ final_price: 0.2, usage_metadata: undefined as unknown as UsageRecord['usage_metadata'] })
    const cost = taskCost([bare, usage({ final_price: 0.1 })], null)
    expect(cost.usageSumUsd).toBeCloseTo(0.3, 9)
    expect([cost.inputTokens, cost.outputTokens, cost.totalTokens, cost.cacheReadTokens]).toEqual([100, 20, 120, null])
    expect(cacheReadTokensOf(undefined)).toBeNull()
  })

  it('counts a figure that is not a finite number as nothing, so one bad figure cannot spoil a sum', () => {
    const odd = (v: unknown): number => v as number
    const records = [
      usage({ final_price: 0.5 }),
      usage({ final_price: Number.NaN }),
      usage({ final_price: Number.POSITIVE_INFINITY }),
      usage({
        final_price: odd('0.25'),
        usage_metadata: {
          input_tokens: odd('7'),
          output_tokens: Number.NaN,
          total_tokens: Number.POSITIVE_INFINITY,
          cache_read_tokens: Number.NaN
        }
      })
    ]
    const cost = taskCost(records, Number.NaN)
    expect([cost.usageSumUsd, cost.costUsd, cost.totalPriceUsd, cost.mismatch]).toEqual([0.5, 0.5, null, null])
    expect([cost.inputTokens, cost.outputTokens, cost.totalTokens, cost.cacheReadTokens]).toEqual([300, 60, 360, null])
    expect(cost.byModel.map((r) => [r.calls, r.costUsd])).toEqual([[4, 0.5]])
  })

  it('adds up the cache reads of every record that reports them', () => {
    const cached = (final_price: number, cache_read_tokens: number): UsageRecord =>
      usage({
        final_price,
        usage_metadata: { input_tokens: 10, output_tokens: 1, total_tokens: 11, cache_read_tokens }
      })
    const cost = taskCost([cached(0.1, 5), cached(0.2, 7), cached(0.3, 30)], null)
    expect(cost.cacheReadTokens).toBe(42)
    expect(cost.byModel[0]?.cacheReadTokens).toBe(42)
  })

  it('allows a millionth of drift per record, and a difference of exactly that is still rounding', () => {
    const millionths = (n: number) => Array.from({ length: n }, () => usage({ final_price: 0.000001 }))
    // 3 records: up to 3e-6 is rounding, more is not.
    expect(taskCost(millionths(3), 0.000005).mismatch).toBeNull()
    expect(taskCost(millionths(3), 0.000006).mismatch).toBeNull()
    expect(taskCost(millionths(3), 0.000007).mismatch).toEqual({
      sum: 0.000003,
      total: 0.000007,
      difference: -0.000004
    })
    // One record (or none) still allows a millionth.
    expect(taskCost(millionths(1), 0.000002).mismatch).toBeNull()
    expect(taskCost([], 0.000001).mismatch).toBeNull()
    expect(taskCost([], 0.000002).mismatch).toEqual({ sum: 0, total: 0.000002, difference: -0.000002 })
  })

  it('lists the costliest provider and model first whatever their names, and a tie by name', () => {
    const cost = taskCost(
      [
        usage({ final_price: 0.01, provider: 'anthropic', model: 'claude' }),
        usage({ final_price: 0.05, provider: 'openai', model: 'gpt-4o' }),
        usage({ final_price: 0.01, provider: 'mistral', model: 'large' })
      ],
      null
    )
    expect(cost.byProvider.map((r) => r.provider)).toEqual(['openai', 'anthropic', 'mistral'])
    expect(cost.byModel.map((r) => r.model)).toEqual(['gpt-4o', 'claude', 'large'])
  })

  it('falls back to the usage sum without a total_price, and has no mismatch then', () => {
    const cost = taskCost([usage({ final_price: 0.25 })], null)
    expect(cost.costUsd).toBe(0.25)
    expect(cost.totalPriceUsd).toBeNull()
    expect(cost.mismatch).toBeNull()
  })
})

describe('project and day costs', () => {
  const tasks = [
    task({ id: 'a', total_price: 1.25, created_at: '2025-03-10T23:30:00.000Z' }),
    task({ id: 'b', total_price: 0.5, status: 'in_progress', created_at: '2025-03-10T08:00:00.000Z' }),
    task({ id: 'c', total_price: null, status: 'todo', created_at: '2025-03-09T08:00:00.000Z' }),
    task({ id: 'd', total_price: null, created_at: '2025-03-09T09:00:00.000Z' })
  ]
  const usages = { c: [usage({ final_price: 0.125 }), usage({ final_price: 0.125 })] }

  it('uses total_price, else the usage sum, and reports tasks it could not price', () => {
    const cost = projectCost(tasks, usages)
    expect(cost.totalUsd).toBe(2)
    expect(cost.runningUsd).toBe(0.75)
    expect(cost.unpricedTaskIds).toEqual(['d'])
    expect(projectCost(tasks).runningUsd).toBe(0.5)
  })

  it('groups by local day with the given offset', () => {
    expect(costByDay(tasks, 0, usages)).toEqual([
      { date: '2025-03-09', costUsd: 0.25, taskCount: 2 },
      { date: '2025-03-10', costUsd: 1.75, taskCount: 2 }
    ])
    // At UTC+1 task a falls on the 11th.
    expect(costByDay(tasks, 60, usages).map((d) => [d.date, d.costUsd])).toEqual([
      ['2025-03-09', 0.25],
      ['2025-03-10', 0.5],
      ['2025-03-11', 1.25]
    ])
    expect(localDateKey('2025-03-10T02:00:00.000Z', () => -180)).toBe('2025-03-09')
    expect(costOnDay(tasks, localDateKey('2025-03-11T09:00:00.000Z', 60), 60)).toBe(1.25)
    expect(localDateKey('garbage', 0)).toBeNull()
  })
})

describe('unreadable and empty days', () => {
  it('leaves out a task whose creation time cannot be read, and a day without tasks costs 0', () => {
    const tasks = [
      task({ id: 'a', total_price: 1, created_at: 'garbage' }),
      task({ id: 'b', total_price: 2, created_at: '2025-03-10T10:00:00.000Z' })
    ]
    expect(costByDay(tasks, 0)).toEqual([{ date: '2025-03-10', costUsd: 2, taskCount: 1 }])
    expect(costOnDay(tasks, '2025-03-11', 0)).toBe(0)
    expect(costOnDay(tasks, localDateKey('garbage', 0), 0)).toBe(0)
  })
})

describe('budget', () => {
  it('tells none, ok, near and over', () => {
    expect(budgetState(5, null)).toBe('none')
    expect(budgetState(5, 10)).toBe('ok')
    expect(budgetState(8, 10)).toBe('near')
    expect(budgetState(10, 10)).toBe('over')
    expect(budgetState(12, 10)).toBe('over')
  })

  it('a budget that is negative, NaN or infinite is no budget', () => {
    for (const budget of [-1, Number.NaN, Number.POSITIVE_INFINITY])
      expect(budgetState(5, budget), String(budget)).toBe('none')
  })

  it('a $0 budget is "ok" while nothing is spent and "over" from the first cent', () => {
    expect(budgetState(0, 0)).toBe('ok')
    expect(budgetState(0.01, 0)).toBe('over')
  })

  it('announces each crossing once and again after falling back', () => {
    let notified = budgetCrossing(null, 'ok')
    expect(notified).toEqual({ crossed: null, notified: null })
    notified = budgetCrossing(notified.notified, 'near')
    expect(notified).toEqual({ crossed: 'near', notified: 'near' })
    expect(budgetCrossing('near', 'near')).toEqual({ crossed: null, notified: 'near' })
    expect(budgetCrossing('near', 'over')).toEqual({ crossed: 'over', notified: 'over' })
    expect(budgetCrossing(null, 'over')).toEqual({ crossed: 'over', notified: 'over' })
    expect(budgetCrossing('over', 'over')).toEqual({ crossed: null, notified: 'over' })
    // The budget was raised: back to near, so crossing "over" again is news.
    expect(budgetCrossing('over', 'near')).toEqual({ crossed: null, notified: 'near' })
    expect(budgetCrossing('over', 'none')).toEqual({ crossed: null, notified: null })
  })
})
