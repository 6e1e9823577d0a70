// Every non-2xx answer, interface and control routes alike, has the one body `{"error": {code, message, field?}}`, so
// a client parses one shape; `field` names the offending request field of a bad_request.
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
