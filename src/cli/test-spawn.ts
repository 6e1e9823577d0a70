// Runs the real `agent-tray` (src/cli/main.ts through tsx) as a child process, for tests.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

export interface Spawned {
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>
  out(): string
  kill(signal: NodeJS.Signals): void
}

/**
 * Starts the command with only the given environment (plus PATH), never the test's own AGENT_TRAY_*;
 * `as` runs it as another user (see core/settings/test-as-other-user.ts).
 */
export function spawnCli(
  args: string[],
  env: Record<string, string | undefined>,
  stdin?: string,
  as: { uid?: number; gid?: number } = {}
): Spawned {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    ...as,
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...definedOnly(env) },
    stdio: ['pipe', 'pipe', 'pipe']
  })
  let out = ''
  let err = ''
  child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s))
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s))
  child.stdin.end(stdin ?? '')
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string; err: string }>(
    (resolve, reject) => {
      child.on('error', reject)
      child.on('close', (code, signal) => resolve({ code, signal, out, err }))
    }
  )
  return { done, out: () => out, kill: (signal) => child.kill(signal) }
}

function definedOnly(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined))
}
