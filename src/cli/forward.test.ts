// `agent-tray forward` in-process against a real gnome-keyring (private D-Bus) and loopback
// receivers answering as the services do. The target's URL holds a token: it must reach the
// keychain and the receiver, and nothing else (no output, no file).
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { verifySignature } from '../core/forward/sign'
import { ANSWERS, type Receiver, startReceiver } from '../core/forward/test-receivers'
import { createKeytarSecretStore } from '../core/secrets/keytar-store'
import { startTestKeyring, type TestKeyring } from '../core/secrets/test-keyring'
import { KeychainUnavailableError } from '../core/secrets/types'
import { EXIT } from './exit-codes'
import { filesUnder, makeRunner, tempDir } from './test-harness'

const TOKEN = 'hook-token-5f1e9a7c3b2d4e6f'
const SECRET = 'signing-secret-0c9b8a7d6e5f'
let keyring: TestKeyring
let configDir: string
let run: ReturnType<typeof makeRunner>
let receiver: Receiver

beforeAll(async () => {
  keyring = await startTestKeyring()
  configDir = tempDir()
  receiver = await startReceiver(ANSWERS.ok())
  run = makeRunner({
    configDir,
    deps: {
      secrets: () => createKeytarSecretStore(),
      isKeychainUnavailable: (e) => e instanceof KeychainUnavailableError
    }
  })
}, 60_000)

afterAll(async () => {
  await receiver?.close()
  await keyring?.stop()
  if (configDir) fs.rmSync(configDir, { recursive: true, force: true })
})

describe('agent-tray forward', () => {
  it('add, list, test, remove: the token reaches the keychain and the receiver, never the output or a file', async () => {
    const url = `${receiver.url}/in/${TOKEN}`
    const added = await run(
      ['forward', 'add', '--name', 'hooks', '--on', 'failed,completed', '--when', 'always', '--secret-stdin'],
      { stdin: `${url}\n${SECRET}\n` }
    )
    expect(added).toMatchObject({
      code: EXIT.ok,
      out: "Added webhook target 'hooks' (127.0.0.1:" + receiver.port + '): failed, completed, always.\n'
    })

    const listed = await run(['forward', 'list', '--json'])
    expect(JSON.parse(listed.out)).toEqual([
      {
        id: expect.any(String),
        name: 'hooks',
        kind: 'webhook',
        host: `127.0.0.1:${receiver.port}`,
        on: ['failed', 'completed'],
        when: 'always',
        paused: false,
        quietHours: false
      }
    ])
    expect((await run(['forward', 'list'])).out).toMatch(/^NAME +KIND +HOST/)

    const tested = await run(['forward', 'test', 'hooks'])
    expect(tested).toMatchObject({ code: EXIT.ok, out: 'hooks: delivered.\n' })
    const got = receiver.received.at(-1)!
    expect(got.path).toBe(`/in/${TOKEN}`)
    expect(verifySignature(got.body, SECRET, got.headers['x-agent-tray-signature'] as string)).toBe(true)

    // A refusal: non-zero, with the receiver's reason, the token redacted from it.
    receiver.script.push({ status: 404, body: `no such hook ${TOKEN}` })
    const refused = await run(['forward', 'test'])
    expect(refused.code).toBe(EXIT.refused)
    expect(refused.err).toContain('hooks: refused: HTTP 404: no such hook [redacted]')

    for (const r of [added, listed, tested, refused]) expect(r.out + r.err).not.toContain(TOKEN)
    for (const f of filesUnder(configDir)) {
      expect(f.text, f.file).not.toContain(TOKEN)
      expect(f.text, f.file).not.toContain(SECRET)
    }

    expect(await run(['forward', 'remove', 'hooks'])).toMatchObject({ code: EXIT.ok })
    expect(JSON.parse((await run(['forward', 'list', '--json'])).out)).toEqual([])
    expect((await run(['forward', 'test', 'hooks'])).code).toBe(EXIT.notFound)
  }, 60_000)

  it('--quiet-hours: the target keeps the desktop quiet hours too, and says so', async () => {
    const added = await run(['forward', 'add', '--name', 'night', '--when', 'always', '--quiet-hours'], {
      stdin: 'ntfys://ntfy.example/night-topic\n'
    })
    expect(added).toMatchObject({
      code: EXIT.ok,
      out: "Added ntfy target 'night' (ntfy.example): waiting, failed, budget, always, not in quiet hours.\n"
    })
    expect(JSON.parse((await run(['forward', 'list', '--json'])).out)).toMatchObject([
      { name: 'night', when: 'always', quietHours: true }
    ])
    expect((await run(['forward', 'list'])).out).toMatch(
      /night +ntfy +ntfy\.example +waiting,failed,budget +always, not in quiet hours\n/
    )
    // Without the flag, a target forwards during quiet hours (the desktop's only).
    await run(['forward', 'add', '--name', 'day'], { stdin: 'ntfys://ntfy.example/day-topic\n' })
    expect(JSON.parse((await run(['forward', 'list', '--json'])).out)).toMatchObject([
      { name: 'night' },
      { name: 'day', when: 'away', quietHours: false }
    ])
    await run(['forward', 'remove', 'night'])
    await run(['forward', 'remove', 'day'])
  }, 60_000)

  it('refuses plain http to another machine and bad --on, storing nothing', async () => {
    const http = await run(['forward', 'add'], { stdin: `http://example.com/${TOKEN}\n` })
    expect(http.code).toBe(EXIT.usage)
    expect(http.err).toMatch(/https/)
    expect(http.err).not.toContain(TOKEN)
    expect((await run(['forward', 'add', '--on', 'everything'], { stdin: 'ntfys://ntfy.sh/topic-abc\n' })).code).toBe(
      EXIT.usage
    )
    expect(JSON.parse((await run(['forward', 'list', '--json'])).out)).toEqual([])
  })
})
