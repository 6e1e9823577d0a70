// Key custody in the window's composition, against a real gnome-keyring (private D-Bus) and the
// reference service over HTTP: a key goes only to the origin it was given for, a connection a
// damaged config.json lost comes back from the keychain, a forwarding target's entry is never a key,
// no key ciphertext outlives its key, and the demo's connection outlives no run.
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { MANUAL_START_TIME, type ReferenceService, startReferenceService } from '../../reference-service'
import { startReceiver } from '../forward/test-receivers'
import { rememberKeys } from '../log/known-keys'
import { chooseSecretStore } from '../secrets/choose'
import { decodeBoundKey, encodeBoundKey } from '../secrets/custody'
import { createKeytarSecretStore, loadKeytar } from '../secrets/keytar-store'
import { createPendingSecretStore } from '../secrets/pending'
import { listFiles } from '../secrets/test-files'
import { startTestKeyring, type TestKeyring } from '../secrets/test-keyring'
import { fakeSafeStorage } from '../secrets/test-safe-storage'
import { FORWARDING_KEYCHAIN_SERVICE, KEYCHAIN_SERVICE, type SecretStore } from '../secrets/types'
import { openSettings } from '../settings/store'
import { ManualClock } from '../util/clock'
import { createAppController, DEMO_CONNECTION_ID } from './controller'
import type { ControllerPorts } from './ports'
import { referenceControllerPorts } from './test-controller'

const KEY = 'sk-live-custody-5c1e9a7b'
let keyring: TestKeyring
let keychain: SecretStore
const cleanups: (() => Promise<void> | void)[] = []

beforeAll(async () => {
  keyring = await startTestKeyring()
  keychain = createKeytarSecretStore()
}, 60_000)
afterAll(async () => {
  await keyring?.stop()
})
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
  // One keychain for every test here: each starts with none of another's entries.
  for (const { connectionId } of (await keychain.list?.()) ?? []) await keychain.delete(connectionId)
  const keytar = await loadKeytar()
  for (const { account } of await keytar.findCredentials(FORWARDING_KEYCHAIN_SERVICE))
    await keytar.deletePassword(FORWARDING_KEYCHAIN_SERVICE, account)
})

async function service(apiKey = KEY): Promise<ReferenceService> {
  const s = await startReferenceService({ apiKey, port: 0, seed: 21, manualClock: true })
  cleanups.push(() => s.close())
  return s
}

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-custody-'))
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** A controller over the settings in `dir` and the real keychain, started. */
async function app(dir: string, extra: Partial<ControllerPorts> = {}) {
  const settings = await openSettings({ dir })
  const controller = createAppController(
    // Wrapped as the app wraps it: main's store while the keychain is asked, the log's key memory.
    referenceControllerPorts({
      settings,
      secrets: rememberKeys(createPendingSecretStore(Promise.resolve(keychain))).store,
      clock: new ManualClock(Date.parse(MANUAL_START_TIME)),
      ...extra
    })
  )
  await controller.start()
  let stopped = false
  const stop = async () => {
    if (!stopped) await controller.stop()
    stopped = true
  }
  cleanups.push(stop)
  return { settings, controller, stop }
}

async function connect(controller: Awaited<ReturnType<typeof app>>['controller'], url: string): Promise<string> {
  const view = await controller.handlers['connection:save']({
    connection: { name: 'Mine', baseUrl: url, publishingDomain: '' },
    apiKey: KEY
  })
  return view.id
}

const configFile = (dir: string) => path.join(dir, 'config.json')

describe('a key goes only where it was given', () => {
  it('config.json pointing a connection at another origin: nothing is sent there, the window says the address changed', async () => {
    const home = await service()
    const elsewhere = await service() // would accept the key: only its request count tells
    const dir = tempDir()
    const first = await app(dir)
    const id = await connect(first.controller, home.url)
    expect(decodeBoundKey((await keychain.get(id))!)).toEqual({ origin: home.url, baseUrl: home.url, key: KEY })
    await first.stop()

    fs.writeFileSync(configFile(dir), fs.readFileSync(configFile(dir), 'utf8').replaceAll(home.url, elsewhere.url))
    const second = await app(dir)
    await second.controller.pollNow().catch(() => undefined)
    expect(elsewhere.control.stats().requests).toBe(0)
    expect(second.controller.getState().connections).toEqual([
      expect.objectContaining({
        id,
        baseUrl: elsewhere.url,
        hasKey: false,
        problem: `Its address changed from ${home.url} to ${elsewhere.url}; its API key was given for ${home.url} and is not sent anywhere else.`
      })
    ])
    // Giving this address its own key is what makes it work again.
    await second.controller.handlers['connection:save']({
      connection: { id, name: 'Mine', baseUrl: elsewhere.url, publishingDomain: '' },
      apiKey: KEY
    })
    expect(second.controller.getState().connections[0]).toMatchObject({ hasKey: true, problem: null })
  })
})

