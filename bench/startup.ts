// The time from Electron's `ready` to the tray icon, measured on the built app under the stand-in
// Electron (e2e/stand-in, laid out as a packaged app): with a keychain that answers at once (a
// real gnome-keyring) and with one that never answers in time (a session bus that takes the
// connection and says nothing, as a locked keychain behind an unlock prompt; the app's own probe
// gives up after 30 s). The tray must not wait for the keychain: ≤ 300 ms in both.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { launch } from '../e2e/stand-in/launch'
import { buildStandInZip, packagedLayout } from '../e2e/stand-in/mirror'
import type { RecordLine } from '../e2e/stand-in/record'
import { startTestKeyring } from '../src/core/secrets/test-keyring'
import { type BenchOptions, check, type MeasureResult } from './result'
import { REPO_ROOT } from './service-process'
import { median, round } from './stats'

export const READY_TO_TRAY_TARGET_MS = 300

function readyToTray(lines: RecordLine[]): number {
  const ready = lines.find((l) => l.kind === 'ready')
  const tray = lines.find((l) => l.kind === 'tray')
  if (!ready || !tray) throw new Error(`no ${ready ? 'tray' : 'ready'} in the stand-in's record`)
  return tray.t - ready.t
}

async function silentBus(file: string): Promise<{ close: () => Promise<void> }> {
  const sockets = new Set<Socket>()
  const server = createServer((s) => void sockets.add(s))
  await new Promise<void>((done) => server.listen(file, done))
  return {
    close: () => {
      for (const s of sockets) s.destroy()
      return new Promise((done) => server.close(() => done()))
    }
  }
}

export async function runStartup(options: BenchOptions): Promise<MeasureResult> {
  const runs = options.quick ? 3 : 7
  const work = mkdtempSync(path.join(tmpdir(), 'agent-tray-bench-startup-'))
  const keyring = await startTestKeyring()
  try {
    options.log('startup: building the app and the stand-in Electron')
    execFileSync('npx', ['electron-vite', 'build'], { cwd: REPO_ROOT, stdio: 'ignore' })
    const zip = await buildStandInZip(work)
    const exe = packagedLayout(path.join(work, 'app'), zip, REPO_ROOT)
    const bus = await silentBus(path.join(work, 'silent-bus'))
    const conditions: Record<string, Record<string, string>> = {
      keychain_at_once: {},
      keychain_30s: { DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(work, 'silent-bus')}` }
    }
    const samples: Record<string, number[]> = {}
    try {
      for (let i = 0; i < runs; i++) {
        for (const [name, env] of Object.entries(conditions)) {
          // A fresh settings directory each time: a first start, the window shown at once too.
          const config = path.join(work, `config-${name}-${i}`)
          const r = await launch(exe, [], {
            cwd: work,
            env: { ...process.env, ...keyring.env, ...env, AGENT_TRAY_CONFIG_DIR: config },
            recordFile: path.join(work, `record-${name}-${i}.jsonl`),
            until: (lines) => lines.some((l) => l.kind === 'tray')
          })
          ;(samples[name] ??= []).push(readyToTray(r.lines))
        }
      }
    } finally {
      await bus.close()
    }
    const atOnce = median(samples.keychain_at_once!)
    const locked = median(samples.keychain_30s!)
    options.log(
      `startup: ready → tray ${round(atOnce)} ms (keychain at once), ${round(locked)} ms (keychain that does not answer)`
    )
    return {
      figures: { ready_to_tray_ms: round(atOnce), ready_to_tray_locked_keychain_ms: round(locked) },
      checks: [
        check('ready_to_tray_ms', atOnce, '<=', READY_TO_TRAY_TARGET_MS),
        check('ready_to_tray_locked_keychain_ms', locked, '<=', READY_TO_TRAY_TARGET_MS)
      ],
      details: {
        runs,
        samples_ms: samples,
        condition: 'the built app in a packaged layout under the stand-in Electron (Node), a first start each time'
      },
      notes: [
        'Under the stand-in the main process runs in Node, not Electron: module loading and the app are the same, Chromium and the real tray are not.'
      ]
    }
  } finally {
    await keyring.stop()
    rmSync(work, { recursive: true, force: true })
  }
}
