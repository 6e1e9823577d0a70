// The reference service's public surface.
export { startReferenceService } from './server'
export { MAX_BODY_BYTES } from './http'
export { DEFAULT_PUBLISHING_DOMAIN, MANUAL_START_TIME } from './types'
export type * from './types'
