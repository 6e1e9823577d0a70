// Each kind of damage to config.json and state.json, by example, on real files written by the store:
// what is kept, what the user is told, and what is kept aside.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Settings } from '../../shared/settings'
import { withoutCiphertexts } from './config-document'
import { SettingsFileError } from './file-error'
import { defaultSettings, settingsSchema } from './schema'
import { openSettings } from './store'
import { lockOut, runAs } from './test-as-other-user'
import { type Fixture, FIXTURE_NOW, writeFixture } from './test-files'

const now = () => FIXTURE_NOW
let dir: string
let fixture: Fixture

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-damaged-'))
  fixture = await writeFixture(dir)
})
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

const file = (name: string) => path.join(dir, name)
const asides = (name: string) => fs.readdirSync(dir).filter((n) => n.startsWith(`${name}.`) && !n.endsWith('.lock'))
const config = () => fixture.config.toString('utf8')
const state = () => fixture.state.toString('utf8')

/** Writes `bytes` in place of `name`, opens, and checks what always holds: one notice naming an exact copy aside, and quiet after. */
async function openDamaged(name: 'config.json' | 'state.json', bytes: string | Buffer) {
  fs.writeFileSync(file(name), bytes)
  const store = await openSettings({ dir, now })
  const notices = store.takeNotices()
  expect(notices).toHaveLength(1)
  const kept = asides(name)
  expect(kept).toHaveLength(1)
  // Buffer.equals: toEqual walks a large buffer byte by byte, for seconds.
  // As it was, but for key ciphertexts, which are never kept aside.
  expect(fs.readFileSync(file(kept[0]!)).equals(withoutCiphertexts(Buffer.from(bytes)))).toBe(true)
  expect(notices[0]).toContain(file(kept[0]!))
  const again = await openSettings({ dir, now })
  expect(again.takeNotices()).toEqual([])
  expect(again.read()).toEqual(store.read())
  expect(again.readLastSeen()).toEqual(store.readLastSeen())
  return { store, notice: notices[0]!, aside: kept[0]! }
}

