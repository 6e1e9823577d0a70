// login/logout in-process against a real gnome-keyring (private D-Bus) and the reference service.
// Only the terminal is stood in for: the no-echo prompt needs a real TTY.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
import { decodeBoundKey } from '../core/secrets/custody'
import { createKeytarSecretStore } from '../core/secrets/keytar-store'
import { startTestKeyring, type TestKeyring } from '../core/secrets/test-keyring'
import { KeychainUnavailableError } from '../core/secrets/types'
import { openSettings } from '../core/settings/store'
import { type ReferenceService, startReferenceService } from '../reference-service'
import { EXIT } from './exit-codes'
import { filesUnder, makeRunner, tempDir } from './test-harness'

const KEY = 'tty-key-77c0d1e5b9'
let service: ReferenceService
let keyring: TestKeyring
let configDir: string
let run: ReturnType<typeof makeRunner>

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 11, manualClock: true })
  keyring = await startTestKeyring()
  configDir = tempDir()
  run = makeRunner({
    configDir,
    deps: {
      secrets: () => createKeytarSecretStore(),
      isKeychainUnavailable: (e) => e instanceof KeychainUnavailableError
    }
  })
}, 60_000)

afterAll(async () => {
  await service?.close()
  await keyring?.stop()
  if (configDir) fs.rmSync(configDir, { recursive: true, force: true })
})

