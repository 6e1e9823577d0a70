// Demo mode: a reference service on loopback with a fresh random key and seeded projects, so
// tasks run, notifications fire and costs grow within the first minute. Plain Node.
import { randomBytes } from 'node:crypto'
import type { DemoService } from '../core/app/ports'
import type { ReferenceService } from '../reference-service'
import { startReferenceService } from '../reference-service'

export interface DemoRunner {
  /** Starts the service once (later calls reuse it) and seeds a fresh set of demo projects. */
  start(): Promise<DemoService>
  close(): Promise<void>
}

export function createDemoRunner(options: { seed?: number } = {}): DemoRunner {
  let service: Promise<{ svc: ReferenceService; apiKey: string }> | null = null
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
        return { svc, apiKey }
      })()
      const { svc, apiKey } = await service
      const { projectIds } = svc.control.seedDemo()
      return { baseUrl: svc.url, apiKey, publishingDomain: svc.publishingDomain, projectIds }
    },
    async close() {
      const s = service
      service = null
      if (s) await (await s).svc.close()
    }
  }
}
