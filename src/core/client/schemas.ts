// Tolerant schemas (ARCHITECTURE.md, "What the client relies on"): unknown keys and enum values never fail. What a
// record cannot do without fails it, and parse.ts drops and reports it.
import { z } from 'zod'
import { isJsonObject } from '../../shared/json-object'
import {
  type FileRequirement,
  STEP_STATUSES,
  STEP_TYPES,
  type StepStatus,
  type StepType,
  TASK_STATUSES,
  type TaskStatus,
  type Unknown,
  type UsagePrice
} from '../../shared/service'
import { numberFromText } from './number-text'

type Json = Record<string, unknown>

export function rawString(v: unknown): string | undefined {
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return undefined
}

/** A string field: absent, null or an object become ''; numbers and booleans are written out. */
const text = z
  .unknown()
  .optional()
  .transform((v) => rawString(v) ?? '')

/** Identifiers are strings; a numeric id is accepted as its decimal form. */
const id = z.union([z.string().min(1, 'empty'), z.number().transform((n) => String(n))], {
  error: (issue) => (issue.input === undefined ? 'missing' : 'not a non-empty string')
})
// The providers' schemas read strings and ids by the same rule.
export { id as idField, text as textField }

/** Free-form objects (metadata, request_data, response_data) are kept raw; anything else is {}. */
const freeObject = z
  .unknown()
  .optional()
  .transform((v): Json => (isJsonObject(v) ? v : {}))

/** A list field: absent or null is []; anything else that is not a list fails the record. */
const list = z
  .array(z.unknown(), { error: 'not a list' })
  .nullish()
  .transform((v) => v ?? [])

/** A finite number, or a string that spells one ("0.012"; see number-text.ts); else undefined. */
function numberOf(v: unknown): number | undefined {
  if (typeof v === 'string') return numberFromText(v)
  return Number.isFinite(v) ? (v as number) : undefined
}

/** The price of a record is its authority: it must be there and be a number. */
const requiredNumber = z
  .unknown()
  .optional()
  .transform((v, ctx) => {
    const n = numberOf(v)
    if (n !== undefined) return n
    ctx.issues.push({ code: 'custom', message: v === undefined ? 'missing' : 'not a number', input: v })
    return z.NEVER
  })

const optionalNumber = z
  .unknown()
  .optional()
  .transform((v) => numberOf(v))

function enumWithRaw<T extends string>(known: readonly T[]) {
  return z
    .unknown()
    .optional()
    .transform((v): { value: T | Unknown; raw?: string } =>
      (known as readonly unknown[]).includes(v) ? { value: v as T } : { value: 'unknown', raw: rawString(v) }
    )
}

const fileRequirements = z
  .unknown()
  .optional()
  .transform((v): FileRequirement[] =>
    Array.isArray(v)
      ? v.filter(isJsonObject).map((f) => ({ file_type: rawString(f.file_type) ?? '', url: rawString(f.url) ?? '' }))
      : []
  )

export const projectSchema = z
  .looseObject({
    id,
    software_product_id: text,
    name: text,
    description: text,
    project_type: text,
    project_template_type: text,
    created_at: text,
    updated_at: text,
    user_email: text,
    prebuilt_url: text,
    return_url: text,
    ref_id: text
  })
  .transform((p) => ({
    id: p.id,
    software_product_id: p.software_product_id,
    name: p.name,
    description: p.description,
    project_type: p.project_type,
    project_template_type: p.project_template_type,
    created_at: p.created_at,
    updated_at: p.updated_at,
    user_email: p.user_email,
    prebuilt_url: p.prebuilt_url,
    return_url: p.return_url,
    ref_id: p.ref_id
  }))

export const stepSchema = z
  .looseObject({
    id,
    task_id: text,
    name: text,
    description: text,
    status: enumWithRaw<StepStatus>(STEP_STATUSES),
    type: z
      .unknown()
      .optional()
      .transform((v): { value: StepType | null | Unknown; raw?: string } => {
        if (v === null || v === undefined) return { value: null }
        return (STEP_TYPES as readonly unknown[]).includes(v)
          ? { value: v as StepType }
          : { value: 'unknown', raw: rawString(v) }
      }),
    metadata: freeObject,
    created_at: text,
    updated_at: text
  })
  // The `_raw` keys stay absent, not undefined: the fast path (fast.ts) must build equal objects (toStrictEqual).
  .transform((s) => ({
    id: s.id,
    task_id: s.task_id,
    name: s.name,
    description: s.description,
    status: s.status.value,
    ...(s.status.raw !== undefined ? { status_raw: s.status.raw } : {}),
    type: s.type.value,
    ...(s.type.raw !== undefined ? { type_raw: s.type.raw } : {}),
    metadata: s.metadata,
    created_at: s.created_at,
    updated_at: s.updated_at
  }))

