// usage-cache.json: the usage records fetched for cost reports, kept next to state.json so a
// restart does not download them again. It is a cache: a damaged file is kept aside and rebuilt
// (what could be read of it is kept, entry by entry), never an error the user has to act on.
import { z } from 'zod'
import type { CostUsage } from '../../shared/cost'
import { readJsonObject } from '../settings/damage'
import type { Interpreted } from '../settings/config-document'
import { lenientRecord } from '../settings/schema'

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
export function interpretUsageCache(raw: Buffer | null): Interpreted<UsageCacheDocument> {
  if (raw === null) return { doc: freshUsageCache(), rewrite: false, damage: null }
  const json = readJsonObject(raw)
  if (!json.ok) return { doc: freshUsageCache(), rewrite: true, damage: json.damage }
  const version = json.value.version
  // A newer file's layout is its own business: start a cache of ours (the newer one is kept aside).
  if (typeof version === 'number' && version > USAGE_CACHE_VERSION) {
    return { doc: freshUsageCache(), rewrite: true, damage: { kind: 'newer-version', reset: [], version } }
  }
  const byConnection = lenientRecord(lenientRecord(entrySchema)).parse(json.value.tasks)
  let dropped = 0
  const tasks: UsageCacheDocument['tasks'] = {}
  const rawTasks = json.value.tasks as Record<string, Record<string, unknown>> | undefined
  for (const [connectionId, entries] of Object.entries(byConnection)) {
    const kept: Record<string, CachedTaskUsages> = {}
    for (const [taskId, entry] of Object.entries(entries)) {
      // Records cut off by damage would undercount the task: drop the entry, it is fetched again.
      const original = rawTasks?.[connectionId]?.[taskId] as { usages?: unknown } | undefined
      if (json.isPartial(original) || json.isPartial(original?.usages)) dropped++
      else kept[taskId] = entry
    }
    tasks[connectionId] = kept
  }
  const countRaw = Object.values(rawTasks && typeof rawTasks === 'object' ? rawTasks : {}).reduce(
    (n, entries) => n + (entries && typeof entries === 'object' ? Object.keys(entries).length : 0),
    0
  )
  const keptCount = Object.values(tasks).reduce((n, entries) => n + Object.keys(entries).length, 0)
  const invalid = countRaw - keptCount - dropped > 0 || version !== USAGE_CACHE_VERSION
  const damage = json.damage ?? (invalid || dropped > 0 ? 'invalid' : null)
  return { doc: { version: USAGE_CACHE_VERSION, tasks }, rewrite: damage !== null, damage: damage ? { kind: damage, reset: [] } : null }
}

/** The compact copy kept of a record: what the cost model reads, without the provider's request and response. */
export function compactUsage(usage: CostUsage): CostUsage {
  const m = usage.usage_metadata
  const cacheRead =
    typeof m?.cache_read_tokens === 'number' ? m.cache_read_tokens : typeof m?.input_token_details?.cache_read === 'number' ? m.input_token_details.cache_read : undefined
  const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0)
  return {
    provider: String(usage.provider),
    model: String(usage.model),
    final_price: num(usage.final_price),
    created_at: String(usage.created_at),
    usage_metadata: {
      input_tokens: num(m?.input_tokens),
      output_tokens: num(m?.output_tokens),
      total_tokens: num(m?.total_tokens),
      ...(cacheRead !== undefined && Number.isFinite(cacheRead) ? { cache_read_tokens: cacheRead } : {})
    }
  }
}
