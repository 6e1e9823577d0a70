import { spawn } from 'node:child_process'
import { PassThrough } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { PromptCancelledError, readSecretFromTerminal } from './prompt'

describe('readSecretFromTerminal from a pipe', () => {
  it('reads the first line of standard input, trimmed', async () => {
    const input = new PassThrough()
    const output = new PassThrough()
    const reading = readSecretFromTerminal({ input, output })
    input.end('  sk-piped-key \nsecond line\n')
    expect(await reading).toBe('sk-piped-key')
    expect(output.read()).toBeNull()
  })

  it('reads a key without a final newline', async () => {
    const input = new PassThrough()
    const reading = readSecretFromTerminal({ input })
    input.end('sk-no-newline')
    expect(await reading).toBe('sk-no-newline')
  })
})

describe('readSecretFromTerminal in a terminal', () => {
  function fakeTerminal() {
    const input = Object.assign(new PassThrough(), {
      isTTY: true,
      modes: [] as boolean[],
      setRawMode(mode: boolean) {
        input.modes.push(mode)
      }
    })
    return input
  }

  it('turns echo off while typing, handles backspace, and restores the terminal', async () => {
    const input = fakeTerminal()
    const output = new PassThrough()
    const reading = readSecretFromTerminal({ input, output, prompt: 'Key: ' })
    input.write('sk-abX\u007fc')
    input.write('\r')
    expect(await reading).toBe('sk-abc')
    expect(input.modes).toEqual([true, false])
    expect(output.read().toString()).toBe('Key: \n')
  })

  it('Ctrl-C cancels', async () => {
    const input = fakeTerminal()
    const reading = readSecretFromTerminal({ input, output: new PassThrough() })
    input.write('sk-\u0003')
    await expect(reading).rejects.toThrow(PromptCancelledError)
    expect(input.modes).toEqual([true, false])
  })

  it('shows nothing of the key in a real pseudo-terminal', async () => {
    const child = fileURLToPath(new URL('./prompt-child.ts', import.meta.url))
    const key = 'sk-typed-in-a-pty-31415'
    // util-linux `script` runs the command in a new pty; what it prints is the terminal's screen.
    const proc = spawn('script', ['-qefc', `${process.execPath} --import tsx ${child}`, '/dev/null'], {
      stdio: ['pipe', 'pipe', 'pipe']
    })
    let screen = ''
    proc.stdout.on('data', (chunk) => {
      screen += chunk
      if (screen.includes('API key: ') && !proc.stdin.writableEnded) proc.stdin.end(`${key}\r`)
    })
    const code = await new Promise((resolve) => proc.on('exit', resolve))
    expect(code).toBe(0)
    expect(screen).toContain(`read ${key.length} characters`)
    expect(screen).not.toContain(key)
  }, 30_000)
})
