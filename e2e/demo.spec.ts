// The README's Quick start, run as a new user runs it: `npm run demo` in a fresh copy of the
// project. Electron's own installer fetches "Electron" from a loopback mirror (ELECTRON_MIRROR);
// what it gets is the stand-in (e2e/stand-in): the built main process under Node, with an
// `electron` that records every call and refuses what Electron refuses. Then the same app once
// more from a folder laid out as electron-builder lays out a Linux app, with only the production
// dependencies. ARCHITECTURE.md says what this proves and what only a real Electron can.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { INVOKE_CHANNELS } from '../src/shared/ipc'
import { startTestKeyring, type TestKeyring } from '../src/core/secrets/test-keyring'
import { buildStandInZip, packagedLayout, removeQuietly, scratchProject, startMirror, type Mirror } from './stand-in/mirror'
import { PROBE_ENV, QUIT_ENV } from './stand-in/probe'
import { RECORD_ENV, type RecordLine } from './stand-in/record'

// npm ci's copy, a build and the demo's first minute: well inside this on a loaded 2-core machine.
test.setTimeout(300_000)

/** A task's own notification (core/notify/policy.ts's titles), not a notice about the desktop. */
const TASK_NOTIFICATION = /^Task (completed|failed|cancelled)/

let work: string
let zip: string
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

interface Run {
  code: number | null
  output: string
  lines: RecordLine[]
}

/** Runs a command to its end; the stand-in quits the app once it has told of a task. */
function run(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<Run> {
  const recordFile = join(work, `record-${Date.now()}.jsonl`)
  writeFileSync(recordFile, '')
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...keyring.env, ...env, [RECORD_ENV]: recordFile, [PROBE_ENV]: '1', [QUIT_ENV]: TASK_NOTIFICATION.source },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const lines = readFileSync(recordFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RecordLine)
      resolve({ code, output, lines })
    })
  })
}

function linesOf(r: Run, kind: string): RecordLine[] {
  return r.lines.filter((l) => l.kind === kind)
}

/** What both launches must show: the demo came up, hardened, and went away cleanly. */
function expectTheAppCameUp(r: Run): void {
  void test.info().attach('stand-in record', { body: r.lines.map((l) => JSON.stringify(l)).join('\n'), contentType: 'text/plain' })
  expect(linesOf(r, 'refused'), 'nothing Electron would refuse').toEqual([])
  expect(linesOf(r, 'main-failed')).toEqual([])
  // The tray, with an image file that exists, at once.
  const tray = linesOf(r, 'tray')
  expect(tray).toHaveLength(1)
  expect(existsSync(String(tray[0]!.image))).toBe(true)
  // The window, hardened, with its page from the app:// handler and a preload that exposed the bridge only.
  const window = linesOf(r, 'window')
  expect(window.length).toBeGreaterThanOrEqual(1)
  expect(window[0]!.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, nodeIntegrationInSubFrames: false, nodeIntegrationInWorker: false, webSecurity: true, allowRunningInsecureContent: false, webviewTag: false })
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
  expect(mirror.requests).toEqual(expect.arrayContaining([expect.stringMatching(/SHASUMS256\.txt$/), expect.stringMatching(/electron-v.*-linux-.*\.zip$/)]))
  expect(readFileSync(join(project, 'node_modules/electron/path.txt'), 'utf8')).toBe('electron')
  expectTheAppCameUp(demo)
  expect(linesOf(demo, 'launch')[0]).toMatchObject({ packaged: false, args: ['.', '--demo'] })

  // The same app as electron-builder's output runs it: production dependencies only.
  const packaged = packagedLayout(join(work, 'packaged'), zip, project)
  mkdirSync(join(work, 'config-packaged'))
  const installed = await run(packaged, ['--demo'], work, { AGENT_TRAY_CONFIG_DIR: join(work, 'config-packaged') })
  if (installed.code !== 0) console.log(installed.output)
  expectTheAppCameUp(installed)
  expect(linesOf(installed, 'launch')[0]).toMatchObject({ packaged: true })
})
