// The real command as a child process (node --import tsx src/cli/main.ts), against the reference
// service over HTTP, settings in a temp dir, and a real gnome-keyring on a private D-Bus.
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeBoundKey } from '../core/secrets/custody'
import { createKeytarSecretStore } from '../core/secrets/keytar-store'
import { startTestKeyring, type TestKeyring } from '../core/secrets/test-keyring'
import { openSettings } from '../core/settings/store'
import { type ReferenceService, startReferenceService } from '../reference-service'
import { EXIT } from './exit-codes'
import { filesUnder, tempDir } from './test-harness'
import { spawnCli } from './test-spawn'

const KEY = 'proc-key-9b1e44f0aa27'
let service: ReferenceService
let fast: ReferenceService
let keyring: TestKeyring
let configDir: string

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 3, manualClock: true })
  // Simulated time runs 2000× faster: a task's whole plan plays out within seconds.
  fast = await startReferenceService({ apiKey: KEY, port: 0, seed: 4, speed: 2000 })
  keyring = await startTestKeyring()
  configDir = tempDir()
}, 60_000)

afterAll(async () => {
  await service?.close()
  await fast?.close()
  await keyring?.stop()
  if (configDir) fs.rmSync(configDir, { recursive: true, force: true })
})

/** The environment of a user whose session has the test keyring. */
const userEnv = (extra: Record<string, string | undefined> = {}) => ({
  ...keyring.env,
  AGENT_TRAY_CONFIG_DIR: configDir,
  ...extra
})

async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 50))
  }
}

function oneLine(err: string): string {
  const lines = err.split('\n').filter((l) => l !== '')
  expect(lines, err).toHaveLength(1)
  return lines[0]!
}

