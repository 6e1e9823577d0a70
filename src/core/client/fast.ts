// Records already exactly as typed skip zod and build the same objects; anything else goes the schemas' way, for their
// tolerance and messages (parse.fast.test.ts checks both paths agree).
import { isJsonObject } from '../../shared/json-object'
import {
  type FileRequirement,
  STEP_STATUSES,
  STEP_TYPES,
  type Task,
  TASK_STATUSES,
  type TaskStep
} from '../../shared/service'
import { rawString } from './schemas'

const TASK_STATUS = new Set<string>(TASK_STATUSES)
const STEP_STATUS = new Set<string>(STEP_STATUSES)
const STEP_TYPE = new Set<string>(STEP_TYPES)

/** A marker: the value is not one the fast path takes as is. */
const NO = Symbol('no')

type Json = Record<string, unknown>

function plain(v: unknown): v is Json {
  if (v === null || typeof v !== 'object') return false
  const proto = Object.getPrototypeOf(v) as unknown
  return proto === Object.prototype
}

/** A string field: strings as they are, absent or null as ''. */
function str(v: unknown): string | typeof NO {
  if (typeof v === 'string') return v
  return v === undefined || v === null ? '' : NO
}

function files(v: unknown): FileRequirement[] {
  if (!Array.isArray(v)) return []
  const out: FileRequirement[] = []
  for (const f of v as unknown[]) {
    if (isJsonObject(f)) out.push({ file_type: rawString(f.file_type) ?? '', url: rawString(f.url) ?? '' })
  }
  return out
}

export type TaskHead = Omit<Task, 'steps'>

/** A task's own fields and its raw steps, or undefined when the schema must look at it. */
export function fastTask(v: unknown): { task: TaskHead; rawSteps: unknown[] } | undefined {
  if (!plain(v)) return undefined
  const id = v.id
  if (typeof id !== 'string' || id === '') return undefined
  const status = v.status
  if (typeof status !== 'string' || !TASK_STATUS.has(status)) return undefined
  const price = v.total_price
  if (!(price === null || price === undefined || (typeof price === 'number' && Number.isFinite(price))))
    return undefined
  const steps = v.steps
  if (!(steps === undefined || steps === null || Array.isArray(steps))) return undefined
  const project_id = str(v.project_id)
  const name = str(v.name)
  const description = str(v.description)
  const text_requirement = str(v.text_requirement)
  const created_at = str(v.created_at)
  const updated_at = str(v.updated_at)
  const branch = str(v.branch)
  if (
    project_id === NO ||
    name === NO ||
    description === NO ||
    text_requirement === NO ||
    created_at === NO ||
    updated_at === NO ||
    branch === NO
  ) {
    return undefined
  }
  return {
    task: {
      id,
      project_id,
      name,
      description,
      status: status as Task['status'],
      text_requirement,
      files_requirement: files(v.files_requirement),
      created_at,
      updated_at,
      branch,
      total_price: price ?? null
    },
    rawSteps: (steps ?? []) as unknown[]
  }
}

/** The one rule for fastStep and for the digest, which reads such a step's fields without copying it. */
export function isFastStep(v: unknown): v is Json {
  if (!plain(v)) return false
  const id = v.id
  if (typeof id !== 'string' || id === '') return false
  const status = v.status
  if (typeof status !== 'string' || !STEP_STATUS.has(status)) return false
  const type = v.type
  if (!(type === null || type === undefined || (typeof type === 'string' && STEP_TYPE.has(type)))) return false
  const metadata = v.metadata
  if (!(metadata === undefined || metadata === null || plain(metadata))) return false
  return (
    str(v.task_id) !== NO &&
    str(v.name) !== NO &&
    str(v.description) !== NO &&
    str(v.created_at) !== NO &&
    str(v.updated_at) !== NO
  )
}

/** A step, or undefined when the schema must look at it. */
export function fastStep(v: unknown): TaskStep | undefined {
  if (!isFastStep(v)) return undefined
  return {
    id: v.id as string,
    task_id: str(v.task_id) as string,
    name: str(v.name) as string,
    description: str(v.description) as string,
    status: v.status as TaskStep['status'],
    type: (v.type ?? null) as TaskStep['type'],
    metadata: (v.metadata ?? {}) as TaskStep['metadata'],
    created_at: str(v.created_at) as string,
    updated_at: str(v.updated_at) as string
  }
}
