// Starts test-forwarding-child.ts as a real process (another Agent Tray forwarding from the same
// outbox file) and waits on what it says; `stop` ends its stdin, so it releases the outbox and exits.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))

export interface ForwardingProcess {
  said(text: string): Promise<void>
  stop(): Promise<void>
  kill(): Promise<void>
}

export function startForwardingProcess(file: string, url: string): ForwardingProcess {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'test-forwarding-child.ts'), file, url], {
    stdio: ['pipe', 'pipe', 'inherit']
  })
  let out = ''
  const waiters: Array<{ text: string; resolve: () => void }> = []
  proc.stdout.setEncoding('utf8').on('data', (s: string) => {
    out += s
    for (const w of waiters.filter((w) => out.includes(w.text))) w.resolve()
  })
  const exited = new Promise<void>((resolve) => proc.on('close', () => resolve()))
  const said = (text: string): Promise<void> =>
    out.includes(text) ? Promise.resolve() : new Promise((resolve) => waiters.push({ text, resolve }))
  return {
    said,
    async stop() {
      proc.stdin.end()
      await said('closed')
      await exited
    },
    async kill() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL')
      await exited
    }
  }
}
