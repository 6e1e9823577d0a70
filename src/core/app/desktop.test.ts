// The desktop parts of the composition under Node, against the reference service over HTTP: deep
// links, the log's redaction of every key the app has held, update state in AppState and the tray,
// 'Restart to update' refused until ready, diagnostics without a key, the window's errors bounded.
import { EventEmitter } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from '../../reference-service'
import type { EventChannel } from '../../shared/ipc'
import { createServiceClient, type ServiceClient } from '../client'
import { createSessionSecretStore } from '../secrets'
import { openSettings } from '../settings/store'
import type { AppUpdaterLike } from '../update/updater'
import { composeApp, type ComposedApp } from './compose'
import { diagnosticsText } from './diagnostics'
import { dispatch } from './dispatch'
import type { PowerEvents } from './lifecycle'
import { createWindowErrorLog, WINDOW_ERRORS_PER_MINUTE } from './window-errors'

const KEY = 'planted-key-4f9d2c81e7'

function fakeUpdater() {
  const emitter = new EventEmitter()
  const calls: string[] = []
  const updater: AppUpdaterLike = {
    autoDownload: true,
    allowDowngrade: true,
    autoInstallOnAppQuit: false,
    checkForUpdates: async () => void calls.push('check'),
    downloadUpdate: async () => void calls.push('download'),
    quitAndInstall: () => void calls.push('install'),
    on: (e, l) => emitter.on(e, l as never),
    removeListener: (e, l) => emitter.removeListener(e, l as never)
  }
  return { updater, calls, emit: (e: string, p?: unknown) => emitter.emit(e, p) }
}

let service: ReferenceService
let dir: string
let app: ComposedApp
let logged: string[]
let sent: { channel: EventChannel; payload: unknown }[]
let shown: number
let clipboard: string[]
let updates: ReturnType<typeof fakeUpdater>
let opened: string[]
/** prebuilt_url as a hostile service would answer it, by project id, or by `connection name/project id`. */
let prebuiltAnswers: Map<string, string>

/** The real client, but getProject answers prebuilt_url from `prebuiltAnswers` where it has one. */
function answeringPrebuilt(client: ServiceClient, connectionName: string): ServiceClient {
  return new Proxy(client, {
    get(target, key, receiver) {
      if (key !== 'getProject') return Reflect.get(target, key, receiver)
      return async (projectId: string, signal?: AbortSignal) => {
        const project = await target.getProject(projectId, signal)
        const answer = prebuiltAnswers.get(`${connectionName}/${projectId}`) ?? prebuiltAnswers.get(projectId)
        return answer === undefined ? project : { ...project, prebuilt_url: answer }
      }
    }
  })
}

beforeEach(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 3, manualClock: true })
  dir = await mkdtemp(join(tmpdir(), 'agent-tray-desktop-'))
  logged = []
  sent = []
  shown = 0
  clipboard = []
  updates = fakeUpdater()
  opened = []
  prebuiltAnswers = new Map()
  app = composeApp({
    settings: await openSettings({ dir }),
    secrets: createSessionSecretStore('test'),
    window: { show: () => void shown++, send: (channel, payload) => void sent.push({ channel, payload }) },
    notify: () => {},
    openExternal: async (url) => void opened.push(url),
    createClient: (connection, apiKey, options) =>
      answeringPrebuilt(createServiceClient({ ...options, baseUrl: connection.baseUrl, apiKey }), connection.name),
    ipc: { ipcMain: { handle: () => {}, removeHandler: () => {} }, isTrusted: () => true },
    power: new EventEmitter() as EventEmitter & PowerEvents,
    watchOnline: () => ({ check: () => {}, stop: () => {} }),
    quit: () => {},
    log: (m) => logged.push(m),
    updater: updates.updater,
    about: () => ({
      version: '1.0.0',
      electron: '45.4.1',
      chrome: '140.0',
      node: '22.0.0',
      platform: 'linux x64',
      settingsDir: dir,
      logFile: join(dir, 'logs', 'main.log')
    }),
    writeClipboardText: async (text) => void clipboard.push(text),
    stateIntervalMs: 0
  })
  await app.start()
  await app.controller.handlers['connection:save']({
    connection: { name: 'Ref', baseUrl: service.url, publishingDomain: '' },
    apiKey: KEY
  })
})

