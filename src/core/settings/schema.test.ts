// A connection's id is its account in the key store (shared/ids.ts): config.json cannot name a
// connection after another entry (`forward:<target>`). Such a file is damage, like any invalid entry.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { addConnection } from './edit'
import { connectionSchema, defaultSettings, settingsSchema } from './schema'
import { openSettings } from './store'

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
})
