// config.json's own rules: what a damaged copy kept aside holds (never a key ciphertext), and how
// a damaged key store is read (only the damaged key is lost, and the user is told).
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { describeRecovered, withoutCiphertexts } from './config-document'
import { addConnection, watchProject } from './edit'
import { defaultSettings } from './schema'
import { openSettings } from './store'

const NOW = new Date('2025-03-04T05:06:07.089Z')
const writeIndentedJson = (value: unknown) => JSON.stringify(value, null, '\t')
const scrub = (text: string) => withoutCiphertexts(Buffer.from(text, 'latin1')).toString('latin1')

describe('withoutCiphertexts', () => {
  it('blanks every key ciphertext, keeping the connection ids and everything around them', () => {
    expect(scrub('{"a": 1, "safeStorageKeys": {"c1": "QUJD", "c\\"2": "REVG+/=="}, "b": "QUJD"}')).toBe(
      '{"a": 1, "safeStorageKeys": {"c1": "[removed]", "c\\"2": "[removed]"}, "b": "QUJD"}'
    )
  })

  it("blanks forwarding targets' ciphertexts too, in their own map", () => {
    expect(scrub('{"safeStorageKeys": {"c1": "QUJD"}, "forwardingSafeStorageKeys": {"forward:t1": "REVG"}}')).toBe(
      '{"safeStorageKeys": {"c1": "[removed]"}, "forwardingSafeStorageKeys": {"forward:t1": "[removed]"}}'
    )
  })

  it('in the store layout (tabs, line breaks), and wherever damage repeated the key store', () => {
    const text = writeIndentedJson({ theme: 'dark', safeStorageKeys: { c1: 'QUJD', c2: 'REVG' } })
    const twice = `${text.slice(0, -2)},\n\t"safeStorageKeys" :\n{ "c3" :\t"R0hJ" }\n}`
    const out = scrub(twice)
    for (const secret of ['QUJD', 'REVG', 'R0hJ']) expect(out).not.toContain(secret)
    expect(out).toBe(twice.replace(/"(QUJD|REVG|R0hJ)"/g, '"[removed]"'))
  })

  it('a file cut inside a ciphertext: the part that is there is blanked too', () => {
    expect(scrub('{"safeStorageKeys": {"c1": "QUJDREVG", "c2": "R0h')).toBe(
      '{"safeStorageKeys": {"c1": "[removed]", "c2": "[removed]"'
    )
  })

  it('keeps every other byte as it was, invalid UTF-8 included; a file without keys comes back the same', () => {
    const garbage = Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28])
    const raw = Buffer.concat([garbage, Buffer.from('{"safeStorageKeys": {"c1": "QUJD"}}'), garbage])
    expect(withoutCiphertexts(raw)).toEqual(
      Buffer.concat([garbage, Buffer.from('{"safeStorageKeys": {"c1": "[removed]"}}'), garbage])
    )
    expect(withoutCiphertexts(garbage)).toEqual(garbage)
    expect(scrub('{"safeStorageKeys": {}}')).toBe('{"safeStorageKeys": {}}')
  })
})

describe('describeRecovered', () => {
  it('counts the watched projects of every connection, in words', () => {
    const s = defaultSettings()
    expect(describeRecovered(s)).toBe('recovered 0 watched projects and 0 connections')
    addConnection(s, { baseUrl: 'https://a.example' }, 'a')
    watchProject(s, 'a', 'p1', NOW)
    expect(describeRecovered(s)).toBe('recovered 1 watched project and 1 connection')
    addConnection(s, { baseUrl: 'https://b.example' }, 'b')
    watchProject(s, 'b', 'p1', NOW)
    watchProject(s, 'b', 'p2', NOW)
    expect(describeRecovered(s)).toBe('recovered 3 watched projects and 2 connections')
  })
})

