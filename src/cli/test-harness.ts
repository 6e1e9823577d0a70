// Runs the command in-process against a real reference service over HTTP, with real settings in a
// temp directory: what the tests of src/cli share.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createServiceClient } from '../core/client'
import type { ReferenceService } from '../reference-service'
import type { CliDeps, ClientOptions, SecretPort } from './deps'
import { runCli } from './program'
import { realDeps } from './real-deps'
import { captureIo } from './test-io'

export interface RunResult {
  code: number
  out: string
  err: string
}

export interface RunOptions {
  env?: Record<string, string | undefined>
  stdin?: string
  isTTY?: boolean
  signal?: AbortSignal
  deps?: Partial<CliDeps>
  /** Sees stdout as it is written (for commands that run until stopped). */
  onStdout?: (text: string) => void
  /** Stands for the terminal behind stderr (as when stderr is a TTY): gets the progress bar. */
  progress?: (text: string) => void
}

/** The real client, without retries: a failing request fails at once, so error tests stay fast. */
export const testClient = (options: ClientOptions) => createServiceClient({ ...options, retry: { retries: 0 } })

export class KeychainDown extends Error {}

/** A keychain that is not there: what a machine without a Secret Service gives. */
export const noKeychain = (): SecretPort => {
  throw new KeychainDown('no Secret Service on the session bus')
}

/** A key store in memory, for tests that are not about the keychain: `keys` is what it holds, `targets` forwarding's entries. */
export function memorySecrets(): { keys: Map<string, string>; targets: Map<string, string>; secrets: SecretPort } {
  const keys = new Map<string, string>()
  const targets = new Map<string, string>()
  return {
    keys,
    targets,
    secrets: {
      get: async (id) => keys.get(id) ?? null,
      set: async (id, key) => void keys.set(id, key),
      delete: async (id) => keys.delete(id),
      forwarding: {
        get: async (account) => targets.get(account) ?? null,
        set: async (account, secret) => void targets.set(account, secret),
        delete: async (account) => targets.delete(account)
      }
    }
  }
}

export function tempDir(prefix = 'agent-tray-cli-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

/** Every file under a directory, recursively, with its contents. */
export function filesUnder(dir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = []
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    const file = path.join(entry.parentPath, entry.name)
    out.push({ file, text: fs.readFileSync(file, 'utf8') })
  }
  return out
}

export function makeRunner(base: {
  service?: ReferenceService
  configDir: string
  env?: Record<string, string | undefined>
  deps?: Partial<CliDeps>
}) {
  return async (args: string[], o: RunOptions = {}): Promise<RunResult> => {
    const env = { AGENT_TRAY_CONFIG_DIR: base.configDir, ...base.env, ...o.env }
    const io = captureIo({ env, stdin: o.stdin, isTTY: o.isTTY ?? false })
    if (o.progress) io.progress = { write: o.progress }
    if (o.onStdout) {
      const write = io.stdout.write
      io.stdout = { write: (text: string) => (o.onStdout?.(text), write(text)) }
    }
    const deps: CliDeps = {
      ...realDeps({
        env,
        signal: o.signal,
        promptHidden: async () => {
          throw new Error('no terminal in tests')
        },
        secrets: noKeychain,
        isKeychainUnavailable: (e) => e instanceof KeychainDown
      }),
      createClient: testClient,
      ...base.deps,
      ...o.deps
    }
    const code = await runCli(args, io, deps)
    return { code, out: io.out(), err: io.err() }
  }
}
