// The reference service's public surface.
export type { AgentFake, AgentFakeControl, AgentFakeKind, AgentFakeOptions, AgentTaskInput } from './agent-fake'
export { AGENT_FAKE_KINDS } from './agent-fake'
export { startAgentFake } from './agent-fakes'
export { MAX_BODY_BYTES } from './http'
export { startReferenceService } from './server'
export type * from './types'
export { DEFAULT_PUBLISHING_DOMAIN, MANUAL_START_TIME } from './types'