describe('login on a terminal', () => {
  it('prompts without echo, checks the key, stores it, and tasks then use it', async () => {
    const questions: string[] = []
    const promptHidden = async (question: string) => {
      questions.push(question)
      return `${KEY}\n`
    }
    const login = await run(['login', '--base-url', `${service.url}/`, '--json'], {
      isTTY: true,
      deps: { promptHidden }
    })
    expect(login.err).toBe('')
    expect(login.code).toBe(0)
    expect(questions).toEqual([`API key for ${service.url}: `])
    const { connection } = JSON.parse(login.out) as { connection: { id: string; baseUrl: string } }
    // The trailing slash is dropped: one service is stored once.
    expect(connection.baseUrl).toBe(service.url)
    expect(decodeBoundKey((await createKeytarSecretStore().get(connection.id))!)).toEqual({
      origin: service.url,
      baseUrl: service.url,
      key: KEY
    })
    expect((await openSettings({ dir: configDir })).read().activeConnectionId).toBe(connection.id)

    const p = service.control.createProject({ name: 'After login' })
    const got = await run(['project', 'get', p.id])
    expect(got.code).toBe(0)
    expect(got.out).toContain('After login')

    // Logging in again to the same URL keeps one connection.
    const again = await run(['login', '--base-url', service.url], { stdin: `${KEY}\n` })
    expect(again.code).toBe(0)
    expect(
      (await openSettings({ dir: configDir })).read().connections.filter((c) => c.baseUrl === service.url)
    ).toHaveLength(1)

    for (const r of [login, got, again]) expect(r.out + r.err).not.toContain(KEY)
    for (const f of filesUnder(configDir)) expect(f.text, f.file).not.toContain(KEY)
  })

  it("a key stored for one origin is never sent to another: --base-url elsewhere asks for that service's own key", async () => {
    await run(['login', '--base-url', service.url], { stdin: `${KEY}\n` })
    // The same machine on another port is another origin, so another connection.
    const elsewhere = await startReferenceService({ apiKey: 'other-key-1b2c3d', port: 0, seed: 12, manualClock: true })
    try {
      const r = await run(['tasks', '00000000-0000-4000-8000-000000000001', '--base-url', elsewhere.url])
      expect(r.code).toBe(EXIT.auth)
      expect(r.err).toContain(`No API key for ${elsewhere.url}`)
      expect(elsewhere.control.stats().requests).toBe(0)
    } finally {
      await elsewhere.close()
    }
  })

  it('a rejected key stores nothing; an empty answer is a usage error', async () => {
    const dir = tempDir()
    const wrong = await run(['login', '--base-url', service.url], {
      env: { AGENT_TRAY_CONFIG_DIR: dir },
      isTTY: true,
      deps: { promptHidden: async () => 'nope-nope-nope' }
    })
    expect(wrong.code).toBe(EXIT.auth)
    expect(wrong.err).toMatch(/^agent-tray: .*rejected this API key; nothing was stored\.\n$/)
    expect((await openSettings({ dir })).read().connections).toEqual([])
    const empty = await run(['login', '--base-url', service.url], {
      env: { AGENT_TRAY_CONFIG_DIR: dir },
      isTTY: true,
      deps: { promptHidden: async () => '' }
    })
    expect(empty.code).toBe(EXIT.usage)
  })

  it('--publishing-domain is kept with the connection, so publish checks hostnames before sending', async () => {
    const dir = tempDir()
    const env = { AGENT_TRAY_CONFIG_DIR: dir }
    const login = await run(['login', '--base-url', service.url, '--publishing-domain', service.publishingDomain], {
      env,
      stdin: `${KEY}\n`
    })
    expect(login.code).toBe(0)
    expect((await openSettings({ dir })).read().connections[0]?.publishingDomain).toBe(service.publishingDomain)
    const p = service.control.createProject({ name: 'Domain' })
    service.control.resetStats()
    const refused = await run(['publish', p.id, 'shop.example.com'], { env })
    expect(refused.code).toBe(EXIT.publishFailed)
    expect(refused.err).toContain(service.publishingDomain)
    // Refused before anything was sent.
    expect(service.control.stats().byRoute['POST /projects/{id}/publish']).toBeUndefined()
  })

  it('a service that cannot be reached stores nothing (network)', async () => {
    const dir = tempDir()
    const r = await run(['login', '--base-url', 'http://127.0.0.1:1'], {
      env: { AGENT_TRAY_CONFIG_DIR: dir },
      stdin: KEY
    })
    expect(r.code).toBe(EXIT.network)
    expect((await openSettings({ dir })).read().connections).toEqual([])
  })

  it('logout removes the key; a second logout says there was none', async () => {
    const dir = tempDir()
    const env = { AGENT_TRAY_CONFIG_DIR: dir }
    expect((await run(['login', '--base-url', service.url, '--name', 'ref'], { env, stdin: KEY })).code).toBe(0)
    const id = (await openSettings({ dir })).read().activeConnectionId!
    const out = await run(['logout'], { env })
    expect(out.code).toBe(0)
    expect(out.out).toContain('its API key was removed')
    expect(await createKeytarSecretStore().get(id)).toBeNull()
    expect((await run(['logout'], { env })).out).toContain('No API key was stored')
    expect((await run(['tasks', 'x'], { env })).code).toBe(EXIT.auth)
  })

  it('config.json pointing a connection at another origin: the key is not sent there, and the command says the address changed', async () => {
    const dir = tempDir()
    const env = { AGENT_TRAY_CONFIG_DIR: dir }
    expect((await run(['login', '--base-url', service.url], { env, stdin: KEY })).code).toBe(0)
    // Another loopback server that would accept the same key: only its request count tells.
    const elsewhere = await startReferenceService({ apiKey: KEY, port: 0, seed: 13, manualClock: true })
    try {
      const file = path.join(dir, 'config.json')
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replaceAll(service.url, elsewhere.url))
      const r = await run(['tasks', '00000000-0000-4000-8000-000000000001'], { env })
      expect(r.code).toBe(EXIT.auth)
      expect(r.err).toContain(`Its address changed from ${service.url} to ${elsewhere.url}`)
      expect(r.err).toContain(`agent-tray login --base-url ${elsewhere.url}`)
      expect(elsewhere.control.stats().requests).toBe(0)
    } finally {
      await elsewhere.close()
    }
  })

  it('config.json cut short inside its connections: the connection comes back from the keychain, and logout --base-url removes its key', async () => {
    // Its own service: the keychain is shared by every test here, and only this one's entry may match.
    const service = await startReferenceService({ apiKey: KEY, port: 0, seed: 14, manualClock: true })
    onTestFinished(() => service.close())
    const dir = tempDir()
    const env = { AGENT_TRAY_CONFIG_DIR: dir }
    expect((await run(['login', '--base-url', service.url, '--name', 'Mine'], { env, stdin: KEY })).code).toBe(0)
    const id = (await openSettings({ dir })).read().activeConnectionId!
    const file = path.join(dir, 'config.json')
    const whole = fs.readFileSync(file, 'utf8')
    // With no last good copy beside it, so that only the keychain knows the connection.
    const cut = () => {
      fs.rmSync(path.join(dir, 'config.last-good.json'), { force: true })
      fs.writeFileSync(file, whole.slice(0, whole.indexOf('"baseUrl"') + 4))
    }
    cut()
    const p = service.control.createProject({ name: 'Restored' })
    const tasks = await run(['tasks', p.id, '--base-url', service.url], { env })
    expect(tasks.err).toContain(`Restored the connection to ${service.url} from the keychain: config.json had lost it.`)
    expect(tasks.code).toBe(0)
    const restored = (await openSettings({ dir })).read().connections
    expect(restored).toEqual([expect.objectContaining({ id, baseUrl: service.url, name: new URL(service.url).host })])
    for (const f of filesUnder(dir)) expect(f.text, f.file).not.toContain(KEY)

    cut()
    const out = await run(['logout', '--base-url', service.url], { env })
    expect(out.code).toBe(0)
    expect(out.out).toContain('its API key was removed')
    expect(await createKeytarSecretStore().get(id)).toBeNull()
  })
})