describe("a forwarding target's entry is never an API key", () => {
  it("config.json naming a connection forward:<target> at another host: the target's URL is not sent as a key, its entry stays as it was, the target still works", async () => {
    const receiver = await startReceiver()
    cleanups.push(() => receiver.close())
    const entry = JSON.stringify({ url: `${receiver.url}/hooks/T0kenPart-8d1f0c2b` })
    const keytar = await loadKeytar()
    // As an earlier version kept it: among the API keys, under the target's account.
    await keytar.setPassword(KEYCHAIN_SERVICE, 'forward:t1', entry)
    const dir = tempDir()
    const target = {
      id: 't1',
      name: 'hook',
      kind: 'webhook',
      host: `127.0.0.1:${receiver.port}`,
      on: ['failed'],
      when: 'always',
      paused: false,
      quietHours: false
    }
    const collector = { id: 'forward:t1', name: 'Collector', baseUrl: receiver.url, publishingDomain: '' }
    fs.writeFileSync(configFile(dir), JSON.stringify({ connections: [collector], forwarding: { targets: [target] } }))

    const { controller } = await app(dir)
    expect(controller.getState().connections).toEqual([])
    // Moved to forwarding's own service as it was, the first time forwarding opened the keychain.
    expect(await keytar.getPassword(FORWARDING_KEYCHAIN_SERVICE, 'forward:t1')).toBe(entry)
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, 'forward:t1')).toBeNull()
    expect(await controller.handlers['forward:test']({ targetId: 't1' })).toMatchObject({ delivered: true })
    expect(receiver.received.map((r) => [r.path, r.headers['x-api-key']])).toEqual([
      ['/hooks/T0kenPart-8d1f0c2b', undefined]
    ])
  })

  it("a start without targets leaves an earlier version's target entries where they are: forwarding never opened the keychain", async () => {
    const keytar = await loadKeytar()
    await keytar.setPassword(KEYCHAIN_SERVICE, 'forward:t9', '{"url":"https://hooks.example/x"}')
    await app(tempDir())
    expect(await keytar.getPassword(KEYCHAIN_SERVICE, 'forward:t9')).toBe('{"url":"https://hooks.example/x"}')
    expect(await keytar.getPassword(FORWARDING_KEYCHAIN_SERVICE, 'forward:t9')).toBeNull()
  })
})

describe('config.json cut short inside its connections', () => {
  it('the window restores the lost connection from the keychain (address, key, its host as name) and says so', async () => {
    const home = await service()
    const dir = tempDir()
    const first = await app(dir)
    const id = await connect(first.controller, home.url)
    await first.stop()
    const whole = fs.readFileSync(configFile(dir), 'utf8')
    fs.writeFileSync(configFile(dir), whole.slice(0, whole.indexOf('"baseUrl"') + 4))
    // With no last good copy beside it, so that only the keychain knows the connection.
    fs.rmSync(path.join(dir, 'config.last-good.json'))

    const second = await app(dir)
    const state = second.controller.getState()
    expect(state.connections).toEqual([
      expect.objectContaining({ id, baseUrl: home.url, name: new URL(home.url).host, hasKey: true, problem: null })
    ])
    expect(state.notices.join('\n')).toContain(
      `Restored the connection to ${home.url} from the keychain: config.json had lost it.`
    )
    const before = home.control.stats().requests
    const p = home.control.createProject({ name: 'Back' })
    await second.controller.handlers['project:watch']({ projectId: p.id })
    expect(home.control.stats().requests).toBeGreaterThan(before)
  })
})