describe('config.json', () => {
  it('a project twice in a valid file (edited by hand): watched once, the first entry', async () => {
    const text = config()
    const settings = JSON.parse(text) as Settings
    const work = settings.watched['conn-work']!
    work.push({ ...work[0]!, name: 'Again' })
    fs.writeFileSync(file('config.json'), JSON.stringify(settings, null, '\t'))
    const store = await openSettings({ dir, now })
    expect(store.read().watched['conn-work']).toEqual(fixture.settings.watched['conn-work'])
  })

  it('written by a newer version: kept aside as .newer; connections, watched projects and keys kept, the rest default', async () => {
    const { store, notice, aside } = await openDamaged('config.json', config().replace('"version": 3', '"version": 4'))
    expect(aside).toMatch(/^config\.json\.newer-2025-03-04T05-06-07-089Z$/)
    expect(notice).toMatch(
      /written by a newer Agent Tray \(file version 4\); this version recovered 12 watched projects and 3 connections from it/
    )
    expect(store.read()).toEqual({
      ...defaultSettings(),
      activeConnectionId: 'conn-home',
      connections: fixture.settings.connections,
      watched: fixture.settings.watched,
      budgets: fixture.settings.budgets
    })
    expect(await store.ciphertexts.get('conn-work')).toBe(fixture.safeStorageKeys['conn-work'])
  })

  it('a version number damaged to 1 or 0 is not taken for the first format (whose migration has no connections to keep)', async () => {
    for (const version of ['1', '0', '-2', '"2"']) {
      fs.rmSync(dir, { recursive: true })
      fs.mkdirSync(dir)
      const { store } = await openDamaged(
        'config.json',
        config().replace('"version": 3,', `"version": ${version},\n\t"theme": 7,`)
      )
      expect(store.read().connections).toEqual(fixture.settings.connections)
      expect(store.read().watched).toEqual(fixture.settings.watched)
    }
  })

  it('binary garbage: kept aside byte for byte, defaults in use', async () => {
    fs.rmSync(file('config.last-good.json'))
    const garbage = Buffer.from([0x00, 0xff, 0xfe, 0x7b, 0x22, 0x80, 0x0a, 0x09, 0xc3, 0x28, 0x5b, 0x00, 0x7d])
    const { store, notice } = await openDamaged('config.json', garbage)
    expect(notice).toMatch(
      /config\.json was not valid JSON and nothing in it could be read; default settings are in use\./
    )
    expect(store.read()).toEqual(defaultSettings())
  })

  it('a JSON value of the wrong kind: a list, a string, a number, true, null', async () => {
    for (const [json, held] of [
      ['[1, 2]', 'a list'],
      ['"settings"', 'a string'],
      ['42', 'a number'],
      ['true', 'a boolean'],
      ['null', 'null']
    ] as const) {
      fs.rmSync(dir, { recursive: true })
      fs.mkdirSync(dir)
      const { store, notice } = await openDamaged('config.json', json)
      expect(notice).toContain(`config.json held ${held} instead of settings; default settings are in use.`)
      expect(store.read()).toEqual(defaultSettings())
    }
  })

  it('polling fields each valid but idle shorter than active: polling is at its defaults, and the repaired file is valid', async () => {
    const text = config().replace('"activeIntervalMs": 3000', '"activeIntervalMs": 120000')
    const { store } = await openDamaged('config.json', text)
    expect(store.read().polling).toEqual(defaultSettings().polling)
    expect(settingsSchema.safeParse(JSON.parse(fs.readFileSync(file('config.json'), 'utf8'))).success).toBe(true)
  })

  it('not JSON, with a last good copy: that copy comes back, keys too, and one notice names the file, the copy and the original kept aside', async () => {
    const { store, notice, aside } = await openDamaged('config.json', config().slice(0, 900))
    expect(store.read()).toEqual(fixture.settings)
    expect(await store.ciphertexts.get('conn-work')).toBe(fixture.safeStorageKeys['conn-work'])
    expect(notice).toBe(
      `${file('config.json')} was not valid JSON and nothing in it could be read; the settings as last saved, from ${file('config.last-good.json')}, are in use. The original was kept as ${file(aside)}.`
    )
    expect(fs.readFileSync(file('config.json')).equals(fixture.config)).toBe(true)
    expect(fs.statSync(file('config.last-good.json')).mode & 0o777).toBe(0o600)
  })

  it('not JSON, with a last good copy from a newer version: that copy is kept aside as .newer before it is cut to this version', async () => {
    const newer = config().replace('"version": 3', '"version": 4')
    fs.writeFileSync(file('config.last-good.json'), newer)
    const { store, notice } = await openDamaged('config.json', config().slice(0, 900))
    expect(asides('config.last-good.json')).toEqual(['config.last-good.json.newer-2025-03-04T05-06-07-089Z'])
    const kept = file('config.last-good.json.newer-2025-03-04T05-06-07-089Z')
    expect(fs.readFileSync(kept).equals(withoutCiphertexts(Buffer.from(newer)))).toBe(true)
    expect(notice).toContain(`from ${kept}, are in use`)
    expect(store.read().connections).toEqual(fixture.settings.connections)
  })

  it('the last good copy is private even when the file is not, and an older copy goes when a new one cannot be made', async () => {
    fs.rmSync(file('config.last-good.json'))
    fs.chmodSync(file('config.json'), 0o644)
    const store = await openSettings({ dir, now })
    expect(fs.statSync(file('config.last-good.json')).mode & 0o777).toBe(0o600)
    // A directory where the temporary copy goes stands for a copy that cannot be written.
    fs.mkdirSync(`${file('config.last-good.json')}.${process.pid}.tmp/x`, { recursive: true })
    await store.update((draft) => void (draft.theme = 'dark'))
    expect(fs.existsSync(file('config.last-good.json'))).toBe(false)
    expect(store.read().theme).toBe('dark')
    // What was in the way is cleared, so the next change keeps a copy again.
    await store.update((draft) => void (draft.theme = 'light'))
    expect(fs.readFileSync(file('config.last-good.json')).equals(fs.readFileSync(file('config.json')))).toBe(true)
  })

  it('opening a file that is fine writes nothing, not even its last good copy again', async () => {
    const inode = (name: string) => fs.statSync(file(name)).ino
    const before = [inode('config.json'), inode('config.last-good.json')]
    const store = await openSettings({ dir, now })
    expect(store.takeNotices()).toEqual([])
    expect([inode('config.json'), inode('config.last-good.json')]).toEqual(before)
  })

  it('a change that changes nothing writes nothing; a last good copy that is missing is made then', async () => {
    const inode = (name: string) => fs.statSync(file(name)).ino
    const store = await openSettings({ dir, now })
    const before = [inode('config.json'), inode('config.last-good.json')]
    expect(await store.ciphertexts.delete('no-such-connection')).toBe(false)
    expect([inode('config.json'), inode('config.last-good.json')]).toEqual(before)
    expect(fs.readFileSync(file('config.json')).equals(fixture.config)).toBe(true)
    fs.rmSync(file('config.last-good.json'))
    expect(await store.ciphertexts.delete('no-such-connection')).toBe(false)
    expect(inode('config.json')).toBe(before[0])
    expect(fs.readFileSync(file('config.last-good.json')).equals(fixture.config)).toBe(true)
  })

  it('a byte order mark before the JSON (as some editors save) is read, quietly; one inside a value is kept', async () => {
    fs.writeFileSync(file('config.json'), `\uFEFF${config()}`)
    const withMark = await openSettings({ dir, now })
    expect(withMark.takeNotices()).toEqual([])
    expect(asides('config.json')).toEqual([])
    expect(withMark.read()).toEqual(fixture.settings)
    const doc = JSON.parse(config()) as Settings
    doc.connections[0]!.name = 'Work\uFEFF2'
    fs.writeFileSync(file('config.json'), JSON.stringify(doc, null, '\t'))
    const store = await openSettings({ dir, now })
    expect(store.takeNotices()).toEqual([])
    expect(store.read().connections[0]!.name).toBe('Work\uFEFF2')
  })

  it('not JSON, and no last good copy: the defaults, and the damaged bytes kept aside; the next change writes the file anew', async () => {
    fs.rmSync(file('config.last-good.json'))
    const { store, notice } = await openDamaged('config.json', config().slice(0, 900))
    expect(store.read()).toEqual(defaultSettings())
    expect(notice).toMatch(
      /config\.json was not valid JSON and nothing in it could be read; default settings are in use\./
    )
    await store.update((draft) => void (draft.theme = 'dark'))
    expect((await openSettings({ dir, now })).read()).toEqual({ ...defaultSettings(), theme: 'dark' })
    expect(fs.readFileSync(file('config.last-good.json')).equals(fs.readFileSync(file('config.json')))).toBe(true)
  })

  it('a list with a bad entry keeps the others; a bad toggle or number takes its default; the rest is kept, keys too', async () => {
    const doc = JSON.parse(config()) as Settings & { safeStorageKeys: Record<string, string> }
    doc.connections[1]!.baseUrl = 'ftp://nope'
    ;(doc.watched['conn-work']![2] as { projectId: unknown }).projectId = 7
    ;(doc as { pinned: unknown }).pinned = 'yes'
    doc.polling.maxConcurrency = -3
    const { store, notice } = await openDamaged('config.json', JSON.stringify(doc, null, '\t'))
    for (const where of ['connections', 'watched.conn-work', 'pinned', 'polling.maxConcurrency'])
      expect(notice).toContain(where)
    expect(store.read()).toEqual({
      ...fixture.settings,
      // The active connection was the one dropped: the first is active.
      activeConnectionId: 'conn-work',
      connections: fixture.settings.connections.filter((c) => c.id !== 'conn-home'),
      watched: { ...fixture.settings.watched, 'conn-work': fixture.settings.watched['conn-work']!.toSpliced(2, 1) },
      pinned: false,
      polling: { ...fixture.settings.polling, maxConcurrency: defaultSettings().polling.maxConcurrency }
    })
    expect(await store.ciphertexts.get('conn-uni')).toBe(fixture.safeStorageKeys['conn-uni'])
  })

  it('the repaired file is valid, in the store layout', async () => {
    await openDamaged('config.json', config().slice(0, 1500))
    const written = fs.readFileSync(file('config.json'), 'utf8')
    expect(settingsSchema.safeParse(JSON.parse(written)).success).toBe(true)
    expect(written).toBe(JSON.stringify(JSON.parse(written), null, '\t'))
  })
})

