// The end-to-end test host (test equipment, never shipped): the reference service, the real
// controller on a temp settings dir, and an HTTP server that serves the built renderer with a
// bridge standing in for Electron's preload. What the renderer does here, it does in the app:
// only the transport differs.
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createAppController, type AppController } from '../../src/core/app'
import { createSessionSecretStore } from '../../src/core/secrets'
import { createServiceClient } from '../../src/core/client'
import { openSettings } from '../../src/core/settings/store'
import { startReferenceService, type ReferenceService } from '../../src/reference-service'
import type { PollingPrefs } from '../../src/shared/settings'
import type { HostRecords } from './control-routes'
import { startHostServer } from './server'

export const DEFAULT_RENDERER_DIR = fileURLToPath(new URL('../../out/renderer', import.meta.url))

/** Fast enough that a demo task visibly changes within seconds. */
export const HOST_POLLING: PollingPrefs = { activeIntervalMs: 1_000, idleIntervalMs: 5_000, maxConcurrency: 4 }

export interface TestHostOptions {
  /** Default 0: any free port. */
  port?: number
  /** Start the demo (connection, watched demo projects) before returning. */
  demo?: boolean
  service?: { seed?: number; speed?: number; manualClock?: boolean; publishingDomain?: string }
  /** Default: a fresh temp dir, removed on close. */
  settingsDir?: string
  /** Default out/renderer when built there; null serves a placeholder page. */
  rendererDir?: string | null
  polling?: PollingPrefs
}

export interface TestHost {
  /** The page to open, e.g. http://127.0.0.1:40123/ */
  url: string
  controller: AppController
  service: ReferenceService
  /** The reference service's key, for tests that save a connection through the UI. */
  serviceApiKey: string
  settingsDir: string
  /** Notifications the controller showed, and links it opened, in order. */
  records: HostRecords
  /** Errors that reached the user as 'internal' (a test may assert there were none). */
  internalErrors: unknown[]
  /** What main would have logged, e.g. a request refused by the sender check. */
  log: string[]
  close(): Promise<void>
}

export async function startTestHost(options: TestHostOptions = {}): Promise<TestHost> {
  const serviceApiKey = `host-${randomBytes(12).toString('hex')}`
  const service = await startReferenceService({
    apiKey: serviceApiKey,
    port: 0,
    seed: options.service?.seed ?? 1,
    // At 10× the demo's running task finishes within a few seconds.
    speed: options.service?.speed ?? 10,
    manualClock: options.service?.manualClock ?? false,
    ...(options.service?.publishingDomain ? { publishingDomain: options.service.publishingDomain } : {})
  })
  const ownDir = options.settingsDir === undefined
  const settingsDir = options.settingsDir ?? (await mkdtemp(join(tmpdir(), 'agent-tray-host-')))
  const settings = await openSettings({ dir: settingsDir })
  const polling = options.polling ?? HOST_POLLING
  await settings.update((draft) => {
    draft.polling = { ...polling }
  })

  const records: HostRecords = { notifications: [], opened: [] }
  const internalErrors: unknown[] = []
  const log: string[] = []
  const controller = createAppController({
    settings,
    secrets: createSessionSecretStore('Keys are kept in memory by the test host.'),
    createClient: (connection, apiKey, options) => createServiceClient({ ...options, baseUrl: connection.baseUrl, apiKey }),
    openExternal: async (url) => {
      records.opened.push(url)
    },
    startDemo: async () => ({
      baseUrl: service.url,
      apiKey: serviceApiKey,
      publishingDomain: service.publishingDomain,
      projectIds: service.control.seedDemo().projectIds
    }),
    notify: (n) => records.notifications.push(n),
    onError: (context, error) => internalErrors.push({ context, error })
  })
  await controller.start()

  const rendererDir =
    options.rendererDir !== undefined
      ? options.rendererDir
      : existsSync(join(DEFAULT_RENDERER_DIR, 'index.html'))
        ? DEFAULT_RENDERER_DIR
        : null
  const server = await startHostServer({
    port: options.port ?? 0,
    rendererDir,
    controller,
    service,
    records,
    onInternalError: (channel, error) => internalErrors.push({ channel, error }),
    log: (message) => log.push(message)
  })
  if (options.demo) await controller.handlers['demo:start']()

  let closed = false
  return {
    url: `${server.url}/`,
    controller,
    service,
    serviceApiKey,
    settingsDir,
    records,
    internalErrors,
    log,
    async close() {
      if (closed) return
      closed = true
      await server.close()
      await controller.stop()
      await service.close()
      if (ownDir) await rm(settingsDir, { recursive: true, force: true })
    }
  }
}