describe('agent-tray as a process', () => {
  it('login checks the key, stores it in the keychain, and later commands use it unasked', async () => {
    const p = service.control.createProject({ name: 'Proc project' })
    service.control.addTask(p.id, { name: 'Proc task', status: 'in_progress', script: 'run-forever' })

    const wrong = await spawnCli(['login', '--base-url', service.url, '--name', 'ref'], userEnv(), 'not-the-key-000\n')
      .done
    expect(wrong.code).toBe(EXIT.auth)
    expect(oneLine(wrong.err)).toContain('rejected this API key; nothing was stored')

    const login = await spawnCli(['login', '--base-url', service.url, '--name', 'ref'], userEnv(), `${KEY}\n`).done
    expect(login.err).toBe('')
    expect(login.code).toBe(0)
    expect(login.out).toContain(`Logged in to ${service.url} (ref)`)

    // No key and no URL given: the active connection and its keychain entry are used.
    const tasks = await spawnCli(['tasks', p.id], userEnv()).done
    expect(tasks.err).toBe('')
    expect(tasks.code).toBe(0)
    expect(tasks.out).toMatch(/In progress\s+\d+\/\d+\s+\S+\s+\S+\s+Proc task/)

    // The key is in the keychain under the connection's id, and in no file of the settings dir.
    const settings = (await openSettings({ dir: configDir })).read()
    expect(settings.activeConnectionId).not.toBeNull()
    const connection = settings.connections.find(
      (c) => c.baseUrl === service.url && c.id === settings.activeConnectionId
    )
    expect(connection?.name).toBe('ref')
    expect(connection).toBeDefined()
    // With the origin it was given for (core/secrets/custody.ts).
    expect(decodeBoundKey((await createKeytarSecretStore().get(connection!.id))!)).toMatchObject({
      origin: new URL(connection!.baseUrl).origin,
      key: KEY
    })
    for (const f of filesUnder(configDir)) expect(f.text, f.file).not.toContain(KEY)
    for (const r of [wrong, login, tasks]) expect(r.out + r.err).not.toContain(KEY)

    const logout = await spawnCli(['logout'], userEnv()).done
    expect(logout.code).toBe(0)
    expect(await createKeytarSecretStore().get(connection!.id)).toBeNull()
    const after = await spawnCli(['tasks', p.id], userEnv()).done
    expect(after.code).toBe(EXIT.auth)
    expect(oneLine(after.err)).toContain('agent-tray login')
  }, 60_000)

  it('with no keychain reachable, login says so in one line and exits 8', async () => {
    const r = await spawnCli(
      ['login', '--base-url', service.url],
      {
        HOME: keyring.home,
        AGENT_TRAY_CONFIG_DIR: tempDir(),
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/agent-tray-bus'
      },
      `${KEY}\n`
    ).done
    expect(r.code).toBe(EXIT.keychainUnavailable)
    expect(oneLine(r.err)).toMatch(/^agent-tray: .*keychain.*AGENT_TRAY_API_KEY/i)
    expect(r.err).not.toContain(KEY)
  })

  it('rejects --api-key with exit 2 and a safe-ways message', async () => {
    const r = await spawnCli(['tasks', 'p1', '--api-key', KEY], userEnv()).done
    expect(r.code).toBe(EXIT.usage)
    expect(oneLine(r.err)).toContain('AGENT_TRAY_API_KEY')
    expect(r.err).not.toContain(KEY)
  })

  it('--help lists the commands and the exit codes', async () => {
    const r = await spawnCli(['--help'], {}).done
    expect(r.code).toBe(0)
    for (const word of [
      'project',
      'tasks',
      'steps',
      'usage',
      'publish',
      'watch',
      'login',
      'logout',
      'watch-list',
      'Exit codes:'
    ]) {
      expect(r.out).toContain(word)
    }
  })

  it('watch --task --exit-status follows a running service: 0 when completed, 1 when failed', async () => {
    const env = { AGENT_TRAY_CONFIG_DIR: tempDir(), AGENT_TRAY_BASE_URL: fast.url, AGENT_TRAY_API_KEY: KEY }
    const p = fast.control.createProject({ name: 'Fast' })
    const ok = fast.control.addTask(p.id, { name: 'Will complete', status: 'todo', script: 'complete' })
    const bad = fast.control.addTask(p.id, { name: 'Will fail', status: 'todo', script: 'fail' })
    const [completed, failed] = await Promise.all([
      spawnCli(['watch', '--task', ok.id, '--project', p.id, '--exit-status', '--interval-ms', '1000'], env).done,
      spawnCli(['watch', '--task', bad.id, '--project', p.id, '--exit-status', '--interval-ms', '1000', '--json'], env)
        .done
    ])
    expect(completed.err).toBe('')
    expect(completed.code).toBe(EXIT.ok)
    expect(completed.out).toContain(`Task ${ok.id} ended: Completed`)
    expect(failed.code).toBe(EXIT.taskNotCompleted)
    const last = JSON.parse(failed.out.trimEnd().split('\n').at(-1)!) as Record<string, unknown>
    expect(last).toEqual({ kind: 'task-ended', taskId: bad.id, projectId: p.id, status: 'failed' })
  }, 60_000)

  it('watch stops cleanly on Ctrl-C (SIGINT) with exit 0', async () => {
    const env = { AGENT_TRAY_CONFIG_DIR: tempDir(), AGENT_TRAY_BASE_URL: service.url, AGENT_TRAY_API_KEY: KEY }
    const p = service.control.createProject({ name: 'Interrupted' })
    const t = service.control.addTask(p.id, { name: 'Slow', status: 'todo', script: 'run-forever' })
    const tasksPolls = () => service.control.stats().byRoute['GET /projects/{id}/tasks']?.requests ?? 0
    const before = tasksPolls()
    const live = spawnCli(['watch', p.id, '--interval-ms', '1000'], env)
    // Once the watch has its baseline (its first poll), change the task and see the change printed.
    await until(() => tasksPolls() > before, 20_000)
    service.control.setTaskStatus(t.id, 'in_progress')
    await until(() => live.out().includes('To do → In progress'), 10_000)
    live.kill('SIGINT')
    const r = await live.done
    expect(r.code).toBe(EXIT.ok)
    expect(r.out).toContain('To do → In progress')
  }, 30_000)
})
