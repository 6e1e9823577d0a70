// usage-cache.json is a cache: a damaged file is kept aside and rebuilt from its entries that read whole, never an
// error the user has to act on.
import { z } from 'zod'
import { cacheReadTokensOf, type CostUsage } from '../../shared/cost'
import { isJsonObject } from '../../shared/json-object'
import type { Interpreted } from '../settings/document-file'

export const USAGE_CACHE_FILE = 'usage-cache.json'
export const USAGE_CACHE_VERSION = 1

/** One task's usage records and the task as it was when they were fetched. */
export interface CachedTaskUsages {
  projectId: string
  /** The task's status then: an ended task's records are complete and kept for good. */
  status: string
  updatedAt: string
  totalPrice: number | null
  fetchedAt: string
  usages: CostUsage[]
}

export interface UsageCacheDocument {
  version: number
  /** connection id → task id → records. */
  tasks: Record<string, Record<string, CachedTaskUsages>>
}

const finiteNumber = z.number().refine(Number.isFinite)

const usageSchema: z.ZodType<CostUsage> = z.object({
  provider: z.string(),
  model: z.string(),
  final_price: finiteNumber,
  created_at: z.string(),
  usage_metadata: z.object({
    input_tokens: finiteNumber,
    output_tokens: finiteNumber,
    total_tokens: finiteNumber,
    cache_read_tokens: finiteNumber.optional()
  })
})

const entrySchema: z.ZodType<CachedTaskUsages> = z.object({
  projectId: z.string(),
  status: z.string(),
  updatedAt: z.string(),
  totalPrice: finiteNumber.nullable(),
  fetchedAt: z.string(),
  usages: z.array(usageSchema)
})

export function freshUsageCache(): UsageCacheDocument {
  return { version: USAGE_CACHE_VERSION, tasks: {} }
}

/** Reads what it can: an entry that does not read whole is dropped (it is fetched again when needed). */
export function interpretUsageCache(value: Record<string, unknown>): Interpreted<UsageCacheDocument> {
  const { version, tasks: rawTasks = {} } = value
  // No file yet (conf reads it as {}): nothing to tell.
  if (Object.keys(value).length === 0) return { doc: freshUsageCache(), rewrite: false }
  // A newer file's layout is its own business: start a cache of ours (the newer one is kept aside).
  if (typeof version === 'number' && version > USAGE_CACHE_VERSION) {
    return { doc: freshUsageCache(), rewrite: true, finding: { kind: 'newer-version', version } }
  }
  // Anything not kept makes the file damaged: it is kept aside and written anew.
  let dropped = version !== USAGE_CACHE_VERSION
  const members = (value: unknown): [string, unknown][] => {
    if (isJsonObject(value)) return Object.entries(value)
    dropped = true
    return []
  }
  const tasks: UsageCacheDocument['tasks'] = {}
  for (const [connectionId, entries] of members(rawTasks)) {
    const kept: Record<string, CachedTaskUsages> = (tasks[connectionId] = {})
    for (const [taskId, entry] of members(entries)) {
      const read = entrySchema.safeParse(entry)
      if (read.success) kept[taskId] = read.data
      else dropped = true
    }
  }
  return {
    doc: { version: USAGE_CACHE_VERSION, tasks },
    rewrite: dropped,
    finding: dropped ? { kind: 'invalid', wrong: [] } : undefined
  }
}

/** What the cost model reads of a record, without the provider's request and response. A non-finite number is kept as
 * 0, as it counts there, so the copy always reads back. */
export function compactUsage(usage: CostUsage): CostUsage {
  const m = usage.usage_metadata
  const cacheRead = cacheReadTokensOf(m)
  return {
    provider: String(usage.provider),
    model: String(usage.model),
    final_price: finiteOrZero(usage.final_price),
    created_at: String(usage.created_at),
    usage_metadata: {
      input_tokens: finiteOrZero(m?.input_tokens),
      output_tokens: finiteOrZero(m?.output_tokens),
      total_tokens: finiteOrZero(m?.total_tokens),
      // Left out, not undefined: a compact record equals what JSON gives back of it.
      ...(cacheRead !== null ? { cache_read_tokens: cacheRead } : {})
    }
  }
}

/** Number.isFinite is false for anything but a finite number. */
function finiteOrZero(value: unknown): number {
  return Number.isFinite(value) ? (value as number) : 0
}
