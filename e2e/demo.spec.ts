// The README's Quick start, run as a new user runs it: `npm run demo` in a fresh copy of the
// project. Electron's own installer fetches "Electron" from a loopback mirror (ELECTRON_MIRROR);
// what it gets is the stand-in (e2e/stand-in): the built main process under Node, with an
// `electron` that records every call and refuses what Electron refuses. Then the same app once
// more from a folder laid out as electron-builder lays out a Linux app, with only the production
// dependencies. ARCHITECTURE.md says what this proves and what only a real Electron can.
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { startTestKeyring, type TestKeyring } from '../src/core/secrets/test-keyring'
import { STARTING_TOOLTIP } from '../src/core/tray/model'
import { INVOKE_CHANNELS } from '../src/shared/ipc'
import { launch, type Launched } from './stand-in/launch'
import {
  buildStandInZip,
  type Mirror,
  packagedLayout,
  removeQuietly,
  scratchProject,
  startMirror
} from './stand-in/mirror'
import { PROBE_ENV, QUIT_ENV } from './stand-in/probe'
import type { RecordLine } from './stand-in/record'

// npm ci's copy, a build and the demo's first minute: well inside this on a loaded 2-core machine.
test.setTimeout(300_000)

/** A task's own notification (core/notify/policy.ts's titles), not a notice about the desktop. */
const TASK_NOTIFICATION = /^Task (completed|failed|cancelled)/

test.describe.configure({ mode: 'serial' })

let work: string
let zip: string
/** The packaged layout the first test lays out, for the tests after it. */
let packaged: string
let mirror: Mirror
let keyring: TestKeyring

test.beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'agent-tray-demo-'))
  zip = await buildStandInZip(work)
  mirror = await startMirror(zip)
  keyring = await startTestKeyring()
})

test.afterAll(async () => {
  await mirror?.close()
  await keyring?.stop()
  if (work && !process.env.KEEP_DEMO_WORK) removeQuietly(work)
})

type Run = Launched

interface RunOptions {
  /** Ask the app to quit once it has told of a task (the stand-in's probe does it). */
  quitAfterTask?: boolean
  /** End the process (SIGKILL) as soon as the record holds what this waits for. */
  until?: (lines: RecordLine[]) => boolean
}

let runs = 0

/** Runs a command to its end, or until the stand-in's record holds what `until` waits for. */
function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  options: RunOptions = { quitAfterTask: true }
): Promise<Run> {
  return launch(command, args, {
    cwd,
    env: {
      ...process.env,
      ...keyring.env,
      ...env,
      [PROBE_ENV]: '1',
      ...(options.quitAfterTask ? { [QUIT_ENV]: TASK_NOTIFICATION.source } : {})
    },
    recordFile: join(work, `record-${++runs}.jsonl`),
    ...(options.until ? { until: options.until } : {})
  })
}

function linesOf(r: Run, kind: string): RecordLine[] {
  return r.lines.filter((l) => l.kind === kind)
}

/** What both launches must show: the demo came up, hardened, and went away cleanly. */
function expectTheAppCameUp(r: Run): void {
  void test
    .info()
    .attach('stand-in record', { body: r.lines.map((l) => JSON.stringify(l)).join('\n'), contentType: 'text/plain' })
  expect(linesOf(r, 'refused'), 'nothing Electron would refuse').toEqual([])
  expect(linesOf(r, 'main-failed')).toEqual([])
  expect(linesOf(r, 'deprecated'), 'no API Electron 45 deprecates').toEqual([])
  // The tray, with an image file that exists, at once.
  const tray = linesOf(r, 'tray')
  expect(tray).toHaveLength(1)
  expect(existsSync(String(tray[0]!.image))).toBe(true)
  // The window, hardened, with its page from the app:// handler and a preload that exposed the bridge only.
  const window = linesOf(r, 'window')
  expect(window.length).toBeGreaterThanOrEqual(1)
  expect(window[0]!.webPreferences).toMatchObject({
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInSubFrames: false,
    nodeIntegrationInWorker: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false
  })
  const page = linesOf(r, 'page')[0]!
  expect(page).toMatchObject({ url: 'app://agent-tray/index.html', status: 200, servedBy: 'app: handler' })
  expect(String(page.contentType)).toContain('text/html')
  expect(String(page.csp)).toContain("default-src 'none'")
  expect(linesOf(r, 'preload')[0]).toMatchObject({ exposed: ['agentTray'] })
  // The sender check: our window's main frame is answered, a foreign frame and a sub-frame are not.
  expect(linesOf(r, 'probe.own-frame')[0]).toMatchObject({ ok: true })
  expect(linesOf(r, 'probe.foreign-frame')[0]).toMatchObject({ ok: false, error: 'forbidden' })
  expect(linesOf(r, 'probe.sub-frame')[0]).toMatchObject({ ok: false, error: 'forbidden' })
  // Exactly the contract's channels: nothing a library registered behind the sender check.
  expect(linesOf(r, 'probe.channels')[0]).toMatchObject({ handle: [...INVOKE_CHANNELS].sort(), on: [] })
  // The demo's first notification within its first minute of running.
  const ready = linesOf(r, 'ready')[0]!
  const first = linesOf(r, 'notification').find((n) => TASK_NOTIFICATION.test(String(n.title)))
  expect(first, "a task's notification").toBeDefined()
  expect(first!.t - ready.t).toBeLessThan(60_000)
  // app.quit() ran the app's quit steps and ended the process with 0.
  expect(linesOf(r, 'app.quit').length).toBeGreaterThanOrEqual(1)
  expect(linesOf(r, 'tray.destroy')).toHaveLength(1)
  expect(linesOf(r, 'exit')).toEqual([expect.objectContaining({ code: 0 })])
  expect(r.code).toBe(0)
}

