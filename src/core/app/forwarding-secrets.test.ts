// A forwarding target's token, in the composed app: it goes to the key store and nowhere else. Not
// in an IPC answer (add, list, test, a refused add), not in a file of the settings directory
// (config.json, state.json, the outbox), not in Copy diagnostics, and taken out of every log line,
// in this run and the next (the log learns the tokens as the key store is read at start).
import { EventEmitter } from 'node:events'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import type { ForwardTargetView, ForwardTestResult, SavedTargetView } from '../../shared/forward-target'
import type { IpcResult } from '../../shared/ipc'
import { verifySignature } from '../forward/sign'
import { type Receiver, startReceiver } from '../forward/test-receivers'
import { createSessionSecretStore, type SecretStore } from '../secrets'
import { openSettings } from '../settings/store'
import { composeApp, type ComposedApp } from './compose'
import { dispatch } from './dispatch'
import type { PowerEvents } from './lifecycle'

const TOKEN = 'T0kenPart-8d1f0c2b9e7a6d5c'
const SIGNING = 'signing-secret-5e4d3c2b1a'
const OTHER = 'RemoteT0ken-77aa66bb55cc'

let dir: string
let receiver: Receiver
let secrets: SecretStore
let logged: string[]
let app: ComposedApp

async function compose(): Promise<ComposedApp> {
  const composed = composeApp({
    settings: await openSettings({ dir }),
    secrets,
    window: { show: () => {}, send: () => {} },
    notify: () => {},
    openExternal: async () => {},
    ipc: { ipcMain: { handle: () => {}, removeHandler: () => {} }, isTrusted: () => true },
    power: new EventEmitter() as EventEmitter & PowerEvents,
    watchOnline: () => ({ check: () => {}, stop: () => {} }),
    quit: () => {},
    log: (m) => logged.push(m),
    writeClipboardText: async () => {},
    stateIntervalMs: 0
  })
  await composed.start()
  return composed
}

const call = async <T>(channel: string, request?: unknown): Promise<IpcResult<T>> =>
  (await dispatch(app.controller.handlers, channel, request)) as IpcResult<T>

/** Every file under the settings directory, as text. */
async function filesText(): Promise<string> {
  const names = await readdir(dir, { recursive: true, withFileTypes: true })
  const texts = await Promise.all(
    names.filter((d) => d.isFile()).map((d) => readFile(join(d.parentPath, d.name), 'utf8'))
  )
  return texts.join('\n')
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-tray-forward-secrets-'))
  // A hostile or careless receiver that quotes the path it was called on in its refusal.
  receiver = await startReceiver({ status: 404, body: `no hook at /hooks/${TOKEN}` })
  secrets = createSessionSecretStore('Kept in memory for this test.')
  logged = []
  app = await compose()
})

afterEach(async () => {
  await app.stop()
  await receiver.close()
  await rm(dir, { recursive: true, force: true })
})

it('a target token is never in an answer, a file, the diagnostics or a log line', async () => {
  const answers: unknown[] = []
  const added = await call<ForwardTargetView>('forward:add', {
    url: `${receiver.url}/hooks/${TOKEN}`,
    name: 'hooks',
    on: ['failed'],
    when: 'always',
    secret: SIGNING
  })
  answers.push(added)
  expect(added).toMatchObject({
    ok: true,
    value: { kind: 'webhook', host: `127.0.0.1:${receiver.port}`, name: 'hooks' }
  })
  const id = (added as { value: ForwardTargetView }).value.id
  // The key store holds it in forwarding's entries, apart from the API keys.
  expect(await secrets.forwarding.get(`forward:${id}`)).toContain(TOKEN)
  expect(await secrets.get(`forward:${id}`)).toBeNull()

  const tested = await call<ForwardTestResult>('forward:test', { targetId: id })
  answers.push(tested)
  expect(receiver.received[0]!.path).toBe(`/hooks/${TOKEN}`)
  expect(tested).toMatchObject({
    ok: true,
    value: {
      delivered: false,
      reason: 'HTTP 404: no hook at /hooks/[redacted]',
      target: { lastError: 'HTTP 404: no hook at /hooks/[redacted]' }
    }
  })
  answers.push(await call('forward:list'))
  // Refused: plain http to another host; the problem does not repeat the URL.
  answers.push(await call('forward:add', { url: `http://example.com/hooks/${OTHER}` }))
  expect(answers.at(-1)).toMatchObject({
    ok: false,
    error: { kind: 'invalid_argument', message: expect.stringMatching(/must use https/) }
  })
  answers.push(await call('app:copy-diagnostics'))

  for (const text of [JSON.stringify(answers), await filesText()]) {
    expect(text).not.toContain(TOKEN)
    expect(text).not.toContain(SIGNING)
    expect(text).not.toContain(OTHER)
  }
  expect(await filesText()).toContain('"forwarding"')

  // A line that quotes the URL (a refused link, here) has the token and the secret taken out.
  app.openDeepLink(`agent-tray://x/${TOKEN}`)
  expect(app.redact(`sent to ${receiver.url}/hooks/${TOKEN} signed with ${SIGNING}`)).toBe(
    `sent to [redacted] signed with [redacted]`
  )
  expect(app.redact(`path %2Fhooks%2F${TOKEN}`)).toBe('path %2Fhooks%2F[redacted]')

  // The next run: the log knows the tokens before anything reads the target.
  await app.stop()
  logged = []
  app = await compose()
  app.openDeepLink(`agent-tray://x/${TOKEN}`)
  expect(logged.join('\n')).toMatch(/deep link refused/)
  expect(logged.join('\n')).not.toContain(TOKEN)
})

