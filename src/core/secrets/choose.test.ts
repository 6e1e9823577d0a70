// With no keychain reachable (a child process whose D-Bus address points nowhere), through the
// real keytar and settings store and a fake of Electron's safeStorage only.
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listFiles } from './test-files'

const script = fileURLToPath(new URL('./test-no-keychain.ts', import.meta.url))
const API_KEY = 'sk-live-no-keychain-7f3a9c'
let dir: string
let results: Record<
  string,
  { backend: string; detail: string; readBack: boolean; has: boolean; ciphertext: string | null }
>
let keytarResult: { name?: string; message?: string; ok?: boolean }

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-nokeychain-'))
  const env: NodeJS.ProcessEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(dir, 'no-bus')}` }
  delete env.DISPLAY
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, dir, API_KEY], {
      env,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (chunk) => (out += chunk))
    child.stderr.on('data', (chunk) => (err += chunk))
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`child exited ${code}: ${err}`))))
  })
  const parsed = JSON.parse(stdout)
  keytarResult = parsed.keytar
  results = parsed
}, 60_000)
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

describe('no keychain reachable', () => {
  it('the keytar store fails with KeychainUnavailableError in one clear line', () => {
    expect(keytarResult.name).toBe('KeychainUnavailableError')
    expect(keytarResult.message).toMatch(
      /^No keychain is reachable \(is gnome-keyring or KWallet running and unlocked\?\): \S/
    )
    expect(keytarResult.message).not.toContain('\n')
    expect(keytarResult.message).not.toContain(API_KEY)
  })

  it('falls back to safeStorage, the ciphertext in the settings file', () => {
    for (const name of ['safeStorage', 'macOrWindows']) {
      const r = results[name]!
      expect(r.backend).toBe('safe-storage')
      expect(r.readBack).toBe(true)
      expect(r.has).toBe(true)
      expect(r.ciphertext).toMatch(/^[A-Za-z0-9+/]+=*$/)
      expect(r.detail).toMatch(/^No keychain is reachable .*encrypted with Electron's safeStorage/)
    }
    expect(results.safeStorage!.detail).toContain('(gnome_libsecret)')
  })

  it('refuses basic_text unless the user allowed it', () => {
    const refused = results.basicTextRefused!
    expect(refused.backend).toBe('session-only')
    expect(refused.readBack).toBe(true)
    expect(refused.ciphertext).toBeNull()
    expect(refused.detail).toMatch(/basic_text.*fixed password.*this session only/)
    const allowed = results.basicTextAllowed!
    expect(allowed.backend).toBe('safe-storage')
    expect(allowed.ciphertext).not.toBeNull()
    expect(allowed.detail).toMatch(/As you allowed in Settings.*basic_text/)
  })

  it('keeps the key for the session only where neither works', () => {
    for (const name of ['noEncryption', 'commandLine']) {
      const r = results[name]!
      expect(r.backend).toBe('session-only')
      expect(r.readBack).toBe(true)
      expect(r.ciphertext).toBeNull()
      expect(r.detail).toMatch(/this session only/)
    }
    expect(results.noEncryption!.detail).toMatch(/no encryption available/)
    expect(results.commandLine!.detail).toMatch(/safeStorage is not available/)
  })

  it('leaves the key in no file of the settings directory', () => {
    const files = listFiles(dir)
    expect(files.map((f) => path.basename(f))).toContain('config.json')
    for (const file of files) {
      const bytes = fs.readFileSync(file)
      expect(bytes.includes(API_KEY), file).toBe(false)
      expect(bytes.includes(Buffer.from(API_KEY).toString('base64')), file).toBe(false)
    }
  })
})
