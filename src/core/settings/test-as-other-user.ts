// For tests: "a file this user may not read" for real. As root (CI), permissions do not stop reads,
// so the run is a child process as another user (nobody); otherwise the file's mode does it.
import { spawn } from 'node:child_process'
import fs from 'node:fs'

const NOBODY = 65534
const isRoot = process.getuid?.() === 0

/**
 * Makes `file` unreadable to the process that `runAs` starts, and `dir` (its directory) searchable
 * by it; returns the options to spawn that process with.
 */
export function lockOut(dir: string, file: string): { uid?: number; gid?: number } {
  fs.chmodSync(dir, 0o755)
  fs.chmodSync(file, 0o000)
  return anotherUser()
}

/** Who a child runs as to meet permissions for real: nobody where the tests run as root, else this user. */
export function anotherUser(): { uid?: number; gid?: number } {
  return isRoot ? { uid: NOBODY, gid: NOBODY } : {}
}

/** Runs `node --import tsx script args…` with the given identity and environment; resolves with its output. */
export function runAs(
  identity: { uid?: number; gid?: number },
  script: string,
  args: string[],
  env: Record<string, string> = {}
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      ...identity,
      cwd: process.cwd(),
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s))
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, out, err }))
  })
}