describe('a damaged key store in config.json', () => {
  let dir: string
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-tray-config-'))
  })
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it("keeps forwarding targets' ciphertexts in a map of their own, written only once it holds one", async () => {
    const store = await openSettings({ dir, now: () => NOW })
    const onDisk = () => JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')) as Record<string, unknown>
    await store.ciphertexts.set('c1', 'Y2lwaGVy')
    expect(onDisk()).not.toHaveProperty('forwardingSafeStorageKeys')
    await store.forwardingCiphertexts.set('forward:t1', 'dGFyZ2V0')
    expect(onDisk()).toMatchObject({
      safeStorageKeys: { c1: 'Y2lwaGVy' },
      forwardingSafeStorageKeys: { 'forward:t1': 'dGFyZ2V0' }
    })
    expect(await store.ciphertexts.get('forward:t1')).toBeNull()
    expect(await (await openSettings({ dir, now: () => NOW })).forwardingCiphertexts.ids()).toEqual(['forward:t1'])
  })

  it('loses only the key that is not text: the settings and the other keys are kept, and the user is told', async () => {
    const settings = defaultSettings()
    addConnection(settings, { baseUrl: 'https://a.example' }, 'c1')
    addConnection(settings, { baseUrl: 'https://b.example' }, 'c2')
    watchProject(settings, 'c1', 'p1', NOW)
    fs.writeFileSync(
      path.join(dir, 'config.json'),
      writeIndentedJson({ ...settings, safeStorageKeys: { c1: 'QUJD', c2: 5 } })
    )
    const store = await openSettings({ dir, now: () => NOW })
    expect(store.takeNotices()).toEqual([
      `Some entries of ${path.join(dir, 'config.json')} were invalid and were dropped or reset to defaults (safeStorageKeys); recovered 1 watched project and 2 connections. The original was kept as ${path.join(dir, 'config.json.corrupt-2025-03-04T05-06-07-089Z')}.`
    ])
    expect(store.read()).toEqual(settings)
    expect(await store.ciphertexts.ids()).toEqual(['c1'])
    expect(await store.ciphertexts.get('c1')).toBe('QUJD')
    expect(fs.readFileSync(path.join(dir, 'config.json.corrupt-2025-03-04T05-06-07-089Z'), 'utf8')).not.toContain(
      'QUJD'
    )
    // Repaired on disk: opening again is quiet.
    expect((await openSettings({ dir, now: () => NOW })).takeNotices()).toEqual([])
  })

  it('a key store of the wrong kind is reset with the settings kept; a settings field damaged beside it is named too', async () => {
    const settings = defaultSettings()
    addConnection(settings, { baseUrl: 'https://a.example' }, 'c1')
    fs.writeFileSync(
      path.join(dir, 'config.json'),
      writeIndentedJson({ ...settings, theme: 'neon', safeStorageKeys: ['QUJD'] })
    )
    const store = await openSettings({ dir, now: () => NOW })
    expect(store.takeNotices()).toEqual([
      expect.stringContaining(
        'were invalid and were dropped or reset to defaults (theme, safeStorageKeys); recovered 0 watched projects and 1 connection.'
      )
    ])
    expect(store.read()).toEqual(settings)
    expect(await store.ciphertexts.ids()).toEqual([])
  })

  it("a forwarding target's key that is not text is dropped and told, the other target's kept", async () => {
    fs.writeFileSync(
      path.join(dir, 'config.json'),
      writeIndentedJson({ ...defaultSettings(), forwardingSafeStorageKeys: { 'forward:t1': 'QUJD', 'forward:t2': 5 } })
    )
    const store = await openSettings({ dir, now: () => NOW })
    expect(store.takeNotices()).toEqual([
      expect.stringContaining('were invalid and were dropped or reset to defaults (forwardingSafeStorageKeys);')
    ])
    expect(await store.forwardingCiphertexts.ids()).toEqual(['forward:t1'])
    expect((await openSettings({ dir, now: () => NOW })).takeNotices()).toEqual([])
  })
})