describe('key ciphertexts', () => {
  it('a connection removed takes its key out of every store: the keychain and config.json’s ciphertexts', async () => {
    const home = await service()
    const dir = tempDir()
    const { controller, settings } = await app(dir)
    const id = await connect(controller, home.url)
    // Left from a run without a keychain: the same key as a ciphertext in config.json.
    await settings.ciphertexts.set(id, Buffer.from('left over').toString('base64'))
    await controller.handlers['connection:remove']({ connectionId: id })
    expect(await keychain.get(id)).toBeNull()
    expect(await settings.ciphertexts.get(id)).toBeNull()
    expect(fs.readFileSync(configFile(dir), 'utf8')).not.toContain(Buffer.from('left over').toString('base64'))
  })

  it('the keychain back (or basic_text turned off): ciphertexts move into it and are wiped from config.json', async () => {
    const dir = tempDir()
    const settings = await openSettings({ dir })
    const safe = fakeSafeStorage('basic_text')
    const entry = encodeBoundKey({ origin: 'https://api.one.example', baseUrl: 'https://api.one.example', key: KEY })
    const ciphertext = (await safe.encryptStringAsync(entry)).toString('base64')
    await settings.ciphertexts.set('c-moved', ciphertext)
    const chosen = await chooseSecretStore({
      loadKeytar,
      safeStorage: safe,
      allowBasicText: false,
      ciphertexts: settings.ciphertexts,
      forwardingCiphertexts: settings.forwardingCiphertexts
    })
    expect(chosen.backend).toBe('keychain')
    expect(await keychain.get('c-moved')).toBe(entry)
    expect(await settings.ciphertexts.ids()).toEqual([])
    expect(fs.readFileSync(configFile(dir), 'utf8')).not.toContain(ciphertext)
    await keychain.delete('c-moved')
  })

  it('a damaged config.json kept aside holds no key ciphertext', async () => {
    const dir = tempDir()
    const ciphertext = Buffer.from('a-key-ciphertext-0123456789').toString('base64')
    const damaged = `{"version": 3, "safeStorageKeys": {"c1": "${ciphertext}", "c2": "${ciphertext.slice(0, 12)}`
    fs.writeFileSync(configFile(dir), damaged)
    const settings = await openSettings({ dir })
    const asides = fs.readdirSync(dir).filter((f) => f.startsWith('config.json.corrupt-'))
    expect(asides).toHaveLength(1)
    const kept = fs.readFileSync(path.join(dir, asides[0]!), 'utf8')
    expect(kept).toBe('{"version": 3, "safeStorageKeys": {"c1": "[removed]", "c2": "[removed]"')
    expect(settings.takeNotices().join('\n')).toContain(asides[0])
  })
})

describe('the demo', () => {
  it('keeps its key for its run only and is gone after a restart: nothing polls its old port', async () => {
    const demo = await service('demo-key-0a1b2c3d')
    const dir = tempDir()
    const startDemo = async () => ({
      baseUrl: demo.url,
      apiKey: 'demo-key-0a1b2c3d',
      publishingDomain: demo.publishingDomain,
      ...demo.control.seedDemo()
    })
    const first = await app(dir, { startDemo })
    await first.controller.handlers['demo:start']()
    expect(first.controller.getState().activeConnectionId).toBe(DEMO_CONNECTION_ID)
    expect(await keychain.get(DEMO_CONNECTION_ID)).toBeNull()
    await first.stop() // nothing writes any more: every file is whole
    for (const f of listFiles(dir)) expect(fs.readFileSync(f, 'utf8'), f).not.toContain('demo-key-0a1b2c3d')
    // As an earlier version left it: the connection in config.json, its key in the keychain.
    await keychain.set(DEMO_CONNECTION_ID, 'demo-key-0a1b2c3d')
    // The demo is over and its port is free: anyone on this machine may bind it now. Here a
    // listener that counts who comes; the first run's service is gone, so only the restarted app
    // could come (and a request of the first run still under way cannot be counted).
    const port = Number(new URL(demo.url).port)
    await demo.close()
    let connections = 0
    const squatter = net.createServer((socket) => {
      connections++
      socket.destroy()
    })
    await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve))
    cleanups.push(() => new Promise<void>((resolve) => squatter.close(() => resolve())))
    const second = await app(dir)
    await second.controller.pollNow().catch(() => undefined)
    expect(second.controller.getState().connections).toEqual([])
    expect(second.settings.read().watched[DEMO_CONNECTION_ID]).toBeUndefined()
    expect(await keychain.get(DEMO_CONNECTION_ID)).toBeNull()
    expect(connections).toBe(0)
  })
})
