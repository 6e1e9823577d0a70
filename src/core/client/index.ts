// The service client's public face: what src/main, src/cli and the benchmarks code against.
export { checkBaseUrl, createServiceClient, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUTS, USER_AGENT } from './client'
export type { ServiceClient, ServiceClientOptions, TaskCreate, TasksIfChanged } from './client'
export { ServiceError, isServiceError } from './errors'
export type { ServiceErrorDetails } from './errors'
export type { InvalidRecordIssue } from './parse'
export { parseRetryAfter, retryDelay, DEFAULT_RETRY } from './retry'
export type { RetryPolicy } from './retry'
