// The README's receiver example (Forwarding) runs as written against a real signed request: what a
// webhook's owner copies verifies what the app sends, and refuses a changed body or a stale time.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { renderRequest } from '../src/core/forward/render'
import { createSender } from '../src/core/forward/send'
import type { ParsedTarget } from '../src/core/forward/target-url'
import { forwardEvent } from '../src/core/forward/test-events'
import { ANSWERS, type Receiver, startReceiver } from '../src/core/forward/test-receivers'

type Verify = (headers: Record<string, unknown>, body: string, secret: string, toleranceS?: number) => boolean

const SECRET = 'readme-signing-secret-0123'
let receiver: Receiver
let dir: string
let verifyAgentTray: Verify

beforeAll(async () => {
  const readme = fs.readFileSync(path.resolve(import.meta.dirname, '..', 'README.md'), 'utf8')
  const example = /```js\n([\s\S]*?function verifyAgentTray[\s\S]*?)```/.exec(readme)?.[1]
  if (example === undefined) throw new Error('README.md has no ```js block with verifyAgentTray')
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readme-webhook-'))
  const file = path.join(dir, 'verify.mjs')
  fs.writeFileSync(file, `${example}\nexport { verifyAgentTray }\n`)
  verifyAgentTray = ((await import(pathToFileURL(file).href)) as { verifyAgentTray: Verify }).verifyAgentTray
  receiver = await startReceiver(ANSWERS.ok())
})

afterAll(async () => {
  await receiver?.close()
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

it("the README's verifyAgentTray takes a request the app signed, and refuses it changed, stale or under another secret", async () => {
  const target: ParsedTarget = { kind: 'webhook', host: '127.0.0.1', url: `${receiver.url}/in` }
  const outcome = await createSender({ now: () => Date.now() })(target, forwardEvent('t1', 'failed'), SECRET)
  expect(outcome.kind).toBe('delivered')
  const { headers, body } = receiver.received.at(-1)!
  expect(verifyAgentTray(headers, body, SECRET)).toBe(true)
  expect(verifyAgentTray(headers, body.replace('failed', 'completed'), SECRET)).toBe(false)
  expect(verifyAgentTray(headers, body, `${SECRET}x`)).toBe(false)
  expect(verifyAgentTray({}, body, SECRET)).toBe(false)
  const stale = renderRequest(target, forwardEvent('t1', 'failed'), SECRET, Date.now() - 600_000)
  expect(verifyAgentTray(stale.headers, stale.body, SECRET)).toBe(false)
})