afterEach(async () => {
  await app.stop()
  await service.close()
  await rm(dir, { recursive: true, force: true })
})

describe('the composed app on the desktop', () => {
  it('opens the window on a linked project or task, and logs a refused link without acting on it', async () => {
    const before = shown
    app.openDeepLink('agent-tray://projects/p-1')
    app.openDeepLink('agent-tray://projects/p-1/tasks/t-2')
    app.openDeepLink('agent-tray://projects')
    expect(shown).toBe(before + 3)
    expect(sent.filter((e) => e.channel.startsWith('navigate:')).map((e) => [e.channel, e.payload])).toEqual([
      ['navigate:project', { projectId: 'p-1' }],
      ['navigate:task', { projectId: 'p-1', taskId: 't-2' }]
    ])
    app.openDeepLink(`agent-tray://evil/${KEY}`)
    expect(shown).toBe(before + 3)
    expect(logged.at(-1)).toBe(
      'deep link refused: "agent-tray://evil/[redacted]" names no project (agent-tray://projects/ID)'
    )
  })

  it("offers and opens a project's agent interface only when its URL is one the app may open", async () => {
    const safe = service.control.createProject({ name: 'Safe' })
    const hostile = service.control.createProject({ name: 'Hostile' })
    prebuiltAnswers.set(hostile.id, 'javascript:alert(1)')
    for (const p of [safe, hostile]) await app.controller.handlers['project:watch']({ projectId: p.id })
    await app.controller.handlers['monitor:poll-now']()
    await expect
      .poll(() => app.controller.getState().projects.filter((p) => p.project !== null).length, { timeout: 10_000 })
      .toBe(2)
    expect(app.hasInterface({ projectId: safe.id })).toBe(true)
    expect(app.hasInterface({ projectId: hostile.id })).toBe(false)
    expect(app.hasInterface({ projectId: 'p-not-watched' })).toBe(false)
    app.openInterface({ projectId: safe.id })
    app.openInterface({ projectId: hostile.id })
    expect(opened).toEqual([safe.prebuilt_url])
    expect(sent.filter((e) => e.channel === 'navigate:project').map((e) => e.payload)).toEqual([
      { projectId: hostile.id }
    ])
  })

  it("with two accounts watching one project, offers and opens the interface of the notification's own account", async () => {
    const shared = service.control.createProject({ name: 'Shared' })
    const first = app.controller.getState().connections[0]!.id
    const second = (
      await app.controller.handlers['connection:save']({
        connection: { name: 'Second', baseUrl: service.url, publishingDomain: '' },
        apiKey: KEY
      })
    ).id
    // The second account's service answers a prebuilt_url the app must not open.
    prebuiltAnswers.set(`Second/${shared.id}`, 'javascript:alert(1)')
    for (const connectionId of [first, second])
      await app.controller.handlers['project:watch']({ connectionId, projectId: shared.id })
    await expect
      .poll(
        () =>
          app.controller.getState().projects.filter((p) => p.watched.projectId === shared.id && p.project !== null)
            .length,
        { timeout: 10_000 }
      )
      .toBe(2)
    expect(app.hasInterface({ projectId: shared.id, connectionId: first })).toBe(true)
    expect(app.hasInterface({ projectId: shared.id, connectionId: second })).toBe(false)
    app.openInterface({ projectId: shared.id, connectionId: second })
    expect(opened).toEqual([])
    app.openInterface({ projectId: shared.id, connectionId: first })
    expect(opened).toEqual([shared.prebuilt_url])
  })

  it('takes every key it has held out of every log line, and out of its redaction for the log file', () => {
    app.openDeepLink(`https://x/?k=${KEY}`)
    expect(logged.join('\n')).not.toContain(KEY)
    expect(app.redact(`GET /projects?api_key=${KEY}`)).toBe('GET /projects?api_key=[redacted]')
  })

  it('shows the update state in AppState and the tray; Restart to update only once one is ready', async () => {
    expect(app.controller.getState().update).toMatchObject({ phase: 'idle', checks: true })
    await app.controller.handlers['update:check']()
    expect(updates.calls).toEqual(['check'])
    updates.emit('update-available', { version: '2.0.0' })
    expect(updates.calls).toEqual(['check', 'download'])
    const early = await dispatch(app.controller.handlers, 'update:install', undefined)
    expect(early).toMatchObject({ ok: false, error: { kind: 'forbidden' } })
    updates.emit('update-downloaded', { version: '2.0.0' })
    expect(app.controller.getState().update).toEqual({ phase: 'ready', version: '2.0.0' })
    await expect
      .poll(() => app.tray.view.menu.some((i) => i.kind === 'action' && i.label === 'Restart to Update (2.0.0)'), {
        timeout: 10_000
      })
      .toBe(true)
    await app.controller.handlers['update:install']()
    expect(updates.calls).toEqual(['check', 'download', 'install'])
  })

  it('turning the checks off in settings stops the planned checks', async () => {
    await app.controller.handlers['settings:update']({ checkForUpdates: false })
    expect(app.controller.getState().update).toMatchObject({ phase: 'idle', checks: false, nextCheckAt: null })
  })

  it('About and Copy diagnostics: versions, folders, key store, update state; never the key or the base URL', async () => {
    const about = await app.controller.handlers['app:about']()
    expect(about).toMatchObject({
      version: '1.0.0',
      electron: '45.4.1',
      keyStore: { backend: 'session-only', detail: 'test' },
      update: { phase: 'idle' }
    })
    const { text } = await app.controller.handlers['app:copy-diagnostics']()
    expect(clipboard).toEqual([text])
    expect(text).toContain('Agent Tray 1.0.0')
    expect(text).toContain('Electron 45.4.1, Chrome 140.0, Node 22.0.0')
    expect(text).toContain(`Log file: ${join(dir, 'logs', 'main.log')}`)
    expect(text).toContain('Key store: session-only (test)')
    expect(text).not.toContain(KEY)
    expect(text).not.toContain(service.url)
  })

  it("logs the window's error with its stack", async () => {
    await app.controller.handlers['app:report-error']({
      kind: 'error',
      message: 'TypeError: x',
      stack: 'TypeError: x\n    at f (app://agent-tray/a.js:1:1)'
    })
    expect(logged.at(-1)).toBe(
      'window: uncaught error: TypeError: x\nTypeError: x\n    at f (app://agent-tray/a.js:1:1)'
    )
  })
})

