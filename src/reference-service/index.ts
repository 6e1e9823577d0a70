// The reference service's public surface.
export { MAX_BODY_BYTES } from './http'
export { startReferenceService } from './server'
export type * from './types'
export { DEFAULT_PUBLISHING_DOMAIN, MANUAL_START_TIME } from './types'
