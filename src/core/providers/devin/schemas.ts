// Tolerant schemas for Devin's bodies (mapping.ts names the pages), v3 and v1 read into one shape: extra fields and
// unknown words never fail a record; a session or message without its id does, and is dropped alone.
import { z } from 'zod'
import { isJsonObject } from '../../../shared/json-object'
import { rawString, textField as text } from '../../client/schemas'

export type DevinApi = 'v1' | 'v3'

export interface DevinSession {
  api: DevinApi
  id: string
  title: string
  /** v3's status, or v1's free-text status. */
  status: string
  /** v3 only. */
  statusDetail: string | null
  /** v1 only. */
  statusEnum: string | null
  url: string | null
  createdAt: string | null
  updatedAt: string | null
  /** ACUs consumed (v3); null when the service does not say. */
  acus: number | null
  pullRequests: string[]
}

export interface DevinMessage {
  id: string
  /** v3's source ("devin", "user"), or v1's type. */
  source: string
  fromDevin: boolean
  text: string
  at: string | null
}

const anything = z.unknown().optional()
const nonEmpty = (v: string): string | null => (v === '' ? null : v)

/** v3 times are Unix seconds, v1's ISO strings; either is read as ISO (a number past 1e12 is already ms). */
export function isoTime(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v) && v > 0) {
    const d = new Date(v > 1e12 ? v : v * 1000)
    return Number.isNaN(d.getTime()) ? null : d.toISOString()
  }
  if (typeof v === 'string' && v !== '' && !Number.isNaN(Date.parse(v))) return v
  return null
}

function acus(v: unknown): number | null {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null
}

function prUrls(v: unknown): string[] {
  const list = Array.isArray(v) ? v : isJsonObject(v) ? [v] : []
  return list.flatMap((pr) => {
    if (!isJsonObject(pr)) return []
    const url = rawString(pr.pr_url ?? pr.url)
    return url ? [url] : []
  })
}

function requireId(id: string, ctx: z.RefinementCtx, input: unknown): boolean {
  if (id !== '') return true
  ctx.issues.push({ code: 'custom', message: 'no session_id', input, path: ['session_id'] })
  return false
}

/** A v3 SessionResponse. */
export const v3SessionSchema = z
  .looseObject({
    session_id: text,
    title: text,
    status: text,
    status_detail: text,
    url: text,
    created_at: anything,
    updated_at: anything,
    acus_consumed: anything,
    pull_requests: anything
  })
  .transform((s, ctx): DevinSession => {
    if (!requireId(s.session_id, ctx, s)) return z.NEVER
    return {
      api: 'v3',
      id: s.session_id,
      title: s.title,
      status: s.status,
      statusDetail: nonEmpty(s.status_detail),
      statusEnum: null,
      url: nonEmpty(s.url),
      createdAt: isoTime(s.created_at),
      updatedAt: isoTime(s.updated_at),
      acus: acus(s.acus_consumed),
      pullRequests: prUrls(s.pull_requests)
    }
  })

/** A v1 SessionSummary (the list) or the session's details (with its messages). */
export const v1SessionSchema = z
  .looseObject({
    session_id: text,
    title: text,
    status: text,
    status_enum: text,
    url: text,
    created_at: anything,
    updated_at: anything,
    pull_request: anything
  })
  .transform((s, ctx): DevinSession => {
    if (!requireId(s.session_id, ctx, s)) return z.NEVER
    return {
      api: 'v1',
      id: s.session_id,
      title: s.title,
      status: s.status,
      statusDetail: null,
      statusEnum: nonEmpty(s.status_enum),
      url: nonEmpty(s.url),
      createdAt: isoTime(s.created_at),
      updatedAt: isoTime(s.updated_at),
      acus: null,
      pullRequests: prUrls(s.pull_request)
    }
  })

/** A SessionMessage: v3's {event_id, message, source, created_at}; v1's carry a type and a timestamp instead. */
export const messageSchema = z
  .looseObject({
    event_id: text,
    message: text,
    source: text,
    type: text,
    created_at: anything,
    timestamp: anything
  })
  .transform((m, ctx): DevinMessage => {
    if (m.event_id === '') {
      ctx.issues.push({ code: 'custom', message: 'no event_id', input: m, path: ['event_id'] })
      return z.NEVER
    }
    const source = m.source || m.type
    return {
      id: m.event_id,
      source,
      fromDevin: source === 'devin' || source.startsWith('devin_'),
      text: m.message,
      at: isoTime(m.created_at ?? m.timestamp)
    }
  })

/** GET /v3/self: the credential's organization (null for an enterprise service user). */
export const selfSchema = z.looseObject({ org_id: text }).transform((s) => ({ orgId: nonEmpty(s.org_id) }))
