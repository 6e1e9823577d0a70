// `agent-tray forward add` takes the token-bearing URL as `login` takes a key: typed without echo at
// a terminal, else the first line of standard input (the signing secret the second), never an
// argument. A JSON webhook added without a secret gets one, printed once.
import fs from 'node:fs'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { verifySignature } from '../core/forward/sign'
import { ANSWERS, type Receiver, startReceiver } from '../core/forward/test-receivers'
import { EXIT } from './exit-codes'
import { filesUnder, makeRunner, memorySecrets, tempDir } from './test-harness'

const TOKEN = 'hook-token-9a8b7c6d5e4f3a2b'
const SECRET = 'given-signing-secret-4d3c2b1a'
let receiver: Receiver
let configDir: string
let store: ReturnType<typeof memorySecrets>
let run: ReturnType<typeof makeRunner>

beforeAll(async () => {
  receiver = await startReceiver(ANSWERS.ok())
})
afterAll(async () => {
  await receiver?.close()
})
beforeEach(() => {
  configDir = tempDir()
  store = memorySecrets()
  run = makeRunner({ configDir, deps: { secrets: () => store.secrets } })
})
afterEach(() => {
  fs.rmSync(configDir, { recursive: true, force: true })
})

const listed = async () => JSON.parse((await run(['forward', 'list', '--json'])).out) as { name: string }[]

describe('forward add: where the URL comes from', () => {
  it('refuses the URL as an argument (exit 2) without repeating it, and stores nothing', async () => {
    const url = `https://hooks.example.com/in/${TOKEN}`
    const r = await run(['forward', 'add', url, '--name', 'hooks'])
    expect(r.code).toBe(EXIT.usage)
    expect(r.err).toMatch(/never an argument/)
    expect(r.err).toMatch(/standard input/)
    expect(r.out + r.err).not.toContain(TOKEN)
    expect(r.out + r.err).not.toContain('hooks.example.com')
    expect(store.keys.size).toBe(0)
    expect(await listed()).toEqual([])
  })

  it('on a terminal, asks for the URL without echo, and for the secret too with --secret-stdin', async () => {
    const questions: string[] = []
    const answers = [`${receiver.url}/in/${TOKEN}`, SECRET]
    const promptHidden = async (question: string) => (questions.push(question), `${answers.shift()}\n`)
    const r = await run(['forward', 'add', '--name', 'hooks', '--when', 'always', '--secret-stdin'], {
      isTTY: true,
      deps: { promptHidden }
    })
    expect(r).toMatchObject({ code: EXIT.ok, err: '' })
    expect(r.out).toMatch(/^Added webhook target 'hooks'/)
    expect(questions).toEqual(['Target URL (it holds a token; not shown): ', 'Signing secret: '])
    expect((await run(['forward', 'test', 'hooks'])).code).toBe(EXIT.ok)
    const got = receiver.received.at(-1)!
    expect(got.path).toBe(`/in/${TOKEN}`)
    expect(verifySignature(got.body, SECRET, got.headers['x-agent-tray-signature'] as string)).toBe(true)
    const empty = await run(['forward', 'add', '--name', 'other'], {
      isTTY: true,
      deps: { promptHidden: async () => '' }
    })
    expect(empty).toMatchObject({ code: EXIT.usage, err: expect.stringMatching(/No target URL/) })
  })

  it('from standard input: the URL on the first line, the secret on the second; `-` reads it too', async () => {
    const piped = await run(['forward', 'add', '--name', 'hooks', '--when', 'always', '--secret-stdin'], {
      stdin: `${receiver.url}/in/${TOKEN}\n${SECRET}\n`
    })
    expect(piped).toMatchObject({ code: EXIT.ok, err: '' })
    await run(['forward', 'test', 'hooks'])
    const got = receiver.received.at(-1)!
    expect(got.path).toBe(`/in/${TOKEN}`)
    expect(verifySignature(got.body, SECRET, got.headers['x-agent-tray-signature'] as string)).toBe(true)
    const dash = await run(['forward', 'add', '-', '--name', 'phone'], { stdin: 'ntfys://ntfy.example/phone-topic\n' })
    expect(dash).toMatchObject({
      code: EXIT.ok,
      out: "Added ntfy target 'phone' (ntfy.example): waiting, failed, budget, away.\n"
    })
    const noSecret = await run(['forward', 'add', '--name', 'x', '--secret-stdin'], {
      stdin: `${receiver.url}/in/${TOKEN}\n`
    })
    expect(noSecret).toMatchObject({ code: EXIT.usage, err: expect.stringMatching(/No signing secret/) })
    expect((await run(['forward', 'add'], { stdin: '' })).code).toBe(EXIT.usage)
    for (const r of [piped, dash, noSecret]) expect(r.out + r.err).not.toContain(TOKEN)
    expect((await listed()).map((t) => t.name)).toEqual(['hooks', 'phone'])
  })
})

describe('forward add: a JSON webhook with no secret', () => {
  it('gets a generated one, printed once with a line saying so, and signs with it', async () => {
    const r = await run(['forward', 'add', '--name', 'hooks', '--when', 'always'], {
      stdin: `${receiver.url}/in/${TOKEN}\n`
    })
    expect(r.code).toBe(EXIT.ok)
    const generated = /^Signing secret: ([A-Za-z0-9_-]{43})$/m.exec(r.out)?.[1]
    expect(generated, r.out).toBeDefined()
    expect(r.out).toMatch(/not be shown again/)
    await run(['forward', 'test', 'hooks'])
    const got = receiver.received.at(-1)!
    expect(verifySignature(got.body, generated!, got.headers['x-agent-tray-signature'] as string)).toBe(true)
    // Never printed again, never in a file of the settings directory.
    expect((await run(['forward', 'list'])).out + (await run(['forward', 'list', '--json'])).out).not.toContain(
      generated
    )
    for (const f of filesUnder(configDir)) expect(f.text, f.file).not.toContain(generated)
  })

  it('--json: the secret is a field of the answer; other kinds and a given secret get none', async () => {
    const json = await run(['forward', 'add', '--name', 'hooks', '--json'], { stdin: `${receiver.url}/in/${TOKEN}\n` })
    expect(JSON.parse(json.out)).toMatchObject({
      name: 'hooks',
      kind: 'webhook',
      generatedSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/)
    })
    const ntfy = await run(['forward', 'add', '--name', 'phone', '--json'], {
      stdin: 'ntfys://ntfy.example/phone-topic\n'
    })
    expect(JSON.parse(ntfy.out)).toMatchObject({ name: 'phone', generatedSecret: null })
    const given = await run(['forward', 'add', '--name', 'given', '--secret-stdin'], {
      stdin: `${receiver.url}/in/${TOKEN}\n${SECRET}\n`
    })
    expect(given.out).not.toMatch(/Signing secret/)
  })
})
