import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Conf from 'conf'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FORWARD_EVENTS } from '../../shared/forward-target'
import type { ProjectSnapshot } from '../../shared/monitor'
import type { Settings } from '../../shared/settings'
import { interpretConfig, serializeConfig, withoutCiphertexts } from './config-document'
import { DocumentFile } from './document-file'
import { addConnection, findConnectionByUrl, watchProject } from './edit'
import { SettingsFileError } from './file-error'
import { defaultSettings, settingsSchema } from './schema'
import { openSettings, settingsConfOptions, SettingsValidationError } from './store'

const NOW = new Date('2025-03-04T05:06:07.089Z')
const now = () => NOW
let dir: string

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-settings-'))
})
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

const configPath = () => path.join(dir, 'config.json')
const asides = () => fs.readdirSync(dir).filter((name) => name.startsWith('config.json.'))
const onDisk = () => JSON.parse(fs.readFileSync(configPath(), 'utf8')) as Record<string, unknown>

/** A valid file with two connections and three watched projects. */
function goodFile(): Settings {
  const s = defaultSettings()
  addConnection(s, { name: 'Work', baseUrl: 'https://api.work.example' }, 'c1')
  addConnection(s, { name: 'Home', baseUrl: 'https://api.home.example/' }, 'c2')
  watchProject(s, 'c1', 'p1', NOW, { name: 'Shop' })
  s.budgets.c1 = [{ id: 'total-p1', projectId: 'p1', period: 'total', limitUsd: 5, warnRatio: 0.8 }]
  watchProject(s, 'c1', 'p2', NOW)
  watchProject(s, 'c2', 'p3', NOW, { muted: true })
  s.theme = 'dark'
  s.polling.activeIntervalMs = 3000
  return s
}