describe('state.json', () => {
  it('not JSON, with a last good copy: the last seen state comes back from it', async () => {
    const { store, notice, aside } = await openDamaged('state.json', state().slice(0, 700))
    expect(store.readLastSeen()).toEqual(fixture.lastSeen)
    expect(notice).toBe(
      `${file('state.json')} was not valid JSON and nothing in it could be read: the saved monitor state from ${file('state.last-good.json')} is in use. The original was kept as ${file(aside)}.`
    )
  })

  it('written by a newer version: the snapshots that read as ours are kept', async () => {
    const newer = state().replace('"version": 2', '"version": 5')
    const { store, aside, notice } = await openDamaged('state.json', newer)
    expect(aside).toMatch(/^state\.json\.newer-/)
    expect(notice).toMatch(/newer Agent Tray \(file version 5\): this version kept the last seen state of 9 projects/)
    expect(store.readLastSeen()).toEqual(fixture.lastSeen)
  })

  it('empty, garbage, or a JSON value of the wrong kind: starts afresh, told so once', async () => {
    for (const bytes of ['', Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00]), '[]', '"x"', '7', 'null']) {
      fs.rmSync(dir, { recursive: true })
      fs.mkdirSync(dir)
      const { store, notice } = await openDamaged('state.json', bytes)
      expect(notice).toContain('it starts afresh: the next poll of each project sets a new baseline')
      expect(store.readLastSeen()).toEqual({})
      expect(store.read()).toEqual(defaultSettings())
    }
  })
})

