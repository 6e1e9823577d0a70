import { describe, expect, it } from 'vitest'
import type { CostUsage } from './cost'
import { costChart, costReport, type CostReportTask, MAX_STACKS } from './cost-report'
import { costReportCsv } from './cost-report-csv'
import { csvField, toCsv } from './csv'

const PARIS_WINTER = 60
const NEW_YORK_WINTER = -300

function usage(
  final_price: number,
  created_at: string,
  model = 'gpt-4.1',
  tokens = { input: 100, output: 10, cache: undefined as number | undefined }
): CostUsage {
  return {
    provider: 'openai',
    model,
    final_price,
    created_at,
    usage_metadata: {
      input_tokens: tokens.input,
      output_tokens: tokens.output,
      total_tokens: tokens.input + tokens.output,
      cache_read_tokens: tokens.cache
    }
  }
}

function item(
  id: string,
  total: number | null,
  updated_at: string,
  usages: CostUsage[] | undefined,
  project = 'p1'
): CostReportTask {
  return {
    projectId: project,
    projectName: `Project ${project}`,
    task: { id, name: `Task ${id}`, total_price: total, updated_at },
    usages
  }
}

// A task that ran from 22:50 to 00:40 UTC on 10-11 March 2026.
const acrossMidnight = item('t1', 0.75, '2026-03-11T00:40:00.000Z', [
  usage(0.25, '2026-03-10T22:50:00.000Z'),
  usage(0.5, '2026-03-10T23:20:00.000Z')
])
const range = { since: '2026-03-01', until: '2026-03-31' }

describe('costReport by day', () => {
  it('puts each call on its local day: across midnight in Paris, the same day in UTC', () => {
    expect(costReport([acrossMidnight], range, 'day', PARIS_WINTER).rows.map((r) => [r.key, r.costUsd])).toEqual([
      ['2026-03-10', 0.25],
      ['2026-03-11', 0.5]
    ])
    expect(costReport([acrossMidnight], range, 'day', 0).rows.map((r) => [r.key, r.costUsd])).toEqual([
      ['2026-03-10', 0.75]
    ])
  })

  it('counts only the part of a task inside the range', () => {
    const report = costReport([acrossMidnight], { since: '2026-03-11', until: '2026-03-31' }, 'day', PARIS_WINTER)
    expect(report.rows.map((r) => [r.key, r.costUsd])).toEqual([['2026-03-11', 0.5]])
    expect(report.totals.costUsd).toBe(0.5)
  })

  it('marks as estimates a task without records (on its updated_at day) and what records do not cover', () => {
    const noRecords = item('t2', 1.2, '2026-03-12T10:00:00.000Z', undefined)
    const partly = item('t3', 1, '2026-03-12T11:00:00.000Z', [usage(0.4, '2026-03-11T10:00:00.000Z')])
    const report = costReport([noRecords, partly], range, 'day', 0)
    expect(report.rows).toEqual([
      expect.objectContaining({ key: '2026-03-11', costUsd: 0.4, estimatedUsd: 0, taskCount: 1 }),
      expect.objectContaining({ key: '2026-03-12', costUsd: 1.8, estimatedUsd: 1.8, taskCount: 2 })
    ])
    expect(report.unfetchedTasks).toBe(1)
    expect(report.totals).toEqual(expect.objectContaining({ costUsd: 2.2, estimatedUsd: 1.8, taskCount: 2 }))
  })
})

describe('costReport by month', () => {
  it('splits a task across a month boundary in the user’s zone', () => {
    const task = item('t', 3, '2026-05-01T06:00:00.000Z', [
      usage(1, '2026-04-30T20:00:00.000Z'),
      usage(2, '2026-05-01T04:30:00.000Z')
    ])
    const months = { since: '2026-04-01', until: '2026-05-31' }
    expect(costReport([task], months, 'month', PARIS_WINTER).rows.map((r) => [r.key, r.costUsd])).toEqual([
      ['2026-04', 1],
      ['2026-05', 2]
    ])
    expect(costReport([task], months, 'month', NEW_YORK_WINTER).rows.map((r) => [r.key, r.costUsd])).toEqual([
      ['2026-04', 3]
    ])
  })
})

