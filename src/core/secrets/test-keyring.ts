// For tests: a real Secret Service (gnome-keyring) on a private D-Bus session bus, with a
// throwaway HOME, so tests exercise the real keychain path without touching the user's keyring.
// Needs Debian's dbus and gnome-keyring. Call start before keytar is first used in the process
// (libsecret connects to the bus named by DBUS_SESSION_BUS_ADDRESS on first use).
import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export interface TestKeyring {
  /** The environment for this process and any child (e.g. the CLI): HOME, XDG_*, D-Bus address. */
  env: Record<string, string>
  home: string
  /** Stops the daemons, removes the temporary home, restores process.env. */
  stop(): Promise<void>
}

const KEYS = [
  'HOME',
  'XDG_RUNTIME_DIR',
  'XDG_DATA_HOME',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'DBUS_SESSION_BUS_ADDRESS',
  'DISPLAY'
]

function firstLineOf(child: ChildProcess, what: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = ''
    let err = ''
    const timer = setTimeout(() => reject(new Error(`${what} did not start in ${timeoutMs} ms: ${err}`)), timeoutMs)
    child.stderr?.on('data', (chunk) => (err += chunk))
    child.stdout?.on('data', (chunk) => {
      out += chunk
      const newline = out.indexOf('\n')
      if (newline !== -1) {
        clearTimeout(timer)
        resolve(out.slice(0, newline).trim())
      }
    })
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(new Error(`${what} could not start: ${error.message}`))
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${what} exited (${code}) before it was ready: ${err}`))
    })
  })
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
  })
}

/** Waits until org.freedesktop.secrets has an owner on the bus. */
async function waitForSecretService(env: NodeJS.ProcessEnv, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const owned = await new Promise<boolean>((resolve) => {
      const probe = spawn(
        'dbus-send',
        [
          '--session',
          '--print-reply',
          '--dest=org.freedesktop.DBus',
          '/org/freedesktop/DBus',
          'org.freedesktop.DBus.NameHasOwner',
          'string:org.freedesktop.secrets'
        ],
        { env, stdio: ['ignore', 'pipe', 'ignore'] }
      )
      let out = ''
      probe.stdout.on('data', (chunk) => (out += chunk))
      probe.on('error', () => resolve(false))
      probe.on('exit', () => resolve(/boolean true/.test(out)))
    })
    if (owned) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`gnome-keyring did not take org.freedesktop.secrets within ${timeoutMs} ms`)
}

export async function startTestKeyring(options: { password?: string; timeoutMs?: number } = {}): Promise<TestKeyring> {
  const timeoutMs = options.timeoutMs ?? 15_000
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-keyring-'))
  const runtime = path.join(home, 'run')
  fs.mkdirSync(runtime, { mode: 0o700 })
  const env: Record<string, string> = {
    HOME: home,
    XDG_RUNTIME_DIR: runtime,
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_CACHE_HOME: path.join(home, '.cache')
  }
  const saved = Object.fromEntries(KEYS.map((key) => [key, process.env[key]]))
  const children: ChildProcess[] = []
  const stop = async () => {
    for (const child of children.reverse()) {
      child.kill('SIGTERM')
      await Promise.race([exited(child), new Promise((resolve) => setTimeout(resolve, 2000))])
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    }
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
    fs.rmSync(home, { recursive: true, force: true })
  }
  try {
    const base = { ...process.env, ...env }
    delete base.DISPLAY // no X11 autolaunch of another bus
    const bus = spawn('dbus-daemon', ['--session', '--nofork', '--nopidfile', '--print-address=1'], {
      env: base,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    children.push(bus)
    env.DBUS_SESSION_BUS_ADDRESS = await firstLineOf(bus, 'dbus-daemon', timeoutMs)
    const keyring = spawn('gnome-keyring-daemon', ['--replace', '--unlock', '--components=secrets', '--foreground'], {
      env: { ...base, ...env },
      stdio: ['pipe', 'pipe', 'pipe']
    })
    children.push(keyring)
    // With --unlock the daemon reads the login keyring's password from stdin (and creates that
    // keyring, so libsecret finds a default collection to store into).
    keyring.stdin?.end(options.password ?? 'test-keyring-password')
    keyring.stdout?.resume()
    keyring.stderr?.resume()
    await waitForSecretService({ ...base, ...env }, timeoutMs)
  } catch (error) {
    await stop()
    throw error
  }
  Object.assign(process.env, env)
  delete process.env.DISPLAY
  return { env, home, stop }
}
