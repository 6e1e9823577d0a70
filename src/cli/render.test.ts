// The human forms: aligned tables, and the usage report's mismatch flag when records don't add up.
import { describe, expect, it } from 'vitest'
import { taskCost } from '../shared/cost'
import type { UsageRecord } from '../shared/service'
import { describeMetadata, renderUsage } from './render'
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
    expect(text).toMatch(/openai\/gpt-a\s+call\s+1\.2k\s+300\s+100\s+\$0\.012000/)
    expect(text).toMatch(/openai\/gpt-b\s+1\s+20k\s+900\s+–\s+\$0\.5000/)
    expect(text).toMatch(/Sum of calls:\s+\$0\.512000\n/)
    expect(text).toMatch(/Task total_price:\s+\$0\.512000\n/)
    expect(text).not.toContain('MISMATCH')
  })

  it('flags a mismatch, showing both figures', () => {
    const text = renderUsage({ taskId: 't1', usages, cost: taskCost(usages, 0.75) })
    expect(text).toContain(
      "MISMATCH: the calls add up to $0.512 but the task's total_price is $0.75 (difference -$0.238)."
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
