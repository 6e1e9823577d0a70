// The end-to-end test host (test equipment, never shipped): the reference service, the app's own
// composition (core/app/compose.ts, as src/main/start.ts runs it) on a temp settings dir, and an
// HTTP server that serves the built renderer with a bridge standing in for Electron's preload.
// Only the ports differ from the app: IPC over HTTP, events over Server-Sent Events, a session key
// store, and records of what would reach the desktop (notifications, links, the tray, the window).
import { randomBytes } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { AppController } from '../../src/core/app'
import { composeApp, type ComposedApp } from '../../src/core/app/compose'
import type { PowerEvents } from '../../src/core/app/lifecycle'
import { createServiceClient, DEFAULT_RETRY } from '../../src/core/client'
import { serviceDescriptor } from '../../src/core/providers/registry'
import { createSessionSecretStore } from '../../src/core/secrets'
import { openSettings } from '../../src/core/settings/store'
import { type Clock, systemClock } from '../../src/core/util/clock'
import { isTrustedFrame } from '../../src/main/sender'
import {
  AGENT_FAKE_KINDS,
  type AgentFake,
  type AgentFakeKind,
  type ReferenceService,
  startAgentFake,
  startReferenceService
} from '../../src/reference-service'
import type { PollingPrefs } from '../../src/shared/settings'
import type { HostRecords } from './control-routes'
import { createEventHub } from './events'
import { createHttpIpcMain, hostMainFrame } from './ipc-over-http'
import { startHostServer } from './server'
import { createScriptedUpdater, type ScriptedUpdater } from './updater'

/** The first retry's wait in the host (the app's is DEFAULT_RETRY's 500 ms). */
const E2E_RETRY_BASE_MS = 20

export const DEFAULT_RENDERER_DIR = fileURLToPath(new URL('../../out/renderer', import.meta.url))

/** Fast enough that a demo task visibly changes within seconds. */
export const HOST_POLLING: PollingPrefs = { activeIntervalMs: 1_000, idleIntervalMs: 5_000, maxConcurrency: 4 }

export interface TestHostOptions {
  /** Default 0: any free port. */
  port?: number
  /** Start the demo (connection, watched demo projects) before returning. */
  demo?: boolean
  /** startTime: where the service's simulated clock starts (ISO); default now, or MANUAL_START_TIME with manualClock. */
  service?: {
    seed?: number
    speed?: number
    manualClock?: boolean
    startTime?: string
    publishingDomain?: string
    extensions?: boolean
    etags?: boolean
    compression?: boolean
  }
  /** Seed the GitHub and Jules fakes with their demo tasks (a GitHub task waiting for the user, a Jules plan
   * waiting for approval); default: no tasks, a spec adds its own. */
  agentDemo?: boolean
  /** Default: a fresh temp dir, removed on close. */
  settingsDir?: string
  /** Default out/renderer when built there; null serves a placeholder page. */
  rendererDir?: string | null
  polling?: PollingPrefs
  /** Shortcuts "another application" holds: the host's stand-in for the global shortcut refuses them. */
  shortcutsTaken?: string[]
  /**
   * ISO instant the app's clock starts at (then running at real speed, so its timers still fire):
   * the day and "today" a test sees are its own, not the machine's. The `app` fixture fixes the
   * page's clock at the same instant. Default: the system clock.
   */
  clockStart?: string
}

export interface TestHost {
  /** The page to open, e.g. http://127.0.0.1:40123/ */
  url: string
  /** The composed app, as main runs it. */
  app: ComposedApp
  controller: AppController
  service: ReferenceService
  /** The reference service's key, for tests that save a connection through the UI. */
  serviceApiKey: string
  /** A fake of each agent service (same clock options as the reference service), and the key each accepts: a spec adds
   * an account with `service` = the kind, `baseUrl` = the fake's baseUrl (loopback http is allowed for keys). */
  agents: Record<AgentFakeKind, { fake: AgentFake; apiKey: string }>
  settingsDir: string
  /** What reached the desktop: notifications, links opened, the tray's view, the window shown. */
  records: HostRecords
  /** Errors that reached the user as 'internal' (a test may assert there were none). */
  internalErrors: unknown[]
  /** What main would have logged, e.g. a request refused by the sender check (redacted as the log file is). */
  log: string[]
  /** The stand-in for electron-updater that control routes drive. */
  updater: ScriptedUpdater
  close(): Promise<void>
}

