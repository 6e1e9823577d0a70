// Every non-2xx answer of the service (interface and control routes alike) has this one body:
//
//   {"error": {"code": "unauthorized" | "not_found" | "bad_request" | "payload_too_large" |
//              "method_not_allowed" | "rate_limited" | "internal" | "misdirected",
//              "message": "a sentence for a person",
//              "field": "the offending field, only for bad_request"}}
//
// `field` names the request field (e.g. `user_email`, `files_requirement[1].url`, or `body`
// when the body itself is not a JSON object).
import type { ErrorCode, WireError } from './types'

const STATUS: Record<ErrorCode, number> = {
  unauthorized: 401,
  not_found: 404,
  bad_request: 400,
  payload_too_large: 413,
  method_not_allowed: 405,
  rate_limited: 429,
  internal: 500,
  misdirected: 421
}

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    /** Overrides the usual status of the code (e.g. 503 for `internal`). */
    readonly status: number = STATUS[code],
    readonly headers: Record<string, string> = {}
  ) {
    super(message)
  }

  body(): WireError {
    return {
      error: { code: this.code, message: this.message, field: this.field }
    }
  }
}

export const badRequest = (field: string, message: string): ApiError => new ApiError('bad_request', message, field)
export const notFound = (message: string): ApiError => new ApiError('not_found', message)
