import { describe, expect, it } from 'vitest'
import { type CostUsage, taskCost } from '../../shared/cost'
import {
  type CachedTaskUsages,
  compactUsage,
  freshUsageCache,
  interpretUsageCache,
  USAGE_CACHE_VERSION,
  type UsageCacheDocument
} from './usage-cache-document'

function usage(price: number, extra: Partial<CostUsage['usage_metadata']> = {}): CostUsage {
  return {
    provider: 'openai',
    model: 'gpt-5',
    final_price: price,
    created_at: '2026-11-20T10:00:00.000Z',
    usage_metadata: { input_tokens: 100, output_tokens: 20, total_tokens: 120, ...extra }
  }
}

function entry(usages: CostUsage[], totalPrice: number | null = 1): CachedTaskUsages {
  return {
    projectId: 'p1',
    status: 'completed',
    updatedAt: '2026-11-20T10:05:00.000Z',
    totalPrice,
    fetchedAt: '2026-11-20T10:06:00.000Z',
    usages
  }
}

const read = (text: string) => interpretUsageCache(JSON.parse(text) as Record<string, unknown>)
const file = (doc: unknown) => JSON.stringify(doc, null, '\t')
const whole: UsageCacheDocument = {
  version: USAGE_CACHE_VERSION,
  tasks: {
    c1: { a: entry([usage(0.25), usage(0.75)]), b: entry([usage(0.5), usage(0.5)]) },
    c2: { a: entry([], null) }
  }
}

describe('reading usage-cache.json', () => {
  it('starts empty without a file, and does not write one for that', () => {
    expect(interpretUsageCache({})).toEqual({ doc: freshUsageCache(), rewrite: false })
    expect(freshUsageCache()).toEqual({ version: 1, tasks: {} })
  })

  it('reads a whole file of ours as it is, with nothing to write back', () => {
    expect(read(file(whole))).toEqual({ doc: whole, rewrite: false, finding: undefined })
    expect(read(file({ version: 1 }))).toEqual({ doc: freshUsageCache(), rewrite: false, finding: undefined })
  })

  it('leaves a newer version’s file alone and starts a cache of its own', () => {
    expect(read(file({ ...whole, version: 2 }))).toEqual({
      doc: freshUsageCache(),
      rewrite: true,
      finding: { kind: 'newer-version', version: 2 }
    })
  })

  it('keeps every entry that reads whole and drops the others, and calls the file invalid', () => {
    const withBad = {
      version: 1,
      tasks: { c1: { ...whole.tasks.c1, bad: { ...entry([usage(1)]), totalPrice: 'one' } }, c2: whole.tasks.c2 }
    }
    expect(read(file(withBad))).toEqual({ doc: whole, rewrite: true, finding: { kind: 'invalid', wrong: [] } })
    const badRecord = {
      version: 1,
      tasks: {
        c1: { ...whole.tasks.c1, bad: entry([usage(1), { ...usage(1), final_price: 'x' } as never]) },
        c2: whole.tasks.c2
      }
    }
    expect(read(file(badRecord))).toEqual({ doc: whole, rewrite: true, finding: { kind: 'invalid', wrong: [] } })
  })

  it('calls a file invalid whose tasks or a connection’s entries are not a map, and keeps the rest', () => {
    expect(read(file({ version: 1, tasks: 'many' }))).toEqual({
      doc: freshUsageCache(),
      rewrite: true,
      finding: { kind: 'invalid', wrong: [] }
    })
    expect(read(file({ version: 1, tasks: null }))).toMatchObject({
      doc: freshUsageCache(),
      rewrite: true,
      finding: { kind: 'invalid' }
    })
    expect(read(file({ version: 1, tasks: [whole.tasks.c1] }))).toMatchObject({
      doc: freshUsageCache(),
      rewrite: true,
      finding: { kind: 'invalid' }
    })
    const listed = read(file({ version: 1, tasks: { ...whole.tasks, c3: [entry([])], c4: 'x' } }))
    expect(listed.finding).toEqual({ kind: 'invalid', wrong: [] })
    expect(listed.doc.tasks).toEqual({ ...whole.tasks, c3: {}, c4: {} })
  })

  it('keeps the entries of a file without a version, and writes it anew as ours', () => {
    expect(read(file({ tasks: whole.tasks }))).toEqual({
      doc: whole,
      rewrite: true,
      finding: { kind: 'invalid', wrong: [] }
    })
    expect(read(file({ version: '2', tasks: whole.tasks }))).toEqual({
      doc: whole,
      rewrite: true,
      finding: { kind: 'invalid', wrong: [] }
    })
  })
})

describe('the compact copy of a usage record', () => {
  const full = {
    ...usage(0.125, {
      cache_read_tokens: 40,
      input_token_details: { cache_read: 40, audio: 3 },
      output_token_details: { reasoning: 9 }
    }),
    id: 'u1',
    task_id: 't1',
    request_data: { messages: ['a long prompt'] },
    response_data: { text: 'a long answer' }
  } as CostUsage
  const records: CostUsage[] = [
    full,
    // LangChain's key only.
    usage(0.5, { input_token_details: { cache_read: 12 } }),
    // Cache reads the provider did not report.
    usage(0.25),
    // Numbers the cost model would not read, and no metadata at all: counted as 0 there.
    {
      ...usage(Number.NaN),
      usage_metadata: {
        input_tokens: Number.POSITIVE_INFINITY,
        output_tokens: Number.NaN,
        total_tokens: Number.NaN,
        cache_read_tokens: Number.NaN,
        input_token_details: { cache_read: 5 }
      }
    },
    { ...usage(0.5), usage_metadata: undefined as never }
  ]

  it('keeps what the cost model reads, so a task costs the same from it', () => {
    const compact = records.map(compactUsage)
    expect(taskCost(compact, 1.375)).toEqual(taskCost(records, 1.375))
    expect(taskCost(compact, 1.375).cacheReadTokens).toBe(57)
  })

  it('leaves out the provider’s request and response and everything else the cost model does not read', () => {
    expect(compactUsage(full)).toEqual({
      provider: 'openai',
      model: 'gpt-5',
      final_price: 0.125,
      created_at: '2026-11-20T10:00:00.000Z',
      usage_metadata: { input_tokens: 100, output_tokens: 20, total_tokens: 120, cache_read_tokens: 40 }
    })
    expect(compactUsage(records[1]!).usage_metadata).toEqual({
      input_tokens: 100,
      output_tokens: 20,
      total_tokens: 120,
      cache_read_tokens: 12
    })
    expect(compactUsage(records[2]!).usage_metadata).toEqual({
      input_tokens: 100,
      output_tokens: 20,
      total_tokens: 120
    })
    expect(compactUsage(records[4]!)).toEqual({
      ...usage(0.5),
      usage_metadata: { input_tokens: 0, output_tokens: 0, total_tokens: 0 }
    })
  })

  it('always reads back whole from the file', () => {
    const doc = { version: 1, tasks: { c1: { t1: entry(records.map(compactUsage)) } } }
    const back = read(JSON.stringify(doc))
    expect(back.finding).toBeUndefined()
    expect(back.doc.tasks.c1!.t1!.usages).toEqual(records.map(compactUsage))
    expect(back.doc.tasks.c1!.t1!.usages[3]).toEqual({
      ...usage(0),
      usage_metadata: { input_tokens: 0, output_tokens: 0, total_tokens: 0, cache_read_tokens: 5 }
    })
  })
})
