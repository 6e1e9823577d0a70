// The human forms: aligned tables, and the usage report's mismatch flag when records don't add up.
import { describe, expect, it } from 'vitest'
import { taskCost } from '../shared/cost'
import type { Task, UsageRecord } from '../shared/service'
import { describeMetadata, renderAgentStep, renderEvent, renderTasks, renderUsage } from './render'
import { renderCostReport } from './render-costs'
import { renderTable } from './table'

function usage(
  id: string,
  model: string,
  finalPrice: number,
  tokens: { in: number; out: number; cache?: number }
): UsageRecord {
  return {
    id,
    task_id: 't1',
    usage_type: 'llm_call',
    provider: 'openai',
    model,
    remark: 'call',
    request_data: {},
    response_data: {},
    usage_metadata: {
      input_tokens: tokens.in,
      output_tokens: tokens.out,
      total_tokens: tokens.in + tokens.out,
      cache_read_tokens: tokens.cache
    },
    price: {},
    final_price: finalPrice,
    created_at: '2026-01-05T09:00:00.000Z',
    updated_at: '2026-01-05T09:00:00.000Z'
  }
}

describe('renderUsage', () => {
  const usages = [
    usage('u1', 'gpt-a', 0.012, { in: 1200, out: 300, cache: 100 }),
    usage('u2', 'gpt-b', 0.5, { in: 20_000, out: 900 })
  ]

  it('shows calls, models and totals, and no flag when the sum matches total_price', () => {
    const text = renderUsage({ taskId: 't1', usages, cost: taskCost(usages, 0.512) })
    expect(text).toMatch(/openai\/gpt-a\s+call\s+1\.2K\s+300\s+100\s+\$0\.012000/)
    expect(text).toMatch(/openai\/gpt-b\s+1\s+20K\s+900\s+–\s+\$0\.5000/)
    expect(text).toMatch(/Sum of calls:\s+\$0\.512000\n/)
    expect(text).toMatch(/Task total_price:\s+\$0\.512000\n/)
    expect(text).not.toContain('MISMATCH')
  })

  it('flags a mismatch, showing both figures', () => {
    const text = renderUsage({ taskId: 't1', usages, cost: taskCost(usages, 0.75) })
    expect(text).toContain(
      "MISMATCH: the calls add up to $0.5120 but the task's total_price is $0.7500 (difference -$0.2380)."
    )
    // One under the other, in one precision: not $0.512 above $0.75.
    expect(text).toMatch(/Sum of calls:\s+\$0\.512000\n/)
    expect(text).toMatch(/Task total_price:\s+\$0\.750000\n/)
  })

  it('gives every COST column one precision: no trailing zeros dropped in one row and kept in the next', () => {
    const mixed = [
      usage('u1', 'gpt-a', 0.011, { in: 10, out: 1 }),
      usage('u2', 'gpt-a', 0.007016, { in: 10, out: 1 }),
      usage('u3', 'gpt-b', 2, { in: 10, out: 1 })
    ]
    const text = renderUsage({ taskId: 't1', usages: mixed, cost: taskCost(mixed, 2.018016) })
    const [calls, models] = text.split('By model:')
    expect(calls!.match(/\$[\d.]+/g)).toEqual(['$0.011000', '$0.007016', '$2.000000'])
    // The sums per model: 4 decimals for all, as the smallest ($0.018016) needs.
    expect(models!.split('Input tokens')[0]!.match(/\$[\d.]+/g)).toEqual(['$2.0000', '$0.0180'])
  })

  it('says when there are no records', () => {
    expect(renderUsage({ taskId: 't1', usages: [], cost: taskCost([], null) })).toBe('No usage records for task t1.\n')
  })
})

describe('renderTable', () => {
  it('pads every column but the last to its widest cell', () => {
    expect(
      renderTable(
        ['A', 'LONGER'],
        [
          ['xyz', '1'],
          ['q', '22']
        ]
      )
    ).toBe('A    LONGER\nxyz  1\nq    22\n')
  })
})

describe('describeMetadata', () => {
  it('reads known tools and shows unknown ones generically', () => {
    expect(describeMetadata({ tool: 'run_command_in_sandbox', command: 'npm test' })).toBe('$ npm test')
    expect(describeMetadata({ tool: 'write_file_to_sandbox', path: 'src/a.ts' })).toBe('write src/a.ts')
    expect(describeMetadata({ tool: 'search_web', query: 'vite' })).toBe('search_web: query=vite')
    expect(describeMetadata({})).toBe('')
  })
})

describe('money in the human forms: cents, as the window shows it', () => {
  const base = { connectionId: 'c1', projectId: 'p1', at: '2026-01-05T09:00:00.000Z' }

  it('says events in cents, never the service’s 6 decimals', () => {
    expect(renderEvent({ ...base, kind: 'task-price', taskId: 't1', taskName: 'X', from: 0.1, to: 0.333118 })).toMatch(
      /cost \$0\.10 → \$0\.33$/
    )
    expect(
      renderEvent({
        ...base,
        kind: 'budget',
        budgetId: 'b1',
        period: 'month',
        periodKey: '2026-01',
        level: 'near',
        spentUsd: 8,
        budgetUsd: 10
      })
    ).toMatch(/budget nearly reached: \$8\.00 of \$10\.00$/)
    expect(
      renderEvent({ ...base, kind: 'task-cost-unusual', taskId: 't1', taskName: 'X', costUsd: 4.2, usualUsd: 0.0049 })
    ).toMatch(/costs more than usual: \$4\.20 \(usual <\$0\.01\)$/)
  })

  it('lists tasks with their cost in cents', () => {
    const task = (id: string, price: number | null) =>
      ({ id, status: 'completed', name: id, steps: [], total_price: price, updated_at: base.at }) as unknown as Task
    const text = renderTasks([task('a', 0.333118), task('b', 12), task('c', null)])
    expect(text).toMatch(/\$0\.33 /)
    expect(text).toMatch(/\$12\.00 /)
    expect(text).not.toMatch(/\$0\.3331/)
  })

  it('gives a cost report in cents, with only a mismatch at the service’s precision', () => {
    const figures = {
      costUsd: 0.333118,
      estimatedUsd: 0,
      taskCount: 1,
      calls: 1,
      inputTokens: 1200,
      outputTokens: 300,
      cacheReadTokens: null
    }
    const text = renderCostReport(
      {
        since: '2026-01-01',
        until: '2026-01-05',
        grouping: 'day',
        rows: [{ key: '2026-01-05', label: '2026-01-05', ...figures }],
        totals: figures,
        unfetchedTasks: 0,
        mismatchedTasks: 0
      },
      1
    )
    expect(text).toMatch(/2026-01-05\s+\$0\.33\s+1/)
    expect(text).toMatch(/TOTAL\s+\$0\.33\s+1/)
  })
})

describe('renderAgentStep', () => {
  it("a streamed tool call on one line: time, service, task, the step's tool, arguments and status", () => {
    const step = {
      id: 'call-1',
      kind: 'tool_call',
      title: 'read_file',
      detail: '{"path":"package.json"}\n',
      at: null,
      status: null,
      serviceStatus: 'completed'
    }
    expect(renderAgentStep('2026-03-01T09:00:05.123Z', 'Cursor', 'bc-1', step, undefined)).toBe(
      '2026-03-01 09:00:05Z  Cursor  task bc-1 step: read_file {"path":"package.json"} [completed]'
    )
  })
})