/** A task with its steps still raw: parse.ts reads them one by one so one bad step drops alone. */
export const taskSchema = z
  .looseObject({
    id,
    project_id: text,
    name: text,
    description: text,
    status: enumWithRaw<TaskStatus>(TASK_STATUSES),
    text_requirement: text,
    files_requirement: fileRequirements,
    created_at: text,
    updated_at: text,
    steps: list,
    branch: text,
    total_price: optionalNumber
  })
  // Optional keys absent, not undefined, as the fast path builds them.
  .transform((t) => ({
    id: t.id,
    project_id: t.project_id,
    name: t.name,
    description: t.description,
    status: t.status.value,
    ...(t.status.raw !== undefined ? { status_raw: t.status.raw } : {}),
    text_requirement: t.text_requirement,
    files_requirement: t.files_requirement,
    created_at: t.created_at,
    updated_at: t.updated_at,
    rawSteps: t.steps,
    branch: t.branch,
    total_price: t.total_price ?? null
  }))

/** A finite number: zod's number refuses Infinity (JSON's 1e400), 'not a number' too. */
const tokenCount = z.number({
  error: (issue) => (issue.input === undefined ? 'missing' : 'not a number')
})

/** Token details keep only numeric entries: providers add their own keys. */
const tokenDetails = z
  .unknown()
  .optional()
  .transform((v): Record<string, number> | undefined => {
    if (!isJsonObject(v)) return undefined
    const out: Record<string, number> = {}
    for (const [k, n] of Object.entries(v)) {
      if (Number.isFinite(n)) out[k] = n as number
    }
    return out
  })

const usageMetadata = z
  .looseObject(
    {
      input_tokens: tokenCount,
      output_tokens: tokenCount,
      total_tokens: tokenCount,
      cache_read_tokens: optionalNumber,
      input_token_details: tokenDetails,
      output_token_details: tokenDetails
    },
    { error: (issue) => (issue.input === undefined ? 'missing' : 'not an object') }
  )
  // Optional keys absent, not undefined, as the fast path builds them.
  .transform((m) => ({
    input_tokens: m.input_tokens,
    output_tokens: m.output_tokens,
    total_tokens: m.total_tokens,
    ...(m.cache_read_tokens !== undefined ? { cache_read_tokens: m.cache_read_tokens } : {}),
    ...(m.input_token_details !== undefined ? { input_token_details: m.input_token_details } : {}),
    ...(m.output_token_details !== undefined ? { output_token_details: m.output_token_details } : {})
  }))

const price = z
  .unknown()
  .optional()
  .transform((v): UsagePrice => {
    if (!isJsonObject(v)) return {}
    const out: UsagePrice = {}
    for (const key of ['input_price', 'output_price', 'cache_read_price', 'total_price'] as const) {
      const n = numberOf(v[key])
      if (n !== undefined) out[key] = n
    }
    return out
  })

export const usageSchema = z
  .looseObject({
    id,
    task_id: text,
    usage_type: text,
    provider: text,
    model: text,
    remark: text,
    request_data: freeObject,
    response_data: freeObject,
    usage_metadata: usageMetadata,
    price,
    final_price: requiredNumber,
    created_at: text,
    updated_at: text
  })
  .transform((u) => ({
    id: u.id,
    task_id: u.task_id,
    usage_type: u.usage_type,
    provider: u.provider,
    model: u.model,
    remark: u.remark,
    request_data: u.request_data,
    response_data: u.response_data,
    usage_metadata: u.usage_metadata,
    price: u.price,
    final_price: u.final_price,
    created_at: u.created_at,
    updated_at: u.updated_at
  }))

export const stepsAndUsagesSchema = z.looseObject({ steps: list, usages: list }, { error: 'not an object' })

export const publishSchema = z
  .looseObject(
    {
      status: z.enum(['success', 'failed'], {
        error: (issue) => (issue.input === undefined ? 'missing' : 'neither "success" nor "failed"')
      }),
      message: z
        .unknown()
        .optional()
        .transform((v): string[] => {
          if (Array.isArray(v)) return v.map(rawString).filter((s): s is string => s !== undefined)
          const one = rawString(v)
          return one === undefined || one === '' ? [] : [one]
        })
    },
    { error: 'not an object' }
  )
  .transform((p) => ({ status: p.status, message: p.message }))
