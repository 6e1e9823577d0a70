// The settings directory and its files are this user's only: a new directory is made 0700, one an
// earlier version made 0755 is taken back to 0700, and the files are 0600.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { makePrivateDir, makePrivateFile } from './private-files'
import { openSettings } from './store'

let root: string
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-private-'))
})
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true })
})

const mode = (p: string): number => fs.statSync(p).mode & 0o777

describe.skipIf(process.platform === 'win32')('the settings directory', () => {
  it('is made 0700, with config.json 0600', async () => {
    const dir = path.join(root, 'new', 'agent-tray')
    const store = await openSettings({ dir })
    await store.update((s) => void (s.polling.activeIntervalMs = 7000))
    expect(mode(dir)).toBe(0o700)
    expect(mode(path.join(dir, 'config.json'))).toBe(0o600)
  })

  it('made 0755 by an earlier version, is taken back to 0700', async () => {
    const dir = path.join(root, 'agent-tray')
    fs.mkdirSync(dir, { mode: 0o755 })
    fs.chmodSync(dir, 0o755)
    await openSettings({ dir })
    expect(mode(dir)).toBe(0o700)
  })
})

describe.skipIf(process.platform === 'win32')('a file or directory of the app', () => {
  it('made readable by others (0644) is taken back to 0600; an absent one is no error', () => {
    const file = path.join(root, 'agent-tray.log')
    fs.writeFileSync(file, 'earlier\n', { mode: 0o644 })
    fs.chmodSync(file, 0o644)
    makePrivateFile(file)
    expect(mode(file)).toBe(0o600)
    expect(fs.readFileSync(file, 'utf8')).toBe('earlier\n')
    expect(() => makePrivateFile(path.join(root, 'absent.log'))).not.toThrow()
    expect(fs.existsSync(path.join(root, 'absent.log'))).toBe(false)
  })

  it('a directory is made with its missing parents, and the one asked for is 0700', () => {
    const dir = path.join(root, 'a', 'b', 'logs')
    makePrivateDir(dir)
    expect(fs.statSync(dir).isDirectory()).toBe(true)
    expect(mode(dir)).toBe(0o700)
  })

  it("on Windows, where modes mean nothing (the profile's ACLs do this job), neither is changed", () => {
    const file = path.join(root, 'agent-tray.log')
    const dir = path.join(root, 'logs')
    fs.writeFileSync(file, '', { mode: 0o644 })
    fs.chmodSync(file, 0o644)
    fs.mkdirSync(dir, { mode: 0o755 })
    fs.chmodSync(dir, 0o755)
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!
    Object.defineProperty(process, 'platform', { ...platform, value: 'win32' })
    try {
      makePrivateFile(file)
      makePrivateDir(dir)
    } finally {
      Object.defineProperty(process, 'platform', platform)
    }
    expect(mode(file)).toBe(0o644)
    expect(mode(dir)).toBe(0o755)
  })
})
