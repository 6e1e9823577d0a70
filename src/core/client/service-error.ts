// The client's one error type: a kind a caller can act on, a message a person can read, and
// never the API key (messages are redacted before an error is built, see client.ts).
import { isJsonObject } from '../../shared/json-object'
import type { ServiceErrorInfo, ServiceErrorKind } from '../../shared/monitor'

/** What exactly was wrong, mainly for invalid_response. */
export interface ServiceErrorDetails {
  reason?: 'not_json' | 'wrong_shape' | 'invalid_record' | 'too_large' | 'empty' | 'bad_encoding'
  /** The record that could not be read, e.g. 'project' or 'publish result'. */
  record?: string
  /** Where in the body, e.g. 'steps[2].id'. */
  path?: string
  /** The field the server named in its own error body. */
  field?: string
}

export interface ServiceErrorOptions {
  status?: number
  retryAfterMs?: number
  details?: ServiceErrorDetails
}

export class ServiceError extends Error {
  readonly kind: ServiceErrorKind
  readonly status?: number
  readonly retryAfterMs?: number
  readonly details?: ServiceErrorDetails

  constructor(kind: ServiceErrorKind, message: string, options: ServiceErrorOptions = {}) {
    super(message)
    this.name = 'ServiceError'
    this.kind = kind
    this.status = options.status
    this.retryAfterMs = options.retryAfterMs
    this.details = options.details
  }

  toInfo(): ServiceErrorInfo {
    const info: ServiceErrorInfo = { kind: this.kind, message: this.message }
    if (this.status !== undefined) info.status = this.status
    if (this.retryAfterMs !== undefined) info.retryAfterMs = this.retryAfterMs
    return info
  }

  toJSON(): ServiceErrorInfo & { details?: ServiceErrorDetails } {
    return this.details ? { ...this.toInfo(), details: this.details } : this.toInfo()
  }
}

export function isServiceError(e: unknown): e is ServiceError {
  return e instanceof ServiceError
}

const MAX_SERVER_TEXT = 200

/** Shortens text for a message: one line, at most `max` characters. */
export function shorten(text: string, max = MAX_SERVER_TEXT): string {
  const oneLine = text.replace(/\s+/g, ' ').trim()
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`
}

/** A list of messages reads as one sentence per entry. */
const LIST_SEPARATOR = '; '

const nonBlank = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined)

/** A message field's text: a non-blank string, or a list's strings (or its entries' `message`/`msg`) joined. Never recursive. */
function textOf(v: unknown): string | undefined {
  if (!Array.isArray(v)) return nonBlank(v)
  const parts = v
    .map((item) => (isJsonObject(item) ? (nonBlank(item.message) ?? nonBlank(item.msg)) : nonBlank(item)))
    .filter((s) => s !== undefined)
  return parts.length > 0 ? parts.join(LIST_SEPARATOR) : undefined
}

/** The message fields of an error object, most specific first (`title` is RFC 9457's summary). */
const messageIn = (o: Record<string, unknown>): string | undefined =>
  textOf(o.message) ?? textOf(o.detail) ?? textOf(o.errors) ?? textOf(o.title)

/** The words of a parsed error body, in the shapes services of this family use (message, detail, errors, error). */
function wordsOf(parsed: unknown): { text: string; field?: string | undefined } | undefined {
  const bare = textOf(parsed)
  if (bare !== undefined) return { text: bare }
  if (!isJsonObject(parsed)) return undefined
  const err = parsed.error
  if (isJsonObject(err)) {
    const text = messageIn(err)
    if (text !== undefined) return { text, field: nonBlank(err.field) }
  }
  const text = messageIn(parsed) ?? textOf(err)
  return text === undefined ? undefined : { text }
}

/** The server's words from an error body on one line. `redact` runs before shortening, so a secret is never cut in
 * two and half kept. */
export function serverText(
  body: string,
  redact: (text: string) => string = (t) => t
): { text?: string; field?: string } {
  const trimmed = body.trim()
  if (trimmed === '') return {}
  const say = (text: string, max?: number): string => shorten(redact(text), max)
  let parsed: unknown
  try {
    parsed = JSON.parse(trimmed)
  } catch {
    // Not JSON: plain text, whose words are all of it (wordsOf of nothing is undefined).
  }
  const words = wordsOf(parsed)
  if (words === undefined) return { text: say(trimmed) }
  return words.field !== undefined ? { text: say(words.text), field: say(words.field, 100) } : { text: say(words.text) }
}

function describeWait(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.ceil(ms / 1000)} s`
}

/** Maps a non-2xx answer to a ServiceError (ARCHITECTURE.md, "What the client relies on"); `redact` as for serverText. */
export function errorForStatus(
  status: number,
  body: string,
  retryAfterMs?: number,
  redact?: (text: string) => string
): ServiceError {
  const { text, field } = serverText(body, redact)
  const said = text ? ` Server said: ${text}` : ''
  const details: ServiceErrorDetails | undefined = field ? { field } : undefined
  const opts = (extra: ServiceErrorOptions = {}): ServiceErrorOptions => ({ status, details, ...extra })
  if (status === 401 || status === 403) {
    return new ServiceError('auth', `The API key was rejected (HTTP ${status}): check or replace it.${said}`, opts())
  }
  if (status === 404) {
    return new ServiceError('not_found', `Not found (HTTP 404): this project or task is gone.${said}`, opts())
  }
  if (status === 429 || status === 503) {
    const wait = retryAfterMs !== undefined ? ` The service asked to wait ${describeWait(retryAfterMs)}.` : ''
    return new ServiceError(
      'rate_limited',
      `The service is busy (HTTP ${status}): backing off.${wait}${said}`,
      opts({ retryAfterMs })
    )
  }
  if (status >= 500) {
    return new ServiceError('server', `The service failed (HTTP ${status}).${said}`, opts())
  }
  if (status === 413) {
    return new ServiceError('bad_request', `The service refused the request as too large (HTTP 413).${said}`, opts())
  }
  return new ServiceError('bad_request', `The service refused the request (HTTP ${status}).${said}`, opts())
}
