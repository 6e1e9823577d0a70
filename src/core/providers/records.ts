// Reading a provider's list bodies as client/parse.ts reads Workser's: a body that is not the expected shape is
// invalid_response; one broken record is dropped and reported, never fatal to its siblings.
import type { z } from 'zod'
import { isJsonObject } from '../../shared/json-object'
import { ServiceError } from '../client/service-error'

export { decodeJson } from '../client/parse'

/** One record of a list that could not be read; it was dropped, its siblings were kept. */
export interface DroppedRecord {
  resource: string
  index: number
  id?: string
  path: string
  message: string
}

export type ReportDropped = (issue: DroppedRecord) => void

function invalidShape(what: string, why: string): ServiceError {
  return new ServiceError('invalid_response', `The service sent ${what} we cannot read (${why}).`, {
    details: { reason: 'wrong_shape', record: what }
  })
}

/** `json[key]` as a list (absent or null: empty), each item read by `schema`; items that fail are reported and skipped. */
export function readList<S extends z.ZodType>(
  json: unknown,
  key: string,
  schema: S,
  resource: string,
  report: ReportDropped
): z.output<S>[] {
  // Named by its field, already plural (tasks, sessions, activities): a resource plus "s" made "activitys".
  if (!isJsonObject(json)) throw invalidShape(`a list of ${key}`, 'not an object')
  const items = json[key]
  if (items === undefined || items === null) return []
  if (!Array.isArray(items)) throw invalidShape(`a list of ${key}`, `"${key}" is not a list`)
  const out: z.output<S>[] = []
  items.forEach((item, index) => {
    const parsed = schema.safeParse(item)
    if (parsed.success) {
      out.push(parsed.data)
      return
    }
    const issue = parsed.error.issues[0]
    const id = isJsonObject(item) && typeof item.id === 'string' ? item.id : undefined
    const path = [`${key}[${index}]`, ...(issue?.path ?? []).map(String)].join('.')
    try {
      report({ resource, index, ...(id !== undefined ? { id } : {}), path, message: issue?.message ?? 'invalid' })
    } catch {
      // A failing listener must not cost the caller the records that did parse.
    }
  })
  return out
}

/** A single record read by `schema`; a failure is invalid_response naming the first problem. */
export function readOne<S extends z.ZodType>(json: unknown, schema: S, what: string): z.output<S> {
  const parsed = schema.safeParse(json)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : ''
  throw invalidShape(what, `${where}${issue?.message ?? 'invalid'}`)
}
