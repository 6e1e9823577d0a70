// `agent-tray --help | head`: the reader goes away before the command has written everything.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

function runWithClosedStdout(
  args: string[]
): Promise<{ code: number | null; signal: NodeJS.Signals | null; err: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  // The reading end closed before the first byte: every write the command makes meets EPIPE.
  child.stdout.destroy()
  let err = ''
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s))
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => resolve({ code, signal, err }))
  })
}

describe('a closed stdout', () => {
  it('ends the command quietly, as git and gh do: exit 0 and nothing on stderr', async () => {
    const r = await runWithClosedStdout(['--help'])
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
  })

  it('still tells a usage error on stderr, which is open', async () => {
    const r = await runWithClosedStdout(['forget-me-not-command-that-does-not-exist'])
    // An unknown command writes to stderr, which is still open: the usage error is told, not hidden.
    expect(r.err).toMatch(/unknown command/i)
  })
})
