// `agent-tray forward secret NAME`: a JSON webhook's signing secret rotated in place, from stdin or
// made with --generate, against a loopback receiver and a key store in memory.
import fs from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { SIGNATURE_HEADER, verifySignature } from '../core/forward/sign'
import { ANSWERS, type Receiver, startReceiver } from '../core/forward/test-receivers'
import { forwardSecretAccount } from '../shared/forward-target'
import { EXIT } from './exit-codes'
import { makeRunner, memorySecrets, tempDir } from './test-harness'

const OLD = 'old-signing-secret-1a2b3c'
const NEW = 'new-signing-secret-4d5e6f'
let receiver: Receiver
let dir: string

beforeAll(async () => {
  receiver = await startReceiver(ANSWERS.ok())
  dir = tempDir()
})

afterAll(async () => {
  await receiver.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

const lastSignature = () => {
  const got = receiver.received.at(-1)!
  return { body: got.body, header: got.headers[SIGNATURE_HEADER.toLowerCase()] as string }
}

it('forward secret: a new secret from stdin or --generate, the same target id, never echoed but once when made', async () => {
  const { targets, secrets } = memorySecrets()
  const run = makeRunner({ configDir: dir, deps: { secrets: () => secrets } })
  expect(
    (await run(['forward', 'add', '-', '--name', 'hooks', '--secret-stdin'], { stdin: `${receiver.url}/in\n${OLD}\n` }))
      .code
  ).toBe(EXIT.ok)
  const id = (JSON.parse((await run(['forward', 'list', '--json'])).out) as { id: string }[])[0]!.id

  const given = await run(['forward', 'secret', 'hooks'], { stdin: `${NEW}\nignored\n` })
  expect(given).toMatchObject({
    code: EXIT.ok,
    out: "Replaced the signing secret of 'hooks'. Its queue and history stay.\n"
  })
  expect(targets.get(forwardSecretAccount(id))).toContain(NEW)
  await run(['forward', 'test', 'hooks'])
  expect(verifySignature(lastSignature().body, NEW, lastSignature().header)).toBe(true)
  expect(verifySignature(lastSignature().body, OLD, lastSignature().header)).toBe(false)

  // On a terminal it is typed without echo.
  const typed = await run(['forward', 'secret', 'hooks'], {
    isTTY: true,
    deps: { promptHidden: async () => `${NEW}-typed` }
  })
  expect(typed.code).toBe(EXIT.ok)
  expect(targets.get(forwardSecretAccount(id))).toContain(`${NEW}-typed`)

  const made = await run(['forward', 'secret', 'hooks', '--generate'])
  expect(made.code).toBe(EXIT.ok)
  const secret = made.out.trim()
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
  expect(made.err).toMatch(/shown once/)
  await run(['forward', 'test', 'hooks'])
  expect(verifySignature(lastSignature().body, secret, lastSignature().header)).toBe(true)
  // Still the same target: what the outbox keeps under its id stays its own.
  expect((JSON.parse((await run(['forward', 'list', '--json'])).out) as { id: string }[]).map((t) => t.id)).toEqual([
    id
  ])
  for (const r of [given, typed, made]) expect(r.out + r.err).not.toContain(NEW)
})

it('forward secret refuses a short secret, an empty stdin and a target that is not a JSON webhook (exit 2), keeping the old one', async () => {
  const { targets, secrets } = memorySecrets()
  const own = tempDir()
  const run = makeRunner({ configDir: own, deps: { secrets: () => secrets } })
  await run(['forward', 'add', '-', '--name', 'hooks', '--secret-stdin'], { stdin: `${receiver.url}/in\n${OLD}\n` })
  await run(['forward', 'add', '-', '--name', 'phone'], { stdin: 'ntfy://alerts\n' })
  const before = new Map(targets)
  const short = await run(['forward', 'secret', 'hooks'], { stdin: 'short-secret\n' })
  expect(short).toMatchObject({ code: EXIT.usage, err: expect.stringContaining('at least 16 characters') })
  expect(short.err).not.toContain('short-secret')
  expect((await run(['forward', 'secret', 'hooks'], { stdin: '\n' })).code).toBe(EXIT.usage)
  expect(await run(['forward', 'secret', 'phone', '--generate'])).toMatchObject({
    code: EXIT.usage,
    err: expect.stringContaining('JSON webhook only')
  })
  expect((await run(['forward', 'secret', 'nobody'], { stdin: `${NEW}\n` })).code).toBe(EXIT.notFound)
  expect(targets).toEqual(before)
  fs.rmSync(own, { recursive: true, force: true })
})
