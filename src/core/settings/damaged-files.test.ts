// Each kind of damage to config.json and state.json, by example, on real files written by the store:
// what is kept, what the user is told, and what is kept aside. (damage.property.test.ts generates them.)
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FullProjectSnapshot, ProjectSnapshot } from '../../shared/monitor'
import type { Settings } from '../../shared/settings'
import { compactSnapshot } from '../monitor/diff'
import { withoutCiphertexts } from './config-document'
import { SettingsFileError } from './file-error'
import { writeIndentedJson } from './indented-json'
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
const projectIds = (settings: Settings) =>
  Object.entries(settings.watched).flatMap(([c, list]) => list.map((p) => `${c}/${p.projectId}`))

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
  it('cut inside the watched object: every project whose entry is whole is kept, with its connection', async () => {
    const text = config()
    const cut = text.slice(0, text.indexOf('"proj-conn-home-2"') + 5)
    const { store, notice } = await openDamaged('config.json', cut)
    expect(notice).toMatch(
      /config\.json was cut short; recovered 6 watched projects and 3 connections, and what could not be read is at its defaults\./
    )
    const s = store.read()
    expect(projectIds(s)).toEqual([...projectIds(fixture.settings).slice(0, 6)])
    expect(s.connections).toEqual(fixture.settings.connections)
    expect(s.watched['conn-work']).toEqual(fixture.settings.watched['conn-work'])
    // What came after the cut is at its defaults.
    expect(s.theme).toBe('system')
  })

  it('a few bytes changed in the middle: the entries after the damage are kept too, not only those before', async () => {
    const text = config()
    const at = text.indexOf('"proj-conn-work-1"')
    const damaged = `${text.slice(0, at)}"proj-conn-work-1\u0000]}{${text.slice(at + 18)}`
    const { store, notice } = await openDamaged('config.json', damaged)
    expect(notice).toMatch(
      /config\.json was damaged and could be read only in part; recovered 11 watched projects and 3 connections/
    )
    const s = store.read()
    expect(projectIds(s)).toEqual(projectIds(fixture.settings).filter((id) => id !== 'conn-work/proj-conn-work-1'))
    expect({ ...s, watched: {} }).toEqual({ ...fixture.settings, watched: {} })
  })

  it("a whole line between two damaged ones (a byte before the connections' closer, the next line's indentation lost) is kept, and what it holds", async () => {
    // damage.property.test.ts's counterexample of seed -1635775838, as it fell on the fixture before settings v3.
    const text = config().replace(
      '\n\t],\n\t"watched": {\n\t\t"conn-work": [',
      '\n\u0000\t],\n\t"watched": {\nn-work": ['
    )
    const { store } = await openDamaged('config.json', text)
    const s = store.read()
    expect(projectIds(s)).toEqual(projectIds(fixture.settings).filter((id) => !id.startsWith('conn-work/')))
    expect(s.connections).toEqual(fixture.settings.connections)
    expect({ ...s, watched: {} }).toEqual({ ...fixture.settings, watched: {} })
  })

  it("one project's id changed into another's (and the file damaged after it): the first of the two is kept, no project twice", async () => {
    // Both entries look whole, and nothing tells which id was changed: a project is watched once, the first entry.
    const text = config().replace('"projectId": "proj-conn-work-1"', '"projectId": "proj-conn-work-3"')
    const cut = text.slice(0, text.indexOf('"projectId": "proj-conn-uni-0"'))
    const { store } = await openDamaged('config.json', cut)
    const work = store.read().watched['conn-work'] ?? []
    expect(work.map((p) => p.projectId)).toEqual(['proj-conn-work-0', 'proj-conn-work-3', 'proj-conn-work-2'])
    expect(work[1]).toEqual({ ...fixture.settings.watched['conn-work']![1]!, projectId: 'proj-conn-work-3' })
  })

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

  it('written by a newer version and cut short, as early as `{"version": 4, "conn`', async () => {
    const { store, notice, aside } = await openDamaged('config.json', '{"version": 4, "conn')
    expect(aside).toMatch(/^config\.json\.newer-/)
    expect(notice).toMatch(
      /newer Agent Tray \(file version 4\); this version recovered 0 watched projects and 0 connections/
    )
    expect(store.read()).toEqual(defaultSettings())
  })

  it('written by a newer version and cut inside the watched projects: the whole ones are kept', async () => {
    const text = config().replace('"version": 3', '"version": 4')
    const { store } = await openDamaged('config.json', text.slice(0, text.indexOf('"proj-conn-uni-0"')))
    expect(projectIds(store.read())).toEqual(projectIds(fixture.settings).slice(0, 8))
    expect(store.read().connections).toEqual(fixture.settings.connections)
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

  it('polling fields each valid but idle shorter than active: idle is raised to active, and the repaired file is valid', async () => {
    const text = config().replace('"activeIntervalMs": 3000', '"activeIntervalMs": 120000')
    const { store } = await openDamaged('config.json', text)
    expect(store.read().polling).toMatchObject({ activeIntervalMs: 120_000, idleIntervalMs: 120_000 })
    expect(settingsSchema.safeParse(JSON.parse(fs.readFileSync(file('config.json'), 'utf8'))).success).toBe(true)
  })

  it('saved as UTF-16 by an editor: read whole, then written back as UTF-8', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(config(), 'utf16le')])
    fs.writeFileSync(file('config.json'), utf16)
    const store = await openSettings({ dir, now })
    expect(store.read()).toEqual(fixture.settings)
  })

  it('the repaired file is valid, in the store layout', async () => {
    await openDamaged('config.json', config().slice(0, 1500))
    const written = fs.readFileSync(file('config.json'), 'utf8')
    expect(settingsSchema.safeParse(JSON.parse(written)).success).toBe(true)
    expect(written).toBe(JSON.stringify(JSON.parse(written), null, '\t'))
  })
})