/** A clock that reads `startIso` now and runs on at real speed, its timers the system's. */
export function clockFrom(startIso: string): Clock {
  const start = Date.parse(startIso)
  if (!Number.isFinite(start)) throw new Error(`clockStart is not an ISO date: ${startIso}`)
  const offset = start - systemClock.now()
  return {
    now: () => systemClock.now() + offset,
    setTimeout: systemClock.setTimeout,
    clearTimeout: systemClock.clearTimeout
  }
}

/** Network events the host's control route drives: the same wiring main gets from net.isOnline(). */
function switchableNetwork() {
  const listeners = new Set<(online: boolean) => void>()
  let online = true
  return {
    watch(onChange: (online: boolean) => void) {
      listeners.add(onChange)
      onChange(online)
      return { check: () => onChange(online), stop: () => void listeners.delete(onChange) }
    },
    set(value: boolean) {
      online = value
      for (const listener of listeners) listener(value)
    }
  }
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
    ...(options.service?.startTime ? { startTime: options.service.startTime } : {}),
    ...(options.service?.publishingDomain ? { publishingDomain: options.service.publishingDomain } : {}),
    ...(options.service?.extensions !== undefined ? { extensions: options.service.extensions } : {}),
    ...(options.service?.etags !== undefined ? { etags: options.service.etags } : {}),
    ...(options.service?.compression !== undefined ? { compression: options.service.compression } : {})
  })
  const agents = {} as TestHost['agents']
  for (const kind of AGENT_FAKE_KINDS) {
    const apiKey = `host-${kind}-${randomBytes(12).toString('hex')}`
    const fake = await startAgentFake(kind, {
      apiKey,
      port: 0,
      seed: options.service?.seed ?? 1,
      speed: options.service?.speed ?? 10,
      manualClock: options.service?.manualClock ?? false,
      ...(options.service?.startTime ? { startTime: options.service.startTime } : {})
    })
    if (options.agentDemo) fake.control.seedDemo()
    agents[kind] = { fake, apiKey }
  }
  const ownDir = options.settingsDir === undefined
  const settingsDir = options.settingsDir ?? (await mkdtemp(join(tmpdir(), 'agent-tray-host-')))
  const settings = await openSettings({ dir: settingsDir })
  const polling = options.polling ?? HOST_POLLING
  await settings.update((draft) => {
    draft.polling = { ...polling }
  })

  const records: HostRecords = {
    notifications: [],
    opened: [],
    tray: null,
    windowShown: 0,
    quit: 0,
    clipboard: [],
    shortcut: null,
    logsOpened: 0,
    saved: []
  }
  const updater = createScriptedUpdater()
  const internalErrors: unknown[] = []
  const log: string[] = []
  const events = createEventHub()
  const ipcMain = createHttpIpcMain()
  const network = switchableNetwork()
  // powerMonitor's stand-in: its events, and the idle time a test sets (/__host/control/idle).
  const idle = { seconds: 0 }
  const power = Object.assign(new EventEmitter() as EventEmitter & PowerEvents, {
    getSystemIdleTime: () => idle.seconds,
    getSystemIdleState: (threshold: number) => (idle.seconds >= threshold ? ('idle' as const) : ('active' as const))
  })
  // Known once listening (the port may be chosen by the system).
  let ownOrigin = ''
  const app = composeApp({
    settings,
    secrets: createSessionSecretStore('Keys are kept in memory by the test host.'),
    window: {
      show: () => void records.windowShown++,
      send: (channel, payload) => events.broadcast(channel, payload)
    },
    notify: (n) => records.notifications.push(n),
    renderTray: (view) => (records.tray = view),
    openExternal: async (url) => void records.opened.push(url),
    // main's check, with the host's page as our one window and its origin as the renderer's.
    ipc: {
      ipcMain,
      isTrusted: (frame) => isTrustedFrame(frame, [hostMainFrame(ownOrigin)], { devServerUrl: ownOrigin })
    },
    power,
    presence: power,
    watchOnline: (onChange) => network.watch(onChange),
    // The app's client with a short retry backoff: the same retries, and Retry-After honoured as the
    // app does, but an error test does not wait out the real backoff (0.5 s, 1 s, 2 s per call).
    createClient: (connection, apiKey, clientOptions) =>
      createServiceClient({
        ...clientOptions,
        baseUrl: connection.baseUrl,
        apiKey,
        retry: { ...DEFAULT_RETRY, baseDelayMs: E2E_RETRY_BASE_MS }
      }),
    startDemo: async () => ({
      baseUrl: service.url,
      apiKey: serviceApiKey,
      publishingDomain: service.publishingDomain,
      projectIds: service.control.seedDemo().projectIds,
      // Specs that watch Workser alone keep the demo as it was; `agentDemo` adds an account on each agent fake.
      agents: options.agentDemo
        ? Object.values(agents).map(({ fake, apiKey }) => ({
            service: fake.kind,
            name: `Demo ${serviceDescriptor(fake.kind)?.displayName ?? fake.kind}`,
            baseUrl: fake.baseUrl,
            apiKey
          }))
        : []
    }),
    quit: () => void records.quit++,
    writeClipboardText: async (text) => void records.clipboard.push(text),
    // The clipboard holds what was put on it last (a test puts a key there to paste it).
    readClipboardText: () => records.clipboard.at(-1) ?? '',
    // The save dialog's stand-in: the file goes under the settings directory, where the test reads it.
    saveFile: async (suggestedName, contents) => {
      const path = join(settingsDir, 'saved', `${records.saved.length + 1}-${suggestedName}`)
      await mkdir(join(settingsDir, 'saved'), { recursive: true })
      await writeFile(path, contents)
      records.saved.push({ suggestedName, path })
      return path
    },
    // As main's shortcut does: keys another application holds are refused with the reason.
    changeShortcut: (accelerator) => {
      if ((options.shortcutsTaken ?? []).includes(accelerator))
        return `${accelerator} cannot be used: another application has it, or the system keeps it.`
      records.shortcut = accelerator
      return null
    },
    updater,
    about: () => ({
      version: '0.1.0',
      electron: null,
      chrome: null,
      node: process.versions.node,
      platform: `${process.platform} ${process.arch}`,
      settingsDir,
      logFile: join(settingsDir, 'logs', 'main.log')
    }),
    openLogs: async () => void records.logsOpened++,
    log: (message) => log.push(message),
    onError: (context, error) => internalErrors.push({ context, error }),
    ...(options.clockStart !== undefined ? { clock: clockFrom(options.clockStart) } : {})
  })
  await app.start()

  const rendererDir =
    options.rendererDir !== undefined
      ? options.rendererDir
      : existsSync(join(DEFAULT_RENDERER_DIR, 'index.html'))
        ? DEFAULT_RENDERER_DIR
        : null
  const server = await startHostServer({
    port: options.port ?? 0,
    rendererDir,
    ipcMain,
    events,
    control: {
      service,
      agents,
      app,
      records,
      power,
      setIdleSeconds: (seconds: number) => void (idle.seconds = seconds),
      setOnline: (online: boolean) => network.set(online),
      updater
    },
    onInternalError: (channel, error) => internalErrors.push({ channel, error }),
    log: (message) => log.push(message)
  })
  ownOrigin = server.url
  if (options.demo) await app.controller.startDemo()

  let closed = false
  return {
    url: `${server.url}/`,
    app,
    controller: app.controller,
    service,
    serviceApiKey,
    agents,
    settingsDir,
    records,
    internalErrors,
    log,
    updater,
    async close() {
      if (closed) return
      closed = true
      await server.close()
      await app.stop()
      await service.close()
      for (const { fake } of Object.values(agents)) await fake.close()
      if (ownDir) await rm(settingsDir, { recursive: true, force: true })
    }
  }
}