describe('costReport by project, model and task', () => {
  const a = item('a', 0.6, '2026-03-05T10:00:00.000Z', [
    usage(0.5, '2026-03-05T09:00:00.000Z', 'gpt-4.1', { input: 1000, output: 100, cache: 400 }),
    usage(0.1, '2026-03-05T09:30:00.000Z', 'gpt-4.1-mini', { input: 50, output: 5, cache: undefined })
  ])
  const b = item(
    'b',
    2,
    '2026-03-06T10:00:00.000Z',
    [usage(1.5, '2026-03-06T09:00:00.000Z', 'gpt-4.1', { input: 2000, output: 200, cache: 0 })],
    'p2'
  )

  it('sums per project, costliest first', () => {
    expect(costReport([a, b], range, 'project', 0).rows.map((r) => [r.key, r.label, r.costUsd, r.taskCount])).toEqual([
      ['p2', 'Project p2', 2, 1],
      ['p1', 'Project p1', 0.6, 1]
    ])
  })

  it('gives calls and input, output and cache-read tokens per model; what no record itemizes is its own row, last', () => {
    const report = costReport([a, b], range, 'model', 0)
    expect(
      report.rows.map((r) => [
        r.key,
        r.calls,
        r.inputTokens,
        r.outputTokens,
        r.cacheReadTokens,
        r.costUsd,
        r.estimatedUsd
      ])
    ).toEqual([
      ['openai/gpt-4.1', 2, 3000, 300, 400, 2, 0],
      ['openai/gpt-4.1-mini', 1, 50, 5, null, 0.1, 0],
      ['', 0, 0, 0, null, 0.5, 0.5]
    ])
    expect(report.totals).toEqual(
      expect.objectContaining({ calls: 3, inputTokens: 3050, outputTokens: 305, cacheReadTokens: 400, costUsd: 2.6 })
    )
  })

  it('shows both the records’ sum and total_price for a task where they disagree, total_price counting', () => {
    const report = costReport([a, b], range, 'task', 0)
    expect(report.rows.find((r) => r.key === 'b')).toEqual(
      expect.objectContaining({
        costUsd: 2,
        estimatedUsd: 0.5,
        mismatch: { recordsUsd: 1.5, totalPriceUsd: 2 },
        projectName: 'Project p2'
      })
    )
    expect(report.rows.find((r) => r.key === 'a')?.mismatch).toBeNull()
    expect(report.mismatchedTasks).toBe(1)
  })
})

describe('costChart', () => {
  it('fills every day of the range and stacks by project', () => {
    const chart = costChart(
      [acrossMidnight],
      { since: '2026-03-09', until: '2026-03-12' },
      'day',
      'project',
      PARIS_WINTER
    )
    expect(chart).toEqual({
      categories: ['2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12'],
      stacks: [{ key: 'p1', name: 'Project p1', values: [0, 0.25, 0.5, 0] }]
    })
  })
})

