// A kill in the middle of sending, then a restart: delivered once. The child is a real process
// (test-outbox-child.ts) forwarding through the outbox file; the receiver holds the first request
// unanswered, the test kills the child with SIGKILL, and a new child sends it again with the same
// Idempotency-Key, which the receiver (as a webhook honouring the key does) counts once.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import { OUTBOX_FILE } from './outbox-file'
import { forwardEvent } from './test-events'
import { ANSWERS, deliveredKeys, startReceiver } from './test-receivers'

const here = path.dirname(fileURLToPath(import.meta.url))
const cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

function child(file: string, url: string) {
  const proc = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'test-outbox-child.ts'), file, url, 't1'], {
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  const lines: Array<{ text: string; resolve: () => void }> = []
  proc.stdout.setEncoding('utf8').on('data', (s: string) => {
    out += s
    for (const w of lines.filter((w) => out.includes(w.text))) w.resolve()
  })
  const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.on('close', (_c, signal) => resolve(signal)))
  cleanup.push(() => (proc.exitCode === null && proc.signalCode === null ? (proc.kill('SIGKILL'), exited) : undefined))
  return {
    said: (text: string) =>
      out.includes(text) ? Promise.resolve() : new Promise<void>((resolve) => lines.push({ text, resolve })),
    kill: () => (proc.kill('SIGKILL'), exited)
  }
}

it('killed while sending, then restarted: the event is delivered once', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-kill-'))
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }))
  const file = path.join(dir, OUTBOX_FILE)
  const r = await startReceiver(ANSWERS.ok())
  cleanup.push(() => r.close())
  r.script.push({ status: 0, hang: true })

  const first = child(file, `${r.url}/hook`)
  await r.arrived(1)
  expect(await first.kill()).toBe('SIGKILL')

  const second = child(file, `${r.url}/hook`)
  await r.arrived(2)
  await second.said('idle')
  expect(await second.kill()).toBe('SIGKILL')

  // A third start finds it delivered and sends nothing.
  const third = child(file, `${r.url}/hook`)
  await third.said('started pending=0')
  await third.kill()
  expect(r.received).toHaveLength(2)
  expect(r.received[0]!.headers['idempotency-key']).toBe(r.received[1]!.headers['idempotency-key'])
  expect(deliveredKeys(r, (i) => i === 1)).toEqual([forwardEvent('t1').id])
  const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { pending: unknown[]; delivered: Record<string, string[]> }
  expect(doc.pending).toEqual([])
  expect(doc.delivered.w).toEqual([forwardEvent('t1').id])
}, 60_000)
