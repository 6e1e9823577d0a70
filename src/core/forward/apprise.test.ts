// Debian's `apprise` as an independent reference: the same event sent through it and through our
// renderer to a loopback receiver gives the same ntfy request, and the same request line and title
// for a JSON webhook (whose body is our documented one, richer than Apprise's json://). CI
// installs apprise (.ci/run); elsewhere the test runs where it is installed.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import { afterEach, describe, expect, it } from 'vitest'
import { ManualClock } from '../util/clock'
import { createSender } from './send'
import { type ParsedTarget, parseTarget } from './target-url'
import { forwardEvent } from './test-events'
import { ANSWERS, type Receiver, startReceiver } from './test-receivers'

const APPRISE = '/usr/bin/apprise'
const installed = fs.existsSync(APPRISE)
const cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

function apprise(url: string, title: string, body: string): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(
      APPRISE,
      ['-t', title, '-b', body, url],
      { env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' } },
      (error, _out, err) => (error ? reject(new Error(`apprise failed: ${err}`)) : resolve())
    )
  )
}

async function twoReceivers(): Promise<[Receiver, Receiver]> {
  const a = await startReceiver(ANSWERS.ntfyOk())
  const b = await startReceiver(ANSWERS.ntfyOk())
  cleanup.push(
    () => a.close(),
    () => b.close()
  )
  return [a, b]
}

const event = forwardEvent('t1', 'completed', "Fix <b>login</b> & 'signup'")
const send = createSender({ now: () => new ManualClock().now() })
const parsed = (url: string): ParsedTarget => {
  const c = parseTarget(url)
  if (!c.ok) throw new Error(c.problem)
  return c.target
}

describe.skipIf(!installed && process.env.CI === undefined)('against Apprise', () => {
  it('ntfy: the same request as Apprise sends (POST / with topic, title, message as JSON)', async () => {
    const [theirs, ours] = await twoReceivers()
    await apprise(`ntfy://127.0.0.1:${theirs.port}/builds`, event.title, event.text)
    await expect(send(parsed(`ntfy://127.0.0.1:${ours.port}/builds`), event)).resolves.toEqual({ kind: 'delivered' })
    const a = theirs.received[0]!
    const b = ours.received[0]!
    expect(b.path).toBe(a.path)
    expect(b.headers['content-type']).toBe(a.headers['content-type'])
    const pick = (x: string) => {
      const j = JSON.parse(x) as Record<string, unknown>
      return { topic: j.topic, title: j.title, message: j.message }
    }
    expect(pick(b.body)).toEqual(pick(a.body))
  })

  it('JSON webhook: the same request line, content type and title', async () => {
    const [theirs, ours] = await twoReceivers()
    await apprise(`json://127.0.0.1:${theirs.port}/hook`, event.title, event.text)
    await expect(send(parsed(`http://127.0.0.1:${ours.port}/hook`), event)).resolves.toEqual({ kind: 'delivered' })
    const a = theirs.received[0]!
    const b = ours.received[0]!
    expect(b.path).toBe(a.path)
    expect(b.headers['content-type']).toBe(a.headers['content-type'])
    expect((JSON.parse(b.body) as { title: string }).title).toBe((JSON.parse(a.body) as { title: string }).title)
    expect((JSON.parse(a.body) as { message: string }).message).toBe(event.text)
    expect((JSON.parse(b.body) as { text: string }).text).toBe(event.text)
  })
})