describe('CSV', () => {
  it('quotes as RFC 4180 and keeps a formula from the service from running', () => {
    expect(csvField('plain')).toBe('plain')
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('two\nlines')).toBe('"two\nlines"')
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      expect(csvField(`${start}1+1`).startsWith(`'${start}`) || csvField(`${start}1+1`).startsWith(`"'${start}`)).toBe(
        true
      )
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`)
    expect(csvField(-0.5)).toBe('-0.5')
    expect(toCsv(['a', 'b'], [[1, null]])).toBe('a,b\r\n1,\r\n')
  })

  it('writes a report with its grouping’s columns and the totals last', () => {
    const hostile = item('t9', 0.3, '2026-03-05T10:00:00.000Z', [usage(0.3, '2026-03-05T09:00:00.000Z')])
    hostile.task.name = '=cmd|" /C calc"!A0'
    const csv = costReportCsv(costReport([hostile], range, 'task', 0))
    expect(csv).toBe(
      'task_id,task,project_id,project,cost_usd,estimated_usd,records_usd,total_price_usd\r\n' +
        `t9,"'=cmd|"" /C calc""!A0",p1,Project p1,0.3,0,,\r\n` +
        ',total,,,0.3,0,,\r\n'
    )
    expect(costReportCsv(costReport([acrossMidnight], range, 'day', PARIS_WINTER))).toBe(
      'day,cost_usd,estimated_usd,tasks\r\n2026-03-10,0.25,0,1\r\n2026-03-11,0.5,0,1\r\ntotal,0.75,0,1\r\n'
    )
  })

  it('writes the model, project and month reports: a model with a "/" in its name, the estimate, quoted names', () => {
    const call = (
      provider: string,
      model: string,
      final_price: number,
      created_at: string,
      cache?: number
    ): CostUsage => ({
      provider,
      model,
      final_price,
      created_at,
      usage_metadata: {
        input_tokens: 100,
        output_tokens: 10,
        total_tokens: 110,
        cache_read_tokens: cache
      }
    })
    // t1 cost $1 of which the records itemize $0.75: $0.25 is an estimate.
    const tasks: CostReportTask[] = [
      item(
        't1',
        1,
        '2026-03-05T10:00:00.000Z',
        [
          call('openai', 'gpt-4.1', 0.25, '2026-03-05T09:00:00.000Z', 5),
          call('openrouter', 'meta/llama-3', 0.5, '2026-03-05T09:30:00.000Z')
        ],
        'p1'
      ),
      item(
        't2',
        0.125,
        '2026-04-02T10:00:00.000Z',
        [call('openai', 'gpt-4.1', 0.125, '2026-04-02T09:00:00.000Z')],
        'p2'
      )
    ]
    tasks[1]!.projectName = 'Blog, new'
    const spring = { since: '2026-03-01', until: '2026-04-30' }
    expect(costReportCsv(costReport(tasks, spring, 'model', 0), '\n')).toBe(
      [
        'provider,model,calls,input_tokens,output_tokens,cache_read_tokens,cost_usd,estimated_usd,tasks',
        'openrouter,meta/llama-3,1,100,10,,0.5,0,1',
        'openai,gpt-4.1,2,200,20,5,0.375,0,2',
        ',not itemized (estimate),0,0,0,,0.25,0.25,1',
        ',total,3,300,30,5,1.125,0.25,2',
        ''
      ].join('\n')
    )
    expect(costReportCsv(costReport(tasks, spring, 'project', 0), '\n')).toBe(
      [
        'project_id,project,cost_usd,estimated_usd,tasks',
        'p1,Project p1,1,0.25,1',
        'p2,"Blog, new",0.125,0,1',
        ',total,1.125,0.25,2',
        ''
      ].join('\n')
    )
    expect(costReportCsv(costReport(tasks, spring, 'month', 0), '\n')).toBe(
      ['month,cost_usd,estimated_usd,tasks', '2026-03,1,0.25,1', '2026-04,0.125,0,1', 'total,1.125,0.25,2', ''].join(
        '\n'
      )
    )
  })
})

describe('costReport: what each row holds and which tasks count', () => {
  it('gives a day row only its figures, a model row its provider, a task row its project', () => {
    const t = item('t', 0.5, '2026-03-05T10:00:00.000Z', [
      usage(0.5, '2026-03-05T09:00:00.000Z', 'gpt-4.1', { input: 100, output: 10, cache: 3 })
    ])
    const figures = {
      costUsd: 0.5,
      estimatedUsd: 0,
      taskCount: 1,
      calls: 1,
      inputTokens: 100,
      outputTokens: 10,
      cacheReadTokens: 3
    }
    expect(costReport([t], range, 'day', 0).rows).toEqual([{ key: '2026-03-05', label: '2026-03-05', ...figures }])
    expect(costReport([t], range, 'month', 0).rows).toEqual([{ key: '2026-03', label: '2026-03', ...figures }])
    expect(costReport([t], range, 'project', 0).rows).toEqual([{ key: 'p1', label: 'Project p1', ...figures }])
    expect(costReport([t], range, 'model', 0).rows).toEqual([
      { key: 'openai/gpt-4.1', label: 'openai gpt-4.1', provider: 'openai', ...figures }
    ])
    expect(costReport([t], range, 'task', 0).rows).toEqual([
      { key: 't', label: 'Task t', projectId: 'p1', projectName: 'Project p1', mismatch: null, ...figures }
    ])
    expect(costReport([t], range, 'task', 0).totals).toEqual(figures)
  })

  it('counts a record without token accounting by its price, and leaves out a price that is not a finite number', () => {
    const bare: CostUsage = {
      provider: 'openai',
      model: 'gpt-4.1',
      final_price: 0.25,
      created_at: '2026-03-05T09:00:00.000Z',
      usage_metadata: undefined as unknown as CostUsage['usage_metadata']
    }
    const broken: CostUsage = { ...usage(0.25, '2026-03-05T09:10:00.000Z'), final_price: Number.NaN }
    const report = costReport(
      [item('t', null, '2026-03-05T10:00:00.000Z', [bare, broken, usage(0.5, '2026-03-05T09:20:00.000Z')])],
      range,
      'model',
      0
    )
    expect(report.rows.map((r) => [r.key, r.calls, r.inputTokens, r.outputTokens, r.costUsd])).toEqual([
      ['openai/gpt-4.1', 2, 100, 10, 0.75]
    ])
  })

  it('puts nothing on the last-changed day of a task its records account for in full', () => {
    const t = item('t', 0.75, '2026-03-06T10:00:00.000Z', [usage(0.75, '2026-03-05T09:00:00.000Z')])
    expect(costReport([t], range, 'day', 0).rows.map((r) => r.key)).toEqual(['2026-03-05'])
    expect(costReport([t], range, 'model', 0).rows.map((r) => r.key)).toEqual(['openai/gpt-4.1'])
  })

  it('takes the first and the last day of the range, and nothing after', () => {
    const calls = item('t', null, '2026-04-02T10:00:00.000Z', [
      usage(1, '2026-02-28T12:00:00.000Z'),
      usage(2, '2026-03-01T00:00:00.000Z'),
      usage(4, '2026-03-31T23:59:00.000Z'),
      usage(8, '2026-04-01T00:00:00.000Z')
    ])
    expect(costReport([calls], range, 'day', 0).rows.map((r) => [r.key, r.costUsd])).toEqual([
      ['2026-03-01', 2],
      ['2026-03-31', 4]
    ])
  })

  it('counts unfetched and mismatched tasks only when they cost something in the range', () => {
    const before = { since: '2026-03-01', until: '2026-03-04' }
    const unfetched = item('u', 1, '2026-03-10T10:00:00.000Z', undefined)
    const mismatched = item('m', 2, '2026-03-10T10:00:00.000Z', [usage(1, '2026-03-10T09:00:00.000Z')])
    const fetched = item('f', 0.5, '2026-03-02T10:00:00.000Z', [usage(0.5, '2026-03-02T09:00:00.000Z')])
    const outside = costReport([unfetched, mismatched, fetched], before, 'task', 0)
    expect([outside.rows.map((r) => r.key), outside.unfetchedTasks, outside.mismatchedTasks]).toEqual([['f'], 0, 0])
    const inside = costReport([unfetched, mismatched, fetched], range, 'task', 0)
    expect([inside.unfetchedTasks, inside.mismatchedTasks]).toEqual([1, 1])
  })

  it('lists the estimate no record itemizes last among models even when it costs the most', () => {
    const t = item('t', 10, '2026-03-05T10:00:00.000Z', [
      usage(1, '2026-03-05T09:00:00.000Z', 'a'),
      usage(2, '2026-03-05T09:00:00.000Z', 'b'),
      usage(0.5, '2026-03-05T09:00:00.000Z', 'c')
    ])
    expect(costReport([t], range, 'model', 0).rows.map((r) => [r.key, r.costUsd])).toEqual([
      ['openai/b', 2],
      ['openai/a', 1],
      ['openai/c', 0.5],
      ['', 6.5]
    ])
    // The same when the estimate's task comes first.
    const unfetched = item('u', 7, '2026-03-04T10:00:00.000Z', undefined)
    const priced = item('p', 3, '2026-03-05T10:00:00.000Z', [
      usage(1, '2026-03-05T09:00:00.000Z', 'a'),
      usage(2, '2026-03-05T09:00:00.000Z', 'b')
    ])
    for (const items of [
      [unfetched, priced],
      [priced, unfetched]
    ]) {
      expect(costReport(items, range, 'model', 0).rows.map((r) => r.key)).toEqual(['openai/b', 'openai/a', ''])
    }
    // Elsewhere costliest first, and a tie by name.
    const tasks = [
      item('x', 1, '2026-03-05T10:00:00.000Z', undefined, 'b'),
      item('y', 1, '2026-03-05T10:00:00.000Z', undefined, 'a'),
      item('z', 3, '2026-03-05T10:00:00.000Z', undefined, 'c')
    ]
    expect(costReport(tasks, range, 'project', 0).rows.map((r) => r.key)).toEqual(['c', 'a', 'b'])
  })
})

describe('costChart: months, model stacks and the rest as "Other"', () => {
  const spend = (id: string, project: string, usd: number, at: string): CostReportTask =>
    item(id, usd, at, [usage(usd, at)], project)

  it('has one category per month of the range, and puts each cost in its month', () => {
    const chart = costChart(
      [
        spend('a', 'p1', 1, '2026-03-20T10:00:00.000Z'),
        spend('b', 'p1', 2, '2026-05-02T10:00:00.000Z'),
        spend('c', 'p1', 4, '2026-06-01T10:00:00.000Z')
      ],
      { since: '2026-03-15', until: '2026-05-10' },
      'month',
      'project',
      0
    )
    expect(chart).toEqual({
      categories: ['2026-03', '2026-04', '2026-05'],
      stacks: [{ key: 'p1', name: 'Project p1', values: [1, 0, 2] }]
    })
  })

  it('stacks by model, what no record itemizes as its own stack', () => {
    const t = item('t', 3, '2026-03-05T10:00:00.000Z', [
      usage(1, '2026-03-05T09:00:00.000Z', 'gpt-4.1'),
      usage(0.5, '2026-03-06T09:00:00.000Z', 'o3')
    ])
    expect(costChart([t], { since: '2026-03-05', until: '2026-03-06' }, 'day', 'model', 0).stacks).toEqual([
      { key: '', name: 'not itemized (estimate)', values: [1.5, 0] },
      { key: 'openai/gpt-4.1', name: 'openai gpt-4.1', values: [1, 0] },
      { key: 'openai/o3', name: 'openai o3', values: [0, 0.5] }
    ])
  })

  it(`shows the ${MAX_STACKS} costliest stacks, or ${MAX_STACKS - 1} and the rest summed as "Other"`, () => {
    const day = { since: '2026-03-05', until: '2026-03-06' }
    const projects = (n: number): CostReportTask[] =>
      Array.from({ length: n }, (_, i) => spend(`t${i}`, `p${i}`, i + 1, `2026-03-0${5 + (i % 2)}T10:00:00.000Z`))
    const six = costChart(projects(MAX_STACKS), day, 'day', 'project', 0)
    expect(six.stacks.map((s) => s.key)).toEqual(['p5', 'p4', 'p3', 'p2', 'p1', 'p0'])
    const eight = costChart(projects(MAX_STACKS + 2), day, 'day', 'project', 0)
    // p0..p2 cost 1, 2, 3 (on the 5th, 6th, 5th): the rest.
    expect(eight.stacks.map((s) => [s.key, s.name, s.values])).toEqual([
      ['p7', 'Project p7', [0, 8]],
      ['p6', 'Project p6', [7, 0]],
      ['p5', 'Project p5', [0, 6]],
      ['p4', 'Project p4', [5, 0]],
      ['p3', 'Project p3', [0, 4]],
      ['\u0000other', 'Other (3)', [4, 2]]
    ])
  })

  it('leaves out what falls outside the range, and breaks a tie by name', () => {
    const chart = costChart(
      [
        spend('a', 'b', 1, '2026-03-05T10:00:00.000Z'),
        spend('b', 'a', 1, '2026-03-05T10:00:00.000Z'),
        spend('c', 'c', 9, '2026-03-07T10:00:00.000Z')
      ],
      { since: '2026-03-05', until: '2026-03-06' },
      'day',
      'project',
      0
    )
    expect(chart.stacks.map((s) => [s.key, s.values])).toEqual([
      ['a', [1, 0]],
      ['b', [1, 0]]
    ])
  })
})