it("a JSON webhook added with no secret gets one, in add's answer only: its requests are signed with it", async () => {
  const added = await call<SavedTargetView>('forward:add', {
    url: `${receiver.url}/hooks/${TOKEN}`,
    name: 'hooks',
    on: ['failed'],
    when: 'always'
  })
  if (!added.ok) throw new Error(added.error.message)
  const generated = added.value.generatedSecret
  expect(generated).toMatch(/^[A-Za-z0-9_-]{43}$/)
  const answers = [
    await call('forward:test', { targetId: added.value.id }),
    await call('forward:list'),
    await call('app:copy-diagnostics')
  ]
  const got = receiver.received[0]!
  expect(verifySignature(got.body, generated!, got.headers['x-agent-tray-signature'] as string)).toBe(true)
  for (const text of [JSON.stringify(answers), await filesText()]) expect(text).not.toContain(generated)
  expect(app.redact(`signed with ${generated}`)).toBe('signed with [redacted]')
  // A secret given, or a kind that is not signed: nothing is made.
  const given = await call<SavedTargetView>('forward:add', {
    url: `${receiver.url}/other/${OTHER}`,
    name: 'given',
    secret: SIGNING
  })
  const ntfy = await call<SavedTargetView>('forward:add', {
    url: `ntfy://127.0.0.1:${receiver.port}/topic-abc`,
    name: 'phone'
  })
  expect(given).toMatchObject({ ok: true, value: { generatedSecret: null } })
  expect(ntfy).toMatchObject({ ok: true, value: { generatedSecret: null } })
})

it("forward:update gives a webhook a new signing secret: in the key store only, the target's id kept, a short one refused", async () => {
  const NEXT = 'next-signing-secret-7f6e5d'
  const added = await call<ForwardTargetView>('forward:add', {
    url: `${receiver.url}/hooks/${TOKEN}`,
    name: 'hooks',
    on: ['failed'],
    when: 'always',
    secret: SIGNING
  })
  const id = (added as { value: ForwardTargetView }).value.id
  const updated = await call<ForwardTargetView>('forward:update', { targetId: id, secret: NEXT })
  expect(updated).toMatchObject({ ok: true, value: { id, name: 'hooks' } })
  expect(JSON.parse((await secrets.forwarding.get(`forward:${id}`))!)).toEqual({
    url: `${receiver.url}/hooks/${TOKEN}`,
    secret: NEXT
  })
  expect(await call('forward:update', { targetId: id, secret: 'too-short' })).toMatchObject({
    ok: false,
    error: { kind: 'invalid_argument', message: 'A signing secret is at least 16 characters.' }
  })
  expect(JSON.parse((await secrets.forwarding.get(`forward:${id}`))!)).toMatchObject({ secret: NEXT })
  for (const text of [JSON.stringify(updated), await filesText()]) expect(text).not.toContain(NEXT)
  expect(app.redact(`signed with ${NEXT}`)).toBe('signed with [redacted]')
  expect(updated).toMatchObject({ value: { generatedSecret: null } })
})

it('forward:update can make the new signing secret: answered once, kept in the key store, never with one given too', async () => {
  const added = await call<ForwardTargetView>('forward:add', {
    url: `${receiver.url}/hooks/${TOKEN}`,
    name: 'hooks',
    secret: SIGNING
  })
  const id = (added as { value: ForwardTargetView }).value.id
  const made = await call<SavedTargetView>('forward:update', { targetId: id, generateSecret: true })
  const secret = (made as { value: SavedTargetView }).value.generatedSecret!
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
  expect(made).toMatchObject({ ok: true, value: { id, name: 'hooks' } })
  expect(JSON.parse((await secrets.forwarding.get(`forward:${id}`))!)).toEqual({
    url: `${receiver.url}/hooks/${TOKEN}`,
    secret
  })
  expect(await filesText()).not.toContain(secret)
  expect(
    await call('forward:update', { targetId: id, secret: 'given-signing-secret-1234', generateSecret: true })
  ).toMatchObject({ ok: false, error: { kind: 'invalid_argument' } })
  expect(JSON.parse((await secrets.forwarding.get(`forward:${id}`))!)).toMatchObject({ secret })
})