describe('a settings file that cannot be used at all', () => {
  /** Opening fails with one line naming the file, and leaves everything as it was. */
  async function expectRefused(message: RegExp): Promise<void> {
    const before = fs.readdirSync(dir).sort()
    const error = await openSettings({ dir, now }).then(
      () => null,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(SettingsFileError)
    expect((error as Error).message).toMatch(message)
    expect((error as Error).message).not.toContain('\n')
    expect(fs.readdirSync(dir).sort()).toEqual(before)
  }

  it('a directory in place of config.json or state.json', async () => {
    for (const name of ['config.json', 'state.json']) {
      fs.rmSync(file(name))
      fs.mkdirSync(file(name))
      await expectRefused(
        new RegExp(
          `^${file(name)} is a directory, not a settings file: move it away \\(Agent Tray then starts a new one\\); nothing was changed\\.$`
        )
      )
      fs.rmdirSync(file(name))
    }
  })

  it('a named pipe, a device or a socket in its place is refused before it is read (reading would wait forever)', async () => {
    fs.rmSync(file('state.json'))
    execFileSync('mkfifo', [file('state.json')])
    await expectRefused(/state\.json is not a regular file/)
    fs.rmSync(file('state.json'))
    fs.writeFileSync(file('state.json'), fixture.state)
    fs.rmSync(file('config.json'))
    // A link to a device: reading /dev/zero would never end.
    fs.symlinkSync('/dev/zero', file('config.json'))
    await expectRefused(
      /config\.json is not a regular file: move it away \(Agent Tray then starts a new one\); nothing was changed\.$/
    )
    fs.rmSync(file('config.json'))
    fs.writeFileSync(file('config.json'), fixture.config)
    fs.rmSync(file('state.json'))
    const server = net.createServer()
    await new Promise<void>((resolve) => server.listen(file('state.json'), resolve))
    try {
      await expectRefused(/state\.json is not a regular file/)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('a symbolic link that loops', async () => {
    fs.rmSync(file('config.json'))
    fs.symlinkSync('config.json', file('config.json'))
    await expectRefused(/config\.json is a symbolic link that points to itself: remove it; nothing was changed\.$/)
  })

  it('a settings directory that is a file', async () => {
    const notDir = path.join(dir, 'not-a-dir')
    fs.writeFileSync(notDir, 'x')
    const error = await openSettings({ dir: notDir, now }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SettingsFileError)
    expect((error as Error).message).toBe(
      `Cannot read ${path.join(notDir, 'config.json')}: a directory on its path is a file; nothing was changed.`
    )
  })

  it('a file this user may not read (run as another user where the tests run as root)', async () => {
    const as = lockOut(dir, file('config.json'))
    const helper = fileURLToPath(new URL('./test-open.ts', import.meta.url))
    const run = await runAs(as, helper, [dir])
    expect(run.err).toBe('')
    expect(JSON.parse(run.out)).toEqual({
      ok: false,
      name: 'SettingsFileError',
      message: `Cannot read ${file('config.json')}: permission denied. Give your user read and write access to it and its directory (a file made with sudo belongs to root); nothing was changed.`
    })
    fs.chmodSync(file('config.json'), 0o600)
    expect(fs.readFileSync(file('config.json'))).toEqual(fixture.config)
  })
})

describe('damage while a process has the files open', () => {
  it('config.json cut short: read() keeps the last good copy; the next change keeps the original aside and repairs it', async () => {
    const store = await openSettings({ dir, now })
    fs.writeFileSync(file('config.json'), config().slice(0, 2000))
    expect(store.read().connections).toEqual(fixture.settings.connections)
    await store.update((draft) => {
      draft.launchAtLogin = true
    })
    expect(store.takeNotices()).toEqual([expect.stringMatching(/config\.json was not valid JSON/)])
    expect(asides('config.json')).toHaveLength(1)
  })

  it('replaced by a directory: read() keeps the settings last read and says so once; a change fails with one line; put back, all works', async () => {
    const store = await openSettings({ dir, now })
    fs.renameSync(file('config.json'), file('config.json.away'))
    fs.mkdirSync(file('config.json'))
    expect(store.read()).toEqual(fixture.settings)
    expect(store.read()).toEqual(fixture.settings)
    expect(await store.ciphertexts.get('conn-work')).toBe(fixture.safeStorageKeys['conn-work'])
    expect(store.takeNotices()).toEqual([
      `${file('config.json')} is a directory, not a settings file: move it away (Agent Tray then starts a new one). Until it can be read again, what was last read from it is in use.`
    ])
    await expect(store.update((draft) => void (draft.theme = 'light'))).rejects.toThrow(SettingsFileError)
    expect(fs.statSync(file('config.json')).isDirectory()).toBe(true)

    fs.rmdirSync(file('config.json'))
    fs.renameSync(file('config.json.away'), file('config.json'))
    expect((await store.update((draft) => void (draft.theme = 'light'))).theme).toBe('light')
    expect(store.takeNotices()).toEqual([])
  })

  it('replaced by a link that loops, or by a file that fails to read (an I/O error): the settings last read are kept, each failure told once', async () => {
    const store = await openSettings({ dir, now })
    // A regular file to stat whose read fails: /proc/self/mem, at offset 0 (never mapped), is EIO.
    for (const [target, failure] of [
      ['config.json', `${file('config.json')} is a symbolic link that points to itself: remove it`],
      ['/proc/self/mem', `Cannot read ${file('config.json')}: EIO: i/o error, read`]
    ] as const) {
      fs.rmSync(file('config.json'), { force: true })
      fs.symlinkSync(target, file('config.json'))
      expect(store.read()).toEqual(fixture.settings)
      expect(store.read()).toEqual(fixture.settings)
      expect(store.takeNotices()).toEqual([
        `${failure}. Until it can be read again, what was last read from it is in use.`
      ])
      await expect(store.update((draft) => void (draft.theme = 'light'))).rejects.toThrow(
        `${failure}; nothing was changed.`
      )
      expect(fs.readlinkSync(file('config.json'))).toBe(target)
    }
  })

  it('state.json replaced by a directory: the last seen state read before is kept, a write fails with one line', async () => {
    const store = await openSettings({ dir, now })
    fs.rmSync(file('state.json'))
    fs.mkdirSync(file('state.json'))
    expect(store.readLastSeen()).toEqual(fixture.lastSeen)
    await expect(store.writeLastSeen('conn-work', {})).rejects.toThrow(/state\.json is a directory/)
    expect(store.takeNotices()).toHaveLength(1)
  })
})