describe('state.json', () => {
  const snapshotKeys = (lastSeen: Record<string, Record<string, unknown>>) =>
    Object.entries(lastSeen).flatMap(([c, projects]) => Object.keys(projects).map((p) => `${c}/${p}`))

  it("cut short: every project's last seen state that is whole is kept, the notice names the monitor state", async () => {
    const text = state()
    const { store, notice } = await openDamaged('state.json', text.slice(0, text.indexOf('"proj-conn-home-1"')))
    expect(notice).toMatch(/state\.json was cut short: this version kept the last seen state of 4 projects/)
    expect(snapshotKeys(store.readLastSeen())).toEqual(snapshotKeys(fixture.lastSeen).slice(0, 4))
    expect(store.readLastSeen()['conn-work']).toEqual(fixture.lastSeen['conn-work'])
  })

  it('bytes changed inside one snapshot: that one is dropped, every other one kept', async () => {
    const text = state()
    const at = text.indexOf('"task-conn-work-1-1"')
    const { store } = await openDamaged('state.json', `${text.slice(0, at)}"task-conn-work-1-1{{${text.slice(at + 20)}`)
    const kept = store.readLastSeen()
    expect(snapshotKeys(kept)).toEqual(snapshotKeys(fixture.lastSeen).filter((k) => k !== 'conn-work/proj-conn-work-1'))
    expect(kept['conn-uni']).toEqual(fixture.lastSeen['conn-uni'])
  })

  it("its first bytes lost and the first connection's line joined to the next: every other connection's snapshots are kept", async () => {
    // `{\n\t` lost leaves `"version": 2,` readable at the left edge, where only the root's braces sit; `{\n\t"v` leaves it unreadable.
    for (const lost of [3, 5]) {
      for (const aside of asides('state.json')) fs.rmSync(file(aside))
      const text = state().slice(lost).replace('"conn-work": {\n', '"conn-work": {\u00cb')
      const { store } = await openDamaged('state.json', text)
      const kept = store.readLastSeen()
      expect(snapshotKeys(kept)).toEqual(snapshotKeys(fixture.lastSeen).filter((k) => !k.startsWith('conn-work/')))
      expect(kept['conn-home']).toEqual(fixture.lastSeen['conn-home'])
      expect(kept['conn-uni']).toEqual(fixture.lastSeen['conn-uni'])
    }
  })

  it('written by a newer version: the snapshots that read as ours are kept; cut short too', async () => {
    const newer = state().replace('"version": 2', '"version": 5')
    const { store, aside, notice } = await openDamaged('state.json', newer)
    expect(aside).toMatch(/^state\.json\.newer-/)
    expect(notice).toMatch(/newer Agent Tray \(file version 5\): this version kept the last seen state of 9 projects/)
    expect(store.readLastSeen()).toEqual(fixture.lastSeen)

    fs.rmSync(dir, { recursive: true })
    fs.mkdirSync(dir)
    const cut = await openDamaged('state.json', newer.slice(0, newer.indexOf('"conn-home"')))
    expect(cut.store.readLastSeen()).toEqual({ 'conn-work': fixture.lastSeen['conn-work'] })
  })

  it('a large file (over 1 MiB, read line by line only) damaged in the middle keeps every other snapshot', async () => {
    // 150 projects of 60 tasks each, written in the store's layout.
    const snapshot = (p: number): ProjectSnapshot => {
      const tasks: FullProjectSnapshot['tasks'] = {}
      for (let t = 0; t < 60; t++) {
        tasks[`task-${p}-${t}`] = {
          status: 'completed',
          name: `Task ${t}`,
          updatedAt: FIXTURE_NOW.toISOString(),
          totalPrice: t / 8,
          steps: { [`step-${p}-${t}`]: 'completed' }
        }
      }
      return compactSnapshot({ polledAt: FIXTURE_NOW.toISOString(), tasks })
    }
    const many = Object.fromEntries(Array.from({ length: 150 }, (_, p) => [`proj-${p}`, snapshot(p)]))
    const text = writeIndentedJson({ version: 2, lastSeen: { 'conn-big': many }, budgetsNotified: {} })
    expect(text.length).toBeGreaterThan(1024 * 1024)
    const at = text.indexOf('"task-75-30"')
    const { store } = await openDamaged('state.json', `${text.slice(0, at)}"task-75-30\u0000]]${text.slice(at + 12)}`)
    const kept = store.readLastSeen()['conn-big'] ?? {}
    expect(Object.keys(kept)).toHaveLength(149)
    expect(kept).not.toHaveProperty('proj-75')
    expect(kept['proj-149']).toEqual(many['proj-149'])
  }, 60_000)

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

  it('a named pipe in its place is refused before it is read (reading would wait forever)', async () => {
    fs.rmSync(file('state.json'))
    execFileSync('mkfifo', [file('state.json')])
    await expectRefused(/state\.json is not a regular file \(a named pipe\)/)
  })

  it('a device or a socket in its place is refused, named as what it is', async () => {
    fs.rmSync(file('config.json'))
    // A link to a device: reading /dev/zero would never end.
    fs.symlinkSync('/dev/zero', file('config.json'))
    await expectRefused(
      /config\.json is not a regular file \(a device\): move it away \(Agent Tray then starts a new one\); nothing was changed\.$/
    )
    fs.rmSync(file('config.json'))
    fs.writeFileSync(file('config.json'), fixture.config)
    fs.rmSync(file('state.json'))
    const server = net.createServer()
    await new Promise<void>((resolve) => server.listen(file('state.json'), resolve))
    try {
      await expectRefused(/state\.json is not a regular file \(a socket\)/)
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
  it('config.json cut short: read() keeps what it can; the next change keeps the original aside and repairs it', async () => {
    const store = await openSettings({ dir, now })
    fs.writeFileSync(file('config.json'), config().slice(0, 2000))
    expect(store.read().connections).toEqual(fixture.settings.connections)
    await store.update((draft) => {
      draft.launchAtLogin = true
    })
    expect(store.takeNotices()).toEqual([expect.stringMatching(/config\.json was cut short/)])
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
