// A connection's id is its account in the key store (shared/ids.ts): config.json cannot name a
// connection after another entry (`forward:<target>`). Such a file is damage, like any invalid entry.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { addConnection } from './edit'
import { connectionSchema, defaultSettings, issuePaths, settingsSchema, settingsSchemaAt } from './schema'
import { openSettings, SettingsValidationError } from './store'

let dir: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-schema-'))
})
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('a connection id', () => {
  it("follows the id rule and has no ':'", () => {
    const base = { baseUrl: 'https://collector.example', publishingDomain: '' }
    expect(connectionSchema.safeParse({ ...base, id: 'c-0a1b2c3d' }).success).toBe(true)
    for (const id of ['forward:t1', '', '../c1', 'c1\u001b'])
      expect(connectionSchema.safeParse({ ...base, id }).success, id).toBe(false)
    const settings = defaultSettings()
    addConnection(settings, { baseUrl: 'https://collector.example' }, 'forward:t1')
    expect(settingsSchema.safeParse(settings).success).toBe(false)
  })

  it('a config.json naming one after a forwarding entry opens: that connection is dropped and told, the rest kept', async () => {
    const file = defaultSettings()
    addConnection(file, { name: 'Work', baseUrl: 'https://api.work.example' }, 'c1')
    addConnection(file, { baseUrl: 'https://collector.example' }, 'forward:t1')
    file.activeConnectionId = 'forward:t1'
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(file))
    const store = await openSettings({ dir })
    expect(store.read().connections.map((c) => c.id)).toEqual(['c1'])
    expect(store.read().activeConnectionId).toBe('c1')
    expect(store.takeNotices()).toEqual([expect.stringMatching(/connections/)])
  })

  it('an update naming one after a forwarding entry is refused, saying why', async () => {
    const store = await openSettings({ dir })
    const refused = store.update((draft) =>
      addConnection(draft, { baseUrl: 'https://collector.example' }, 'forward:t1')
    )
    await expect(refused).rejects.toThrow(SettingsValidationError)
    await expect(refused).rejects.toThrow("connections.0.id: must not contain ':'")
  })
})

describe('the active connection', () => {
  it('is the first when none is given or the one given is gone; an explicit null stays', () => {
    const settings = defaultSettings()
    addConnection(settings, { baseUrl: 'https://a.example' }, 'c1')
    addConnection(settings, { baseUrl: 'https://b.example' }, 'c2')
    const { activeConnectionId: _, ...without } = settings
    expect(settingsSchema.parse(without).activeConnectionId).toBe('c1')
    expect(settingsSchema.parse({ ...settings, activeConnectionId: 'gone' }).activeConnectionId).toBe('c1')
    expect(settingsSchema.parse({ ...settings, activeConnectionId: 'c2' }).activeConnectionId).toBe('c2')
    expect(settingsSchema.parse({ ...settings, activeConnectionId: null }).activeConnectionId).toBeNull()
  })
})

describe('issuePaths (the places a notice names)', () => {
  const at = (...paths: PropertyKey[][]) => paths.map((path) => ({ path }))

  it('shortens each to where a user would look: before the first list index, at most three deep', () => {
    expect(
      issuePaths(at(['watched', 'c2', 3, 'name'], ['attention', 'c1', 'p1', 'acknowledgedAt'], ['pinned']))
    ).toEqual(['watched.c2', 'attention.c1.p1', 'pinned'])
  })

  it('names the whole file for an issue at its root, and each place once', () => {
    expect(issuePaths(at([], ['theme'], ['theme']))).toEqual(['(whole file)', 'theme'])
  })

  it('names at most `limit` places, then how many more', () => {
    const places = (n: number) => at(...Array.from({ length: n }, (_, i) => [`field${i}`]))
    expect(issuePaths(places(8))).toEqual(Array.from({ length: 8 }, (_, i) => `field${i}`))
    expect(issuePaths(places(10))).toEqual([...Array.from({ length: 8 }, (_, i) => `field${i}`), 'and 2 more'])
    expect(issuePaths(places(3), 2)).toEqual(['field0', 'field1', 'and 1 more'])
  })
})

describe('muted agent projects', () => {
  it('default to none; a file with a wrong entry keeps the rest; an account of a service keeps its service', () => {
    expect(defaultSettings().mutedAgentProjects).toEqual({})
    const read = settingsSchemaAt(new Date(0), true).parse({
      mutedAgentProjects: { c1: ['owner/repo', 7, ''], c2: 'x' }
    })
    expect(read.mutedAgentProjects).toEqual({ c1: ['owner/repo'], c2: [] })
    expect(settingsSchema.safeParse({ mutedAgentProjects: { c1: [3] } }).success).toBe(false)
    const settings = defaultSettings()
    addConnection(settings, { baseUrl: 'https://jules.example', service: 'jules' }, 'c1')
    expect(settingsSchema.parse(settings).connections[0]?.service).toBe('jules')
  })
})