describe('openSettings', () => {
  it('starts from defaults without creating a file, and keeps what update writes', async () => {
    const store = await openSettings({ dir, now })
    expect(store.read()).toEqual(defaultSettings())
    expect(fs.existsSync(configPath())).toBe(false)
    await store.update((draft) => {
      addConnection(draft, { baseUrl: 'https://api.example.com/' }, 'c1')
      watchProject(draft, 'c1', 'p1', NOW)
    })
    const again = await openSettings({ dir, now })
    expect(again.read().connections).toEqual([
      { id: 'c1', name: 'api.example.com', baseUrl: 'https://api.example.com', publishingDomain: '' }
    ])
    expect(again.read().watched.c1?.map((p) => p.projectId)).toEqual(['p1'])
    expect(store.takeNotices()).toEqual([])
    expect(fs.statSync(configPath()).mode & 0o777).toBe(0o600)
  })

  it('shares the file with any Conf built from settingsConfOptions (as the app does)', async () => {
    const conf = new Conf(settingsConfOptions(dir))
    const app = await openSettings({ conf, now })
    const cli = await openSettings({ dir, now })
    expect(app.path).toBe(cli.path)
    await cli.update((draft) => {
      addConnection(draft, { baseUrl: 'https://a.example' }, 'c1')
      watchProject(draft, 'c1', 'from-cli', NOW)
    })
    expect(app.read().watched.c1?.[0]?.projectId).toBe('from-cli')
  })

  it('refuses an update that would make the settings invalid, and writes nothing', async () => {
    fs.writeFileSync(configPath(), JSON.stringify(goodFile()))
    const before = fs.readFileSync(configPath(), 'utf8')
    const store = await openSettings({ dir, now })
    await expect(
      store.update((draft) => {
        draft.polling.activeIntervalMs = -1
      })
    ).rejects.toThrow(SettingsValidationError)
    expect(fs.readFileSync(configPath(), 'utf8')).toBe(before)
    // One line that names where, at most three places.
    await expect(
      store.update((draft) => {
        draft.polling.activeIntervalMs = -1
        draft.polling.maxConcurrency = 0
        draft.theme = 'pink' as Settings['theme']
      })
    ).rejects.toMatchObject({
      name: 'SettingsValidationError',
      message:
        'These settings are not valid, nothing was saved: polling.activeIntervalMs: Too small: expected number to be >=1000; polling.maxConcurrency: Too small: expected number to be >=1; polling.activeIntervalMs: must be a whole number from 1000 to 3600000'
    })
    // A budget's problems name its field; a list's, the list.
    const budget = { id: 'b1', projectId: null, period: 'month' as const, limitUsd: 5, warnRatio: 0.8 }
    await expect(
      store.update((draft) => void (draft.budgets.c1 = [{ ...budget, projectId: ' ', limitUsd: -5 }]))
    ).rejects.toThrow(
      'These settings are not valid, nothing was saved: budgets.c1.0.limitUsd: The limit must be an amount in USD, not negative.; budgets.c1.0.projectId: The project is missing.'
    )
    await expect(store.update((draft) => void (draft.budgets.c1 = [budget, { ...budget, id: 'b2' }]))).rejects.toThrow(
      'These settings are not valid, nothing was saved: budgets.c1: There is already a budget for that scope and period.'
    )
    expect(fs.readFileSync(configPath(), 'utf8')).toBe(before)
  })

  it('uses the store a caller makes (as the app makes its ElectronStore), and what making it throws is one line naming the file', async () => {
    const app = await openSettings({ conf: () => new Conf(settingsConfOptions(dir)), dir, now })
    await app.update((draft) => void (draft.theme = 'dark'))
    expect(onDisk().theme).toBe('dark')
    const failure = Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' })
    const error = await openSettings({
      conf: () => {
        throw failure
      },
      dir,
      now
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SettingsFileError)
    expect((error as Error).message).toBe(`Cannot read ${configPath()}: EIO: i/o error, read; nothing was changed.`)
    // A store of another name would split the settings: refused.
    await expect(
      openSettings({ conf: new Conf({ ...settingsConfOptions(dir), configName: 'other' }), dir, now })
    ).rejects.toThrow(
      `The settings store expects config.json and state.json, got ${path.join(dir, 'other.json')} and ${path.join(dir, 'state.json')}`
    )
    await expect(
      openSettings({ stateConf: new Conf({ ...settingsConfOptions(dir), configName: 'other' }), dir, now })
    ).rejects.toThrow(
      `The settings store expects config.json and state.json, got ${configPath()} and ${path.join(dir, 'other.json')}`
    )
  })

  it('makes a new settings directory private to the user, and its files too', async () => {
    const fresh = path.join(dir, 'new', 'agent-tray')
    const store = await openSettings({ dir: fresh, now })
    await store.update((draft) => void (draft.theme = 'dark'))
    expect(fs.statSync(fresh).mode & 0o777).toBe(0o700)
    expect(fs.statSync(path.join(fresh, 'config.json')).mode & 0o777).toBe(0o600)
  })

  it('reads a version-2 file written before shortcutNoticeShown existed as valid, with the flag off', async () => {
    const { shortcutNoticeShown: _, ...older } = goodFile()
    fs.writeFileSync(configPath(), JSON.stringify(older))
    const store = await openSettings({ dir, now })
    expect(store.takeNotices()).toEqual([])
    expect(asides()).toEqual([])
    expect(store.read()).toEqual({ ...older, shortcutNoticeShown: false })
    await store.update((draft) => {
      draft.shortcutNoticeShown = true
    })
    expect((await openSettings({ dir, now })).read().shortcutNoticeShown).toBe(true)
  })
})

describe('attention (what the user has not seen yet)', () => {
  it('a file written before it existed is valid, with nothing unseen; what is saved is read back', async () => {
    const { attention: _, ...older } = goodFile()
    fs.writeFileSync(configPath(), JSON.stringify(older))
    const store = await openSettings({ dir, now })
    expect(store.takeNotices()).toEqual([])
    expect(store.read().attention).toEqual({})
    const seen = {
      acknowledgedAt: NOW.toISOString(),
      failedTaskIds: ['t1'],
      budgetCrossed: true,
      completedTaskIds: ['t2'],
      tasks: { t1: { name: 'One', at: NOW.toISOString() } },
      budgetCrossedAt: NOW.toISOString()
    }
    await store.update((draft) => {
      draft.attention.c1 = { p1: seen }
    })
    expect((await openSettings({ dir, now })).read().attention).toEqual({ c1: { p1: seen } })
  })

  it('a damaged entry loses only itself', async () => {
    // A record from before completed items and names were kept is read with them empty.
    const good = { acknowledgedAt: null, failedTaskIds: ['t1'], budgetCrossed: false }
    fs.writeFileSync(
      configPath(),
      JSON.stringify({ ...goodFile(), attention: { c1: { p1: good, p2: { failedTaskIds: 'x' } }, c2: 7 } })
    )
    const store = await openSettings({ dir, now })
    expect(store.read().attention).toEqual({
      c1: { p1: { ...good, completedTaskIds: [], tasks: {}, budgetCrossedAt: null } },
      c2: {}
    })
    expect(store.read().watched.c1?.map((w) => w.projectId)).toEqual(['p1', 'p2'])
  })
})

describe('files that lack keys (older builds, hand edits) are valid, not damaged', () => {
  it('whole missing sections and fields take their defaults: no copy aside, no notice, no rewrite', async () => {
    const text = JSON.stringify({
      version: 3,
      connections: [{ id: 'c1', baseUrl: 'https://api.work.example' }],
      watched: { c1: [{ projectId: 'p1' }, { projectId: 'p2', muted: true }] },
      notifications: { sound: false, quietHours: { enabled: true } },
      polling: { idleIntervalMs: 120_000 }
    })
    fs.writeFileSync(configPath(), text)
    const store = await openSettings({ dir, now })
    expect(store.takeNotices()).toEqual([])
    expect(asides()).toEqual([])
    expect(fs.readFileSync(configPath(), 'utf8')).toBe(text)
    const d = defaultSettings()
    expect(store.read()).toEqual({
      ...d,
      activeConnectionId: 'c1',
      connections: [{ id: 'c1', name: 'api.work.example', baseUrl: 'https://api.work.example', publishingDomain: '' }],
      watched: {
        c1: [
          { projectId: 'p1', name: '', muted: false, addedAt: NOW.toISOString() },
          { projectId: 'p2', name: '', muted: true, addedAt: NOW.toISOString() }
        ]
      },
      notifications: { ...d.notifications, sound: false, quietHours: { ...d.notifications.quietHours, enabled: true } },
      polling: { ...d.polling, idleIntervalMs: 120_000 }
    })
    // A section there without its parts (quiet hours, forwarding targets): each part at its default.
    fs.writeFileSync(
      configPath(),
      JSON.stringify({
        version: 3,
        notifications: { sound: false },
        forwarding: { awayAfterMs: d.forwarding.awayAfterMs }
      })
    )
    const again = await openSettings({ dir, now })
    expect(again.takeNotices()).toEqual([])
    expect(again.read()).toEqual({ ...d, notifications: { ...d.notifications, sound: false } })
  })

  it('an empty object is the default settings, quietly', async () => {
    fs.writeFileSync(configPath(), '{}')
    const store = await openSettings({ dir, now })
    expect(store.takeNotices()).toEqual([])
    expect(asides()).toEqual([])
    expect(store.read()).toEqual(defaultSettings())
  })

  it('in recovery, connections lacking publishingDomain or name keep their id, base URL, projects and active state', async () => {
    const file = goodFile()
    const damaged = {
      ...file,
      activeConnectionId: 'c2',
      theme: 42,
      connections: [
        { id: 'c1', baseUrl: 'https://api.work.example' },
        { id: 'c2', name: 'Home', baseUrl: 'https://api.home.example', publishingDomain: 7 }
      ]
    }
    fs.writeFileSync(configPath(), JSON.stringify(damaged))
    const store = await openSettings({ dir, now })
    const notices = store.takeNotices()
    expect(notices).toHaveLength(1)
    expect(notices[0]).toContain('theme')
    expect(notices[0]).toMatch(/recovered 3 watched projects and 2 connections/)
    const s = store.read()
    expect(s.connections).toEqual([
      { id: 'c1', name: 'api.work.example', baseUrl: 'https://api.work.example', publishingDomain: '' },
      { id: 'c2', name: 'Home', baseUrl: 'https://api.home.example', publishingDomain: '' }
    ])
    expect(s.activeConnectionId).toBe('c2')
    expect(s.watched).toEqual(file.watched)
  })
})

describe('damaged settings files', () => {
  async function openDamaged(content: string | Buffer) {
    fs.writeFileSync(configPath(), content)
    // Conf's own constructor must not throw on it either (the app makes one before we look).
    expect(() => new Conf(settingsConfOptions(dir))).not.toThrow()
    const store = await openSettings({ dir, now })
    const notices = store.takeNotices()
    expect(notices).toHaveLength(1)
    expect(store.takeNotices()).toEqual([])
    const kept = asides()
    expect(kept).toHaveLength(1)
    // As it was, but for key ciphertexts (config-document.ts): those are never kept aside.
    expect(fs.readFileSync(path.join(dir, kept[0]!))).toEqual(withoutCiphertexts(Buffer.from(content)))
    expect(notices[0]).toContain(kept[0])
    // The repaired file (none, when one that was not JSON had no last good copy) is valid and current, and opening it again is quiet.
    if (fs.existsSync(configPath())) expect(settingsSchema.safeParse(onDisk()).success).toBe(true)
    const reopened = await openSettings({ dir, now })
    expect(reopened.takeNotices()).toEqual([])
    expect(reopened.read()).toEqual(store.read())
    return { store, notice: notices[0]!, aside: kept[0]! }
  }

  it('not JSON: kept aside, defaults in use', async () => {
    const { store, notice, aside } = await openDamaged('this is { not json')
    expect(aside).toBe('config.json.corrupt-2025-03-04T05-06-07-089Z')
    expect(notice).toMatch(/not valid JSON/)
    expect(store.read()).toEqual(defaultSettings())
  })

  it('an empty file: kept aside, defaults in use, and the notice says it was empty', async () => {
    const { store, notice } = await openDamaged('')
    expect(notice).toMatch(/config\.json was empty; default settings are in use/)
    expect(store.read()).toEqual(defaultSettings())
  })

  it('a file of blank lines only is told as empty too', async () => {
    const { notice } = await openDamaged('\n  \t\n')
    expect(notice).toMatch(/config\.json was empty; default settings are in use/)
  })

  it('wrong types in places: only those fields are reset, field by field', async () => {
    const file = goodFile()
    const damaged = {
      ...file,
      theme: 42,
      polling: { ...file.polling, idleIntervalMs: 'often' },
      notifications: { ...file.notifications, sound: 'yes', quietHours: 'never' },
      connections: [...file.connections, { id: 'c3', baseUrl: 'ftp://nope' }],
      watched: {
        ...file.watched,
        c2: [
          { projectId: 'p3', muted: 'no' },
          { name: 'no id' },
          17,
          { projectId: 'p4' },
          { projectId: ' ' },
          { projectId: ' p5 ', addedAt: 7 }
        ]
      },
      budgets: {
        c1: [...(file.budgets.c1 ?? []), { id: 'bad', projectId: 'p2', period: 'week', limitUsd: -4, warnRatio: 0.8 }]
      }
    }
    const { store, notice } = await openDamaged(JSON.stringify(damaged))
    expect(notice).toMatch(/reset to defaults/)
    expect(notice).toContain('theme')
    expect(notice).toContain('polling.idleIntervalMs')
    const s = store.read()
    expect(s.theme).toBe('system')
    expect(s.polling).toEqual({ ...defaultSettings().polling, activeIntervalMs: 3000 })
    expect(s.notifications.sound).toBe(true)
    expect(s.notifications.quietHours).toEqual(defaultSettings().notifications.quietHours)
    expect(s.connections.map((c) => c.id)).toEqual(['c1', 'c2'])
    expect(s.watched.c1).toEqual(file.watched.c1)
    expect(s.watched.c2).toEqual([
      { projectId: 'p3', name: '', muted: false, addedAt: NOW.toISOString() },
      { projectId: 'p4', name: '', muted: false, addedAt: NOW.toISOString() },
      // A blank id is no project; an id is read trimmed, and a date that is not text is the time of reading.
      { projectId: 'p5', name: '', muted: false, addedAt: NOW.toISOString() }
    ])
    // The whole budget is kept; the damaged one goes.
    expect(s.budgets).toEqual(file.budgets)
  })

  it('every field of every section wrong: each takes its default on its own, and what is whole is kept', async () => {
    const file = goodFile()
    const target = {
      id: 't1',
      name: 'Phone',
      kind: 'ntfy',
      host: 'ntfy.sh',
      on: ['failed', 'budget', 'failed'],
      when: 'away'
    }
    const damaged = {
      ...file,
      activeConnectionId: 7,
      connections: [...file.connections, { id: 'c1', baseUrl: 'https://again.example' }],
      notifications: {
        transitions: { started: 'yes', completed: 0, failed: null, cancelled: 'no' },
        quietHours: { enabled: 'on', start: '25:00', end: 7 },
        sound: 'loud',
        pausedUntil: 5,
        unusualCost: 'maybe'
      },
      polling: { activeIntervalMs: 'fast', idleIntervalMs: -1, maxConcurrency: 99 },
      launchAtLogin: 'true',
      theme: 'purple',
      window: { x: 'left', y: 'top', width: -5, height: 0, maximized: 1 },
      allowBasicTextSecrets: 'no',
      shortcutNoticeShown: 1,
      shortcut: 'Banana+Q',
      pinned: 'pinned',
      hideDockIcon: 'no',
      checkForUpdates: 0,
      trayNoticeShown: 'x',
      attention: { c1: { p1: { failedTaskIds: 'all' }, p2: { completedTaskIds: ['t9'] } }, c2: 'x' },
      connectionNotifications: { c1: { muted: 'yes' }, c2: { muted: true } },
      forwarding: {
        targets: [{ ...target, kind: 'pigeon' }, target],
        awayAfterMs: 10,
        eventsOffered: [...FORWARD_EVENTS]
      }
    }
    const { store, notice } = await openDamaged(JSON.stringify(damaged))
    expect(notice).toMatch(
      /^Some entries of \S+config\.json were invalid and were dropped or reset to defaults \(.+\); recovered 3 watched projects and 2 connections\./
    )
    const d = defaultSettings()
    expect(store.read()).toEqual({
      ...d,
      // No readable active connection: the first is active.
      activeConnectionId: 'c1',
      // The first of two with one id.
      connections: file.connections,
      watched: file.watched,
      budgets: file.budgets,
      attention: {
        c1: {
          p2: {
            acknowledgedAt: null,
            failedTaskIds: [],
            budgetCrossed: false,
            completedTaskIds: ['t9'],
            tasks: {},
            budgetCrossedAt: null
          }
        },
        c2: {}
      },
      connectionNotifications: { c2: { muted: true, pausedUntil: null } },
      forwarding: {
        targets: [{ ...target, on: ['failed', 'budget'], paused: false, quietHours: false }],
        awayAfterMs: d.forwarding.awayAfterMs,
        eventsOffered: [...FORWARD_EVENTS]
      }
    })
  })

  it('whole sections of the wrong kind take their defaults, and so does an active connection that is not there', async () => {
    const file = goodFile()
    const damaged = {
      ...file,
      activeConnectionId: 'gone',
      notifications: { transitions: 'all', quietHours: [], sound: false },
      polling: 'often',
      window: [],
      attention: 'none',
      connectionNotifications: 4,
      budgets: 'lots',
      forwarding: 'off'
    }
    const { store } = await openDamaged(JSON.stringify(damaged))
    const d = defaultSettings()
    expect(store.read()).toEqual({
      ...file,
      activeConnectionId: 'c1',
      notifications: { ...d.notifications, sound: false },
      polling: d.polling,
      window: d.window,
      attention: {},
      connectionNotifications: {},
      budgets: {},
      forwarding: d.forwarding
    })
    // Sections that are not objects at all.
    fs.rmSync(path.join(dir, asides()[0]!))
    const { store: again } = await openDamaged(
      JSON.stringify({ ...file, notifications: 'quiet', window: { width: 800, height: 600, x: 10 } })
    )
    expect(again.read()).toEqual({
      ...file,
      notifications: d.notifications,
      window: { width: 800, height: 600, maximized: false, x: 10 }
    })
    // A list where the watched projects per connection belong: no connection reads from it.
    fs.rmSync(path.join(dir, asides()[0]!))
    const { store: third } = await openDamaged(JSON.stringify({ ...file, watched: [[{ projectId: 'p1' }]] }))
    expect(third.read()).toEqual({ ...file, watched: {} })
  })

  it('past their bounds, or twice for one slot: the first budgets and forwarding targets are kept, within the bound', async () => {
    const file = goodFile()
    const budget = (i: number, projectId: string | null = `q${i}`) => ({
      id: `b${i}`,
      projectId,
      period: 'day' as const,
      limitUsd: i,
      warnRatio: 0.8
    })
    const target = (i: number) => ({
      id: `t${i}`,
      name: `T${i}`,
      kind: 'webhook' as const,
      host: 'hooks.example',
      on: ['failed' as const],
      when: 'always' as const,
      paused: false,
      quietHours: false
    })
    const damaged = {
      ...file,
      budgets: {
        c1: Array.from({ length: 101 }, (_, i) => budget(i)),
        c2: [budget(1, null), budget(2, null), { ...budget(3, 'p3'), period: 'month' as const }]
      },
      forwarding: {
        targets: Array.from({ length: 21 }, (_, i) => target(i)),
        awayAfterMs: 600_000,
        eventsOffered: [...FORWARD_EVENTS]
      }
    }
    const { store, notice } = await openDamaged(JSON.stringify(damaged))
    expect(notice).toMatch(/\(budgets\.c1, budgets\.c2, forwarding\.targets\)/)
    const s = store.read()
    expect(s.budgets.c1).toEqual(damaged.budgets.c1.slice(0, 100))
    expect(s.budgets.c2).toEqual([budget(1, null), { ...budget(3, 'p3'), period: 'month' }])
    expect(s.forwarding).toEqual({
      targets: damaged.forwarding.targets.slice(0, 20),
      awayAfterMs: 600_000,
      eventsOffered: [...FORWARD_EVENTS]
    })
  })

  it('damaged again within the same millisecond: the second copy gets its own name, the first is never written over', async () => {
    await openDamaged('first damage {')
    fs.writeFileSync(configPath(), 'second damage {')
    const store = await openSettings({ dir, now })
    expect(store.takeNotices()).toEqual([expect.stringContaining('config.json.corrupt-2025-03-04T05-06-07-089Z-2.')])
    expect(asides().sort()).toEqual([
      'config.json.corrupt-2025-03-04T05-06-07-089Z',
      'config.json.corrupt-2025-03-04T05-06-07-089Z-2'
    ])
    expect(fs.readFileSync(path.join(dir, 'config.json.corrupt-2025-03-04T05-06-07-089Z'), 'utf8')).toBe(
      'first damage {'
    )
    expect(fs.readFileSync(path.join(dir, 'config.json.corrupt-2025-03-04T05-06-07-089Z-2'), 'utf8')).toBe(
      'second damage {'
    )
    fs.writeFileSync(configPath(), 'third damage {')
    await openSettings({ dir, now })
    expect(fs.readFileSync(path.join(dir, 'config.json.corrupt-2025-03-04T05-06-07-089Z-3'), 'utf8')).toBe(
      'third damage {'
    )
    fs.writeFileSync(configPath(), '{"version": 99}')
    await openSettings({ dir, now })
    expect(asides()).toContain('config.json.newer-2025-03-04T05-06-07-089Z')
    // Each copy is private to the user, as the file was.
    for (const name of asides()) expect(fs.statSync(path.join(dir, name)).mode & 0o777).toBe(0o600)
  })

  it("a link found at the copy's name is never written through: opening stops, nothing changed, in one line", async () => {
    fs.writeFileSync(configPath(), 'damage {')
    const aside = path.join(dir, 'config.json.corrupt-2025-03-04T05-06-07-089Z')
    const elsewhere = path.join(dir, 'elsewhere')
    fs.symlinkSync(elsewhere, aside)
    const failure = await openSettings({ dir, now }).then(
      () => null,
      (error: unknown) => error
    )
    expect(failure).toBeInstanceOf(SettingsFileError)
    expect((failure as Error).message).toBe(
      `Cannot keep a copy of ${aside}: something else is at that name (a link, or a file made meanwhile); remove it; nothing was changed.`
    )
    expect(fs.existsSync(elsewhere)).toBe(false)
    expect(fs.readFileSync(configPath(), 'utf8')).toBe('damage {')
  })

  it('without a clock given, a copy is named by the time now', async () => {
    fs.writeFileSync(configPath(), 'damage {')
    const before = new Date()
    await openSettings({ dir })
    const [name] = asides()
    const stamp = /^config\.json\.corrupt-(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)-(\d{3})Z$/.exec(name ?? '')
    expect(stamp).not.toBeNull()
    const [, day, h, m, sec, ms] = stamp!
    const at = new Date(`${day}T${h}:${m}:${sec}.${ms}Z`).getTime()
    expect(at).toBeGreaterThanOrEqual(before.getTime())
    expect(at).toBeLessThanOrEqual(Date.now())
  })

  it('wrong top-level type: kept aside, defaults in use', async () => {
    const { store, notice } = await openDamaged(JSON.stringify(['p1', 'p2']))
    expect(notice).toMatch(/held a list instead of settings/)
    expect(store.read()).toEqual(defaultSettings())
  })

  it('a version from the future: kept aside; connections, watched projects and their keys recovered, the rest default', async () => {
    const file = goodFile()
    const future = {
      ...file,
      version: 9,
      activeConnectionId: 'c2',
      theme: 'dark',
      newFeature: { on: true },
      safeStorageKeys: { c1: 'Y2lwaGVy' }
    }
    const { store, notice, aside } = await openDamaged(JSON.stringify(future))
    expect(aside).toMatch(/^config\.json\.newer-/)
    expect(notice).toMatch(
      /newer Agent Tray \(file version 9\); this version recovered 3 watched projects and 2 connections from it/
    )
    expect(notice).toMatch(/other settings are at their defaults/)
    expect(store.read()).toEqual({
      ...defaultSettings(),
      activeConnectionId: 'c2',
      connections: file.connections,
      watched: file.watched,
      budgets: file.budgets
    })
    expect(await store.ciphertexts.get('c1')).toBe('Y2lwaGVy')
    expect(fs.readFileSync(path.join(dir, aside), 'utf8')).not.toContain('Y2lwaGVy')
  })

  it('damage after opening: read() recovers in memory, the next update repairs on disk', async () => {
    const store = await openSettings({ dir, now })
    fs.writeFileSync(configPath(), JSON.stringify({ ...goodFile(), theme: 'purple' }))
    expect(store.read().watched.c1?.map((p) => p.projectId)).toEqual(['p1', 'p2'])
    expect(store.read().theme).toBe('system')
    await store.update((draft) => {
      draft.launchAtLogin = true
    })
    expect(store.takeNotices()).toHaveLength(1)
    expect(asides()).toHaveLength(1)
    expect(onDisk()).toMatchObject({ theme: 'system', launchAtLogin: true })
  })

  it('a refused update after damage writes nothing and keeps nothing aside: the next update keeps exactly one copy', async () => {
    fs.writeFileSync(configPath(), JSON.stringify(goodFile()))
    const store = await openSettings({ dir, now })
    fs.writeFileSync(configPath(), 'damage {')
    await expect(store.update((draft) => void (draft.polling.activeIntervalMs = -1))).rejects.toThrow(
      SettingsValidationError
    )
    expect(fs.readFileSync(configPath(), 'utf8')).toBe('damage {')
    expect(asides()).toEqual([])
    await store.update((draft) => void (draft.launchAtLogin = true))
    expect(asides()).toEqual(['config.json.corrupt-2025-03-04T05-06-07-089Z'])
    expect(store.takeNotices()).toHaveLength(1)
  })
})

describe('a settings file that cannot be read while the app runs', () => {
  it('is told once per failure: again after a good read, and again when it fails another way', async () => {
    const store = await openSettings({ dir, now })
    await store.update((draft) => void (draft.theme = 'dark'))
    const away = `${configPath()}.away`
    const breakIt = () => {
      fs.renameSync(configPath(), away)
      fs.mkdirSync(configPath())
    }
    const mendIt = () => {
      fs.rmdirSync(configPath())
      fs.renameSync(away, configPath())
    }
    const told = `${configPath()} is a directory, not a settings file: move it away (Agent Tray then starts a new one). Until it can be read again, what was last read from it is in use.`
    breakIt()
    expect(store.read().theme).toBe('dark')
    expect(store.read().theme).toBe('dark')
    expect(store.takeNotices()).toEqual([told])
    mendIt()
    expect(store.read().theme).toBe('dark')
    breakIt()
    expect(store.read().theme).toBe('dark')
    expect(store.takeNotices()).toEqual([told])
    // Another failure: a link that loops.
    fs.rmdirSync(configPath())
    fs.symlinkSync('config.json', configPath())
    expect(store.read().theme).toBe('dark')
    expect(store.takeNotices()).toEqual([
      `${configPath()} is a symbolic link that points to itself: remove it. Until it can be read again, what was last read from it is in use.`
    ])
  })

  it('its directory replaced by a file: the settings last read stay in use, and a change fails, in one line each', async () => {
    const store = await openSettings({ dir, now })
    await store.update((draft) => void (draft.theme = 'dark'))
    const away = `${dir}.away`
    fs.renameSync(dir, away)
    try {
      fs.writeFileSync(dir, 'not a directory')
      expect(store.read().theme).toBe('dark')
      expect(store.takeNotices()).toEqual([
        `Cannot read ${configPath()}: a directory on its path is a file. Until it can be read again, what was last read from it is in use.`
      ])
      await expect(store.update((draft) => void (draft.theme = 'light'))).rejects.toThrow(
        new SettingsFileError(`Cannot write ${dir}: a directory on its path is a file; nothing was changed.`)
      )
    } finally {
      fs.rmSync(dir, { force: true })
      fs.renameSync(away, dir)
    }
  })

  it("the notice keeps the file's path as it is, whatever its directory is called", async () => {
    const odd = path.join(dir, 'odd; nothing was changed.')
    const store = await openSettings({ dir: odd, now })
    store.read()
    fs.mkdirSync(path.join(odd, 'config.json'))
    store.read()
    expect(store.takeNotices()).toEqual([
      `${odd}/config.json is a directory, not a settings file: move it away (Agent Tray then starts a new one). Until it can be read again, what was last read from it is in use.`
    ])
  })

  it('what was last read is the settings as repaired, each watched project with its date', async () => {
    const file = goodFile()
    fs.writeFileSync(
      configPath(),
      JSON.stringify({ ...file, watched: { ...file.watched, c2: [{ projectId: 'p3', addedAt: 7 }] } })
    )
    const store = await openSettings({ dir, now })
    expect(store.takeNotices()).toEqual([expect.stringContaining('watched.c2')])
    // Unreadable before any read: what the repair read is in use.
    fs.rmSync(configPath())
    fs.mkdirSync(configPath())
    expect(store.read().watched.c2).toEqual([{ projectId: 'p3', name: '', muted: false, addedAt: NOW.toISOString() }])
  })

  it('a change that cannot be written fails in one line naming the file, and nothing is changed', async () => {
    // So deep that the file's name fits the system's limit on a path, but the name it is first
    // written under (the file's, and a suffix) does not.
    const limit = 4095
    const target = limit - 10 - '/config.json'.length
    let deep = dir
    while (deep.length + 201 < target - 50) deep = path.join(deep, 'd'.repeat(200))
    deep = path.join(deep, 'd'.repeat(target - deep.length - 1))
    fs.mkdirSync(deep, { recursive: true })
    const file = path.join(deep, 'config.json')
    expect(file.length).toBe(limit - 10)
    const store = await openSettings({ dir: deep, now })
    const failure = await store
      .update((draft) => void (draft.theme = 'dark'))
      .then(
        () => null,
        (error: unknown) => error
      )
    expect(failure).toBeInstanceOf(SettingsFileError)
    expect((failure as Error).message.startsWith(`Cannot write ${file}: `)).toBe(true)
    expect((failure as Error).message.endsWith('; nothing was changed.')).toBe(true)
    expect(fs.existsSync(file)).toBe(false)
    expect(store.read().theme).toBe(defaultSettings().theme)
  })

  it('before anything was read from it, the failure is thrown: there is nothing to fall back on', () => {
    const notices: string[] = []
    const file = new DocumentFile(
      { path: configPath(), store: {} },
      (value) => interpretConfig(value, NOW),
      serializeConfig,
      () => 'damaged',
      now,
      notices
    )
    fs.mkdirSync(configPath())
    expect(() => file.read()).toThrow(SettingsFileError)
    expect(notices).toEqual([])
  })
})

describe('migration v2 → v3', () => {
  it("moves each project's budgetUsd into a total budget of its connection, and the file still loads", async () => {
    const v2 = {
      version: 2,
      connections: [
        { id: 'c1', name: 'Work', baseUrl: 'https://api.work.example', publishingDomain: '' },
        { id: 'c2', name: 'Home', baseUrl: 'https://api.home.example', publishingDomain: '' }
      ],
      watched: {
        c1: [
          { projectId: 'p1', name: 'Shop', muted: false, budgetUsd: 25, addedAt: NOW.toISOString() },
          { projectId: 'p2', name: '', muted: false, budgetUsd: null, addedAt: NOW.toISOString() }
        ],
        c2: [{ projectId: 'p3', name: '', muted: true, budgetUsd: 0.5, addedAt: NOW.toISOString() }]
      }
    }
    fs.writeFileSync(configPath(), JSON.stringify(v2))
    const store = await openSettings({ dir, now })
    expect(store.takeNotices()).toEqual([])
    expect(asides()).toEqual([])
    const s = store.read()
    expect(s.budgets).toEqual({
      c1: [{ id: 'total-p1', projectId: 'p1', period: 'total', limitUsd: 25, warnRatio: 0.8 }],
      c2: [{ id: 'total-p3', projectId: 'p3', period: 'total', limitUsd: 0.5, warnRatio: 0.8 }]
    })
    expect(s.watched.c1?.map((w) => w.name)).toEqual(['Shop', ''])
    const disk = onDisk()
    expect(disk.version).toBe(3)
    expect(JSON.stringify(disk.watched)).not.toContain('budgetUsd')
  })

  it('a v2 budget out of bounds is damage told and dropped, never the file', async () => {
    fs.writeFileSync(
      configPath(),
      JSON.stringify({
        version: 2,
        connections: [{ id: 'c1', baseUrl: 'https://a.example' }],
        watched: { c1: [{ projectId: 'p1', budgetUsd: -3 }] }
      })
    )
    const store = await openSettings({ dir, now })
    expect(store.takeNotices().join(' ')).toMatch(/budgets/)
    expect(store.read().watched.c1?.map((w) => w.projectId)).toEqual(['p1'])
    expect(store.read().budgets).toEqual({ c1: [] })
  })
})

describe('migration v1 → v2', () => {
  it('moves the single service and its flat project list into a connection', async () => {
    fs.writeFileSync(
      configPath(),
      JSON.stringify({
        version: 1,
        apiBaseUrl: 'https://api.example.com/',
        watchedProjects: ['p1', 'p2', ' ', 7],
        pollIntervalMs: 2000,
        notifyOnComplete: false,
        theme: 'light'
      })
    )
    const store = await openSettings({ dir, now })
    expect(store.takeNotices()).toEqual([])
    expect(asides()).toEqual([])
    const expected = {
      ...defaultSettings(),
      activeConnectionId: 'default',
      connections: [
        { id: 'default', name: 'api.example.com', baseUrl: 'https://api.example.com', publishingDomain: '' }
      ],
      watched: {
        default: ['p1', 'p2'].map((projectId) => ({
          projectId,
          name: '',
          muted: false,
          addedAt: NOW.toISOString()
        }))
      },
      polling: { ...defaultSettings().polling, activeIntervalMs: 2000 },
      notifications: {
        ...defaultSettings().notifications,
        transitions: { ...defaultSettings().notifications.transitions, completed: false }
      },
      theme: 'light'
    }
    expect(store.read()).toEqual(expected)
    // Written back as the current version, with none of v1's keys left.
    const disk = onDisk()
    expect(disk.version).toBe(3)
    expect(disk).not.toHaveProperty('watchedProjects')
    expect(disk).not.toHaveProperty('apiBaseUrl')
  })

  it('stores the v1 service as every connection is stored, so the same address finds it later', async () => {
    fs.writeFileSync(
      configPath(),
      JSON.stringify({ version: 1, apiBaseUrl: ' HTTPS://API.Example.COM:443/v1// ', watchedProjects: ['p1'] })
    )
    const store = await openSettings({ dir, now })
    expect(store.takeNotices()).toEqual([])
    expect(store.read().connections).toEqual([
      { id: 'default', name: 'api.example.com', baseUrl: 'https://api.example.com/v1', publishingDomain: '' }
    ])
    expect(findConnectionByUrl(store.read(), 'https://api.example.com/v1/')?.id).toBe('default')
  })

  it('takes a file without a version but with v1 keys as v1', async () => {
    fs.writeFileSync(configPath(), JSON.stringify({ apiBaseUrl: 'http://localhost:8080', watchedProjects: ['x'] }))
    const store = await openSettings({ dir, now })
    expect(store.read().watched.default?.map((p) => p.projectId)).toEqual(['x'])
  })
})

describe('state.json', () => {
  const snapshot: ProjectSnapshot = {
    polledAt: NOW.toISOString(),
    tasks: {
      t1: {
        status: 'in_progress',
        name: 'Build',
        updatedAt: NOW.toISOString(),
        totalPrice: 0.5,
        steps: { s1: 'completed' }
      }
    }
  }

  it('keeps last seen state per connection in its own file', async () => {
    const store = await openSettings({ dir, now })
    await store.writeLastSeen('c1', { p1: snapshot })
    await store.writeLastSeen('c2', { p9: snapshot })
    await store.setBudgetNotified('c1', 'p1', 5)
    const other = await openSettings({ dir, now })
    expect(other.readLastSeen()).toEqual({ c1: { p1: snapshot }, c2: { p9: snapshot } })
    expect(other.readBudgetsNotified()).toEqual({ c1: { p1: 5 } })
    expect(fs.existsSync(path.join(dir, 'state.json'))).toBe(true)
    expect(fs.existsSync(configPath())).toBe(false)
  })

  it('forgets a notified budget on null, and replaces only the parts of the budget memory it is given', async () => {
    const store = await openSettings({ dir, now })
    await store.setBudgetNotified('c1', 'p1', 5)
    await store.setBudgetNotified('c1', 'p2', 7)
    await store.setBudgetNotified('c1', 'p1', null)
    await store.setBudgetNotified('c2', 'p1', null)
    const reopened = await openSettings({ dir, now })
    expect(reopened.readBudgetsNotified()).toEqual({ c1: { p2: 7 }, c2: {} })
    // Forgotten, not written as something the next start would have to repair.
    expect(reopened.takeNotices()).toEqual([])

    const told = { c1: { b1: { periodKey: '2025-03', level: 'near' as const, limitUsd: 10, warnRatio: 0.8 } } }
    await store.writeBudgetMemory({ told, unusualTold: { c1: ['t1'] } })
    await store.writeBudgetMemory({ unusualTold: { c1: ['t1', 't2'] } })
    const memory = (await openSettings({ dir, now })).readBudgetMemory()
    expect(memory).toEqual({ told, held: [], unusualTold: { c1: ['t1', 't2'] }, unitTold: {} })
  })

  it('refuses a snapshot that would not read back', async () => {
    const store = await openSettings({ dir, now })
    const bad = { polledAt: 'x', tasks: { t: { status: 'done' } } } as unknown as ProjectSnapshot
    await expect(store.writeLastSeen('c1', { p1: bad })).rejects.toThrow(/project p1 is not valid/)
  })

  it('a damaged state file is kept aside and the valid snapshots recovered', async () => {
    fs.writeFileSync(
      path.join(dir, 'state.json'),
      JSON.stringify({ version: 1, lastSeen: { c1: { p1: snapshot, p2: { tasks: 3 } } }, budgetsNotified: [] })
    )
    const store = await openSettings({ dir, now })
    const notices = store.takeNotices()
    expect(notices).toHaveLength(1)
    expect(notices[0]).toMatch(/state\.json/)
    expect(store.readLastSeen()).toEqual({ c1: { p1: snapshot } })
    expect(fs.readdirSync(dir).some((n) => n.startsWith('state.json.corrupt-'))).toBe(true)
  })

  it('a state file with nothing readable names the monitor state, not the settings', async () => {
    for (const content of ['null', 'not json {', '']) {
      fs.writeFileSync(path.join(dir, 'state.json'), content)
      const store = await openSettings({ dir, now })
      const notices = store.takeNotices()
      expect(notices).toHaveLength(1)
      expect(notices[0]).toMatch(/^\S*state\.json /)
      expect(notices[0]).toContain(
        'the saved monitor state was unreadable; it starts afresh: the next poll of each project sets a new baseline'
      )
      expect(notices[0]!.replaceAll(dir, '')).not.toMatch(/settings/)
      expect(store.readLastSeen()).toEqual({})
    }
  })
})

describe('safeStorage ciphertexts', () => {
  it('live in config.json outside the Settings object', async () => {
    const store = await openSettings({ dir, now })
    await store.ciphertexts.set('c1', 'Y2lwaGVy')
    expect(await store.ciphertexts.get('c1')).toBe('Y2lwaGVy')
    expect(store.read()).not.toHaveProperty('safeStorageKeys')
    expect(onDisk().safeStorageKeys).toEqual({ c1: 'Y2lwaGVy' })
    expect(await store.ciphertexts.delete('c1')).toBe(true)
    expect(await store.ciphertexts.delete('c1')).toBe(false)
    expect(await store.ciphertexts.get('c1')).toBeNull()
  })
})

describe('a document without keepLastGood (a cache, as the usage cache)', () => {
  it('never gets a last good copy', async () => {
    const conf = new Conf({ ...settingsConfOptions(dir), configName: 'cache' })
    const file = new DocumentFile<Record<string, unknown>>(
      conf,
      (value) => ({ doc: value, rewrite: false }),
      (doc) => doc,
      () => 'damaged',
      now,
      []
    )
    await file.open()
    await file.update((doc) => void (doc.n = 1))
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'cache.json'), 'utf8'))).toEqual({ n: 1 })
    expect(fs.existsSync(path.join(dir, 'cache.last-good.json'))).toBe(false)
  })
})