test("the README's `npm run demo` gets Electron by its own steps and the app comes up, then once more as a packaged app", async () => {
  const project = join(work, 'project')
  scratchProject(project)
  const demo = await run('npm', ['run', 'demo'], project, {
    ELECTRON_MIRROR: mirror.url,
    electron_use_remote_checksums: '1',
    electron_config_cache: join(work, 'electron-cache'),
    ELECTRON_GET_NO_PROGRESS: '1',
    AGENT_TRAY_NATIVE_ELECTRON: 'skip',
    AGENT_TRAY_CONFIG_DIR: join(work, 'config-demo')
  })
  if (demo.code !== 0) console.log(demo.output)
  // The binary came from the mirror, fetched by the script's own install step, checksums and all.
  expect(mirror.requests).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/SHASUMS256\.txt$/),
      expect.stringMatching(/electron-v.*-linux-.*\.zip$/)
    ])
  )
  expect(readFileSync(join(project, 'node_modules/electron/path.txt'), 'utf8')).toBe('electron')
  expectTheAppCameUp(demo)
  expect(linesOf(demo, 'launch')[0]).toMatchObject({ packaged: false, args: ['.', '--demo'] })
  // Five accounts at once: Workser's and one per agent service, each on its own loopback fake (keys in memory only).
  const config = JSON.parse(readFileSync(join(work, 'config-demo', 'config.json'), 'utf8')) as {
    connections: { service?: string; baseUrl: string }[]
  }
  expect(config.connections.map((c) => c.service ?? 'workser').sort()).toEqual([
    'cursor',
    'devin',
    'github',
    'jules',
    'workser'
  ])
  expect(config.connections.every((c) => c.baseUrl.startsWith('http://127.0.0.1:'))).toBe(true)

  // The same app as electron-builder's output runs it: production dependencies only.
  packaged = packagedLayout(join(work, 'packaged'), zip, project)
  mkdirSync(join(work, 'config-packaged'))
  const installed = await run(packaged, ['--demo'], work, { AGENT_TRAY_CONFIG_DIR: join(work, 'config-packaged') })
  if (installed.code !== 0) console.log(installed.output)
  expectTheAppCameUp(installed)
  expect(linesOf(installed, 'launch')[0]).toMatchObject({ packaged: true })
})

test('a start-up failure is shown in a native error box with the reason and the log file, then the app exits 1', async () => {
  // A directory where config.json should be: the settings cannot be opened.
  const config = join(work, 'config-broken')
  mkdirSync(join(config, 'config.json'), { recursive: true })
  const r = await run(packaged, [], work, { AGENT_TRAY_CONFIG_DIR: config }, {})
  const box = linesOf(r, 'dialog.showErrorBox')
  expect(box).toHaveLength(1)
  expect(box[0]).toMatchObject({ title: 'Agent Tray could not start' })
  expect(String(box[0]!.content)).toContain('config.json')
  expect(String(box[0]!.content)).toContain(join(config, 'logs', 'main.log'))
  expect(linesOf(r, 'exit')).toEqual([expect.objectContaining({ code: 1 })])
  expect(r.code).toBe(1)
})

test('with a keychain that never answers, the tray and the window come at once, say the app is starting, and answer the window', async () => {
  // A session bus that accepts and never speaks: libsecret waits, as on a locked keychain.
  const silent = await startSilentSocket(join(work, 'silent-bus'))
  try {
    const r = await run(
      packaged,
      [],
      work,
      { AGENT_TRAY_CONFIG_DIR: join(work, 'config-locked'), DBUS_SESSION_BUS_ADDRESS: `unix:path=${silent.path}` },
      {
        until: (lines) => lines.some((l) => l.kind === 'probe.channels')
      }
    )
    expect(linesOf(r, 'refused')).toEqual([])
    expect(linesOf(r, 'tray')).toHaveLength(1)
    expect(linesOf(r, 'tray.setToolTip')[0]).toMatchObject({ toolTip: STARTING_TOOLTIP })
    // First run: the window is shown at once, and its calls are answered while the keychain is asked.
    expect(linesOf(r, 'page')[0]).toMatchObject({ status: 200 })
    expect(linesOf(r, 'probe.own-frame')[0]).toMatchObject({ ok: true, secretsBackend: 'checking' })
    expect(silent.connections()).toBeGreaterThanOrEqual(1)
  } finally {
    await silent.close()
  }
})

/** A Unix socket that takes connections and never answers them. */
async function startSilentSocket(
  path: string
): Promise<{ path: string; connections: () => number; close: () => Promise<void> }> {
  let count = 0
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    count++
    sockets.add(socket)
  })
  await new Promise<void>((done) => server.listen(path, done))
  return {
    path,
    connections: () => count,
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise((done) => server.close(() => done()))
    }
  }
}
