import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSettings, type SettingsStore } from '../settings/store'
import { login, LoginError, logout, type KeyCheck } from './login'
import { createSessionSecretStore } from './session-store'
import type { SecretStore } from './types'

const GOOD = 'sk-good-key-0123456789'
const BAD = 'sk-bad-key-9876543210'
let dir: string
let settings: SettingsStore
let secrets: SecretStore
const checked: string[] = []

/** Accepts GOOD only, like a service answering 401 to any other key. */
const checkKey: KeyCheck = async (baseUrl, apiKey) => {
  checked.push(baseUrl)
  return apiKey === GOOD ? { ok: true } : { ok: false, reason: 'rejected', message: '401 Unauthorized' }
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-login-'))
  settings = await openSettings({ dir })
  secrets = createSessionSecretStore('for this test')
  checked.length = 0
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

async function failure(promise: Promise<unknown>): Promise<LoginError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e
  )
  expect(error).toBeInstanceOf(LoginError)
  return error as LoginError
}

describe('login', () => {
  it('checks the key, stores it, and adds the connection as active', async () => {
    const result = await login({
      settings,
      secrets,
      checkKey,
      readKey: async () => `${GOOD}\n`,
      baseUrl: 'https://api.example.com/',
      newId: () => 'c1'
    })
    expect(checked).toEqual(['https://api.example.com'])
    expect(result).toMatchObject({ created: true, backend: 'session-only', detail: 'for this test' })
    expect(result.connection).toEqual({ id: 'c1', name: 'api.example.com', baseUrl: 'https://api.example.com', publishingDomain: '' })
    expect(await secrets.get('c1')).toBe(GOOD)
    expect(settings.read().activeConnectionId).toBe('c1')
  })

  it('reports a rejected key clearly and stores nothing', async () => {
    const error = await failure(
      login({ settings, secrets, checkKey, readKey: async () => BAD, baseUrl: 'https://api.example.com', newId: () => 'c1' })
    )
    expect(error.kind).toBe('rejected')
    expect(error.message).toBe('https://api.example.com rejected this API key (401 Unauthorized); it was not stored.')
    expect(await secrets.has('c1')).toBe(false)
    expect(settings.read().connections).toEqual([])
  })

  it('logs in again to the active connection without --base-url, replacing the key', async () => {
    await login({ settings, secrets, checkKey, readKey: async () => GOOD, baseUrl: 'http://localhost:9/', newId: () => 'c1' })
    await secrets.set('c1', 'sk-old')
    const again = await login({ settings, secrets, checkKey, readKey: async () => GOOD, newId: () => 'unused' })
    expect(again.created).toBe(false)
    expect(again.connection.id).toBe('c1')
    expect(await secrets.get('c1')).toBe(GOOD)
    expect(settings.read().connections).toHaveLength(1)
  })

  it('never puts the key in a message, even when the checker does', async () => {
    const leaky: KeyCheck = async (_url, apiKey) => {
      throw new Error(`connect ECONNREFUSED while sending x-api-key: ${apiKey}\nstack...`)
    }
    const error = await failure(
      login({ settings, secrets, checkKey: leaky, readKey: async () => GOOD, baseUrl: 'http://127.0.0.1:9' })
    )
    expect(error.kind).toBe('unreachable')
    expect(error.message).not.toContain(GOOD)
    expect(error.message).toContain('[redacted]')
    expect(error.message).not.toContain('\n')
  })

  it('refuses an empty key and a missing service', async () => {
    const empty = await failure(
      login({ settings, secrets, checkKey, readKey: async () => '  \n', baseUrl: 'https://api.example.com' })
    )
    expect(empty.kind).toBe('no-key')
    let asked = false
    const none = await failure(
      login({
        settings,
        secrets,
        checkKey,
        readKey: async () => {
          asked = true
          return GOOD
        }
      })
    )
    expect(none.kind).toBe('no-connection')
    expect(none.message).toMatch(/--base-url/)
    expect(asked).toBe(false)
    const badUrl = await failure(login({ settings, secrets, checkKey, readKey: async () => GOOD, baseUrl: 'ftp://x' }))
    expect(badUrl.kind).toBe('no-connection')
    expect(checked).toEqual([])
  })
})

describe('logout', () => {
  it('removes the key of the active connection and keeps its watched projects', async () => {
    await login({ settings, secrets, checkKey, readKey: async () => GOOD, baseUrl: 'https://api.example.com', newId: () => 'c1' })
    expect(await logout({ settings, secrets })).toMatchObject({ removed: true, connection: { id: 'c1' } })
    expect(await secrets.has('c1')).toBe(false)
    expect(await logout({ settings, secrets })).toMatchObject({ removed: false })
    expect(settings.read().connections).toHaveLength(1)
    await expect(logout({ settings, secrets, connectionId: 'nope' })).rejects.toThrow(/No connection nope/)
  })
})