describe("the window's errors in the log", () => {
  it(`keeps at most ${WINDOW_ERRORS_PER_MINUTE} a minute, then says how many were left out`, () => {
    let now = 0
    const lines: string[] = []
    const report = createWindowErrorLog({ now: () => now, log: (m) => lines.push(m) })
    for (let i = 0; i < WINDOW_ERRORS_PER_MINUTE + 5; i++) report({ kind: 'unhandledrejection', message: `e${i}` })
    expect(lines).toHaveLength(WINDOW_ERRORS_PER_MINUTE)
    now = 60_000
    report({ kind: 'error', message: 'later' })
    expect(lines.slice(-2)).toEqual([
      'window: 5 more unexpected errors were not logged',
      'window: uncaught error: later'
    ])
  })
})

describe('diagnostics', () => {
  it('counts unreachable projects by kind and lists the desktop notes', () => {
    const text = diagnosticsText(
      {
        version: '1',
        electron: null,
        chrome: null,
        node: '20',
        platform: 'linux x64',
        settingsDir: '/s',
        logFile: null,
        keyStore: { backend: 'keychain', detail: 'd' },
        update: { phase: 'unavailable', reason: 'a development build' }
      },
      {
        connections: [],
        activeConnectionId: null,
        projects: [
          { health: { state: 'error', error: { kind: 'auth', message: 'm' }, since: '', nextPollAt: '' } },
          { health: { state: 'ok', polledAt: '' } }
        ] as never,
        monitor: { paused: false, notificationsPausedUntil: null },
        secrets: { backend: 'keychain', detail: 'd' },
        notices: [],
        demo: false,
        clockLocale: null,
        update: { phase: 'unavailable', reason: 'a development build' },
        desktopNotes: [{ id: 'tray-hidden', title: 'No tray', text: 't' }],
        budgets: [],
        services: [],
        agentTasks: [],
        agentCosts: []
      },
      new Date(0)
    )
    expect(text).toContain('Log file: none (console only)')
    expect(text).toContain('Updates: not available (a development build)')
    expect(text).toContain('Watched projects: 2, 1 unreachable (auth)')
    expect(text).toContain('Note: No tray')
  })
})
