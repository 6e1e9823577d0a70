// Demo mode: a reference service on loopback with a fresh random key and seeded projects, so
// tasks run, notifications fire and costs grow within the first minute; beside it a fake of each agent service with
// its own key and seeded tasks (a Jules plan waiting for approval). Plain Node.
import { randomBytes } from 'node:crypto'
import type { DemoAgentService, DemoService } from '../core/app/ports'
import { serviceDescriptor } from '../core/providers/registry'
import type { AgentFake, ReferenceService } from '../reference-service'
import { AGENT_FAKE_KINDS, startAgentFake, startReferenceService } from '../reference-service'

export interface DemoRunner {
  /** Starts the service once (later calls reuse it) and seeds a fresh set of demo projects. */
  start(): Promise<DemoService>
  close(): Promise<void>
}

export function createDemoRunner(options: { seed?: number } = {}): DemoRunner {
  let service: Promise<{
    svc: ReferenceService
    apiKey: string
    agents: { fake: AgentFake; apiKey: string }[]
  }> | null = null
  return {
    async start() {
      service ??= (async () => {
        // Never a fixed key: anything on this machine could otherwise talk to the demo service.
        const apiKey = randomBytes(24).toString('base64url')
        const svc = await startReferenceService({
          apiKey,
          port: 0,
          host: '127.0.0.1',
          speed: 1,
          seed: options.seed ?? Date.now() % 100_000
        })
        // A fake of each agent service beside it, each with its own fresh key.
        const agents = await Promise.all(
          AGENT_FAKE_KINDS.map(async (kind) => {
            const key = randomBytes(24).toString('base64url')
            return {
              fake: await startAgentFake(kind, { apiKey: key, port: 0, host: '127.0.0.1', speed: 1 }),
              apiKey: key
            }
          })
        )
        return { svc, apiKey, agents }
      })()
      const { svc, apiKey, agents } = await service
      const { projectIds } = svc.control.seedDemo()
      const accounts: DemoAgentService[] = agents.map(({ fake, apiKey: key }) => {
        fake.control.seedDemo()
        return {
          service: fake.kind,
          name: `Demo ${serviceDescriptor(fake.kind)?.displayName ?? fake.kind}`,
          baseUrl: fake.baseUrl,
          apiKey: key
        }
      })
      return { baseUrl: svc.url, apiKey, publishingDomain: svc.publishingDomain, projectIds, agents: accounts }
    },
    async close() {
      const s = service
      service = null
      if (!s) return
      const { svc, agents } = await s
      await Promise.all([svc.close(), ...agents.map(({ fake }) => fake.close())])
    }
  }
}
