import { describe, expect, it } from 'vitest'
import type { Settings } from '../../shared/settings'
import {
  addConnection,
  findConnectionByUrl,
  normalizeBaseUrl,
  removeConnection,
  setActiveConnection,
  SettingsEditError,
  setWatchOptions,
  unwatchProject,
  updateConnection,
  watchProject
} from './edit'
import { defaultSettings, settingsSchema } from './schema'

const NOW = new Date('2025-01-02T03:04:05.000Z')

function withTwoConnections() {
  const s = defaultSettings()
  addConnection(s, { baseUrl: 'https://a.example/' }, 'a')
  addConnection(s, { name: ' B ', baseUrl: 'http://localhost:8080/api//', publishingDomain: ' apps.b.example ' }, 'b')
  return s
}

describe('connections', () => {
  it('normalizes URLs and refuses what is not http(s)', () => {
    expect(normalizeBaseUrl(' https://API.example.com/v1/ ')).toBe('https://api.example.com/v1')
    expect(() => normalizeBaseUrl('ftp://x')).toThrow(SettingsEditError)
    expect(() => normalizeBaseUrl('not a url')).toThrow(/must not contain spaces/)
    expect(() => normalizeBaseUrl('api.example.com')).toThrow(/must be a full URL/)
    expect(normalizeBaseUrl('http://127.0.0.1:4010/')).toBe('http://127.0.0.1:4010')
    expect(() => normalizeBaseUrl('http://agents.example.com')).toThrow(
      /must use https: plain http would send the API key in clear text/
    )
    expect(() => normalizeBaseUrl('https://x.example/?key=1')).toThrow(/query/)
    expect(() => normalizeBaseUrl('https://x.example/?key=sk-in-query-1')).not.toThrow(/sk-in-query-1/)
  })

  it('refuses a user name or password in the URL instead of dropping it, without repeating it', () => {
    for (const url of [
      'https://user:pa55-word-9@api.example.com',
      'https://sk-as-user-7@api.example.com/v1',
      'http://:only-pass-3@localhost:8080',
      'ftp://u:ftp-pass-1@x'
    ]) {
      let error: unknown
      try {
        normalizeBaseUrl(url)
      } catch (e) {
        error = e
      }
      expect(error, url).toBeInstanceOf(SettingsEditError)
      const message = (error as Error).message
      expect(message).toMatch(
        /must not carry a user name or password: the API key is kept in the keychain, not in the URL/
      )
      expect(message).not.toMatch(/pa55-word-9|sk-as-user-7|only-pass-3|ftp-pass-1/)
    }
  })

  it('adds connections; the first becomes active; a second account on one service is allowed, a second id is not', () => {
    const s = withTwoConnections()
    expect(s.connections).toEqual([
      { id: 'a', name: 'a.example', baseUrl: 'https://a.example', publishingDomain: '' },
      { id: 'b', name: 'B', baseUrl: 'http://localhost:8080/api', publishingDomain: 'apps.b.example' }
    ])
    expect(s.activeConnectionId).toBe('a')
    expect(addConnection(s, { name: 'A, personal', baseUrl: 'https://a.example' }, 'c')).toMatchObject({
      id: 'c',
      baseUrl: 'https://a.example'
    })
    expect(() => addConnection(s, { baseUrl: 'https://c.example' }, 'a')).toThrow(/id a exists/)
    expect(settingsSchema.safeParse(s).success).toBe(true)
  })

  it('updates, activates and removes a connection with its watched projects', () => {
    const s = withTwoConnections()
    // Another origin needs the key again; the same origin with another path does not.
    expect(() => updateConnection(s, 'b', { baseUrl: 'https://b.example' })).toThrow(/enter the API key again/)
    expect(s.connections[1]?.baseUrl).toBe('http://localhost:8080/api')
    updateConnection(s, 'b', { baseUrl: 'http://localhost:8080/v2' })
    expect(s.connections[1]?.baseUrl).toBe('http://localhost:8080/v2')
    updateConnection(s, 'b', { name: 'Bee', baseUrl: 'https://b.example' }, { keyReplaced: true })
    expect(s.connections[1]).toMatchObject({ name: 'Bee', baseUrl: 'https://b.example' })
    setActiveConnection(s, 'b')
    expect(s.activeConnectionId).toBe('b')
    expect(() => setActiveConnection(s, 'zz')).toThrow(/No connection zz/)
    watchProject(s, 'b', 'p1', NOW)
    s.budgets.b = []
    s.attention.b = {}
    s.connectionNotifications.b = {} as Settings['connectionNotifications'][string]
    expect(removeConnection(s, 'b')).toBe(true)
    // Nothing of it stays behind: its watched projects, budgets, what was seen and its notification settings.
    for (const part of [s.watched, s.budgets, s.attention, s.connectionNotifications]) expect(part.b).toBeUndefined()
    expect(s.activeConnectionId).toBe('a')
    expect(removeConnection(s, 'b')).toBe(false)
    removeConnection(s, 'a')
    expect(s.activeConnectionId).toBeNull()
  })
})

describe('watched projects', () => {
  it('watches once per connection, updating options on a second watch', () => {
    const s = withTwoConnections()
    const p = watchProject(s, 'a', ' p1 ', NOW, { name: 'Shop' })
    expect(p).toEqual({ projectId: 'p1', name: 'Shop', muted: false, addedAt: NOW.toISOString() })
    watchProject(s, 'a', 'p1', new Date(0), { muted: true })
    watchProject(s, 'b', 'p1', NOW)
    expect(s.watched.a).toEqual([{ ...p, muted: true }])
    expect(s.watched.b).toHaveLength(1)
    expect(() => watchProject(s, 'zz', 'p1', NOW)).toThrow(/No connection zz/)
    expect(() => watchProject(s, 'a', '  ', NOW)).toThrow(/project id must not be empty/)
    expect(settingsSchema.safeParse(s).success).toBe(true)
  })

  it('sets options and unwatches', () => {
    const s = withTwoConnections()
    watchProject(s, 'a', 'p1', NOW)
    setWatchOptions(s, 'a', 'p1', { name: 'N' })
    expect(s.watched.a?.[0]).toMatchObject({ name: 'N' })
    expect(() => setWatchOptions(s, 'a', 'p9', { muted: true })).toThrow(/not watched/)
    expect(unwatchProject(s, 'a', 'p1')).toBe(true)
    expect(unwatchProject(s, 'a', 'p1')).toBe(false)
    expect(unwatchProject(s, 'zz', 'p1')).toBe(false)
  })
})

describe('finding a connection', () => {
  it('by base URL as stored, trailing slashes aside', () => {
    const s = withTwoConnections()
    expect(findConnectionByUrl(s, 'http://localhost:8080/api/')?.id).toBe('b')
    expect(findConnectionByUrl(s, 'https://a.example')?.id).toBe('a')
    expect(findConnectionByUrl(s, 'https://elsewhere.example')).toBeUndefined()
    expect(findConnectionByUrl(s, 'not a url')).toBeUndefined()
  })
})

describe('what an edit keeps and what goes with it', () => {
  it('a new connection keeps projects already filed under its id, and does not take over the active one', () => {
    const s = withTwoConnections()
    s.watched.c = [{ projectId: 'p1', name: '', muted: false, addedAt: NOW.toISOString() }]
    const c = addConnection(s, { name: '   ', baseUrl: 'https://c.example/' }, 'c')
    expect(c).toEqual({ id: 'c', name: 'c.example', baseUrl: 'https://c.example', publishingDomain: '' })
    expect(s.watched.c).toHaveLength(1)
    expect(s.activeConnectionId).toBe('a')
  })

  it('an update with a blank name keeps the name; a domain is trimmed, and may be emptied', () => {
    const s = withTwoConnections()
    updateConnection(s, 'b', { name: '  ' })
    expect(s.connections[1]?.name).toBe('B')
    updateConnection(s, 'b', { name: ' Bee ', publishingDomain: ' apps.bee.example ' })
    expect(s.connections[1]).toMatchObject({ name: 'Bee', publishingDomain: 'apps.bee.example' })
    updateConnection(s, 'b', { publishingDomain: '' })
    expect(s.connections[1]?.publishingDomain).toBe('')
    // Changing nothing of the address keeps it, key or not.
    updateConnection(s, 'b', {})
    expect(s.connections[1]?.baseUrl).toBe('http://localhost:8080/api')
    expect(() => updateConnection(s, 'zz', { name: 'x' })).toThrow(new SettingsEditError('No connection zz'))
  })

  it('removing a connection removes its budgets; the active one moves to the first left, or stays where it was', () => {
    const s = withTwoConnections()
    s.budgets.a = [{ id: 'x', projectId: null, period: 'day', limitUsd: 1, warnRatio: 0.8 }]
    s.budgets.b = [{ id: 'y', projectId: null, period: 'day', limitUsd: 1, warnRatio: 0.8 }]
    removeConnection(s, 'b')
    expect(s.budgets).toEqual({ a: [{ id: 'x', projectId: null, period: 'day', limitUsd: 1, warnRatio: 0.8 }] })
    expect(s.activeConnectionId).toBe('a')
    addConnection(s, { baseUrl: 'https://c.example' }, 'c')
    addConnection(s, { baseUrl: 'https://d.example' }, 'd')
    setActiveConnection(s, 'd')
    removeConnection(s, 'a')
    expect(s.activeConnectionId).toBe('d')
    expect(s.budgets).toEqual({})
  })

  it("unwatching a project removes its budgets, keeping the account's and other projects'", () => {
    const s = withTwoConnections()
    watchProject(s, 'a', 'p1', NOW)
    watchProject(s, 'a', 'p2', NOW)
    const budget = (id: string, projectId: string | null) => ({
      id,
      projectId,
      period: 'total' as const,
      limitUsd: 1,
      warnRatio: 0.8
    })
    s.budgets.a = [budget('1', 'p1'), budget('2', null), budget('3', 'p2')]
    expect(unwatchProject(s, 'a', 'p1')).toBe(true)
    expect(s.watched.a?.map((p) => p.projectId)).toEqual(['p2'])
    expect(s.budgets.a).toEqual([budget('2', null), budget('3', 'p2')])
    // An account without budgets gets no empty list.
    watchProject(s, 'b', 'p1', NOW)
    unwatchProject(s, 'b', 'p1')
    expect(s.budgets.b).toBeUndefined()
  })

  it('watching again or setting options changes only what is given', () => {
    const s = withTwoConnections()
    watchProject(s, 'a', 'p1', NOW, { name: 'Shop', muted: true })
    expect(watchProject(s, 'a', 'p1', NOW)).toMatchObject({ name: 'Shop', muted: true })
    expect(setWatchOptions(s, 'a', 'p1', { muted: false })).toMatchObject({ name: 'Shop', muted: false })
    expect(setWatchOptions(s, 'a', 'p1', { name: '' })).toMatchObject({ name: '', muted: false })
    expect(() => setWatchOptions(s, 'b', 'p1', {})).toThrow(new SettingsEditError('Project p1 is not watched'))
    expect(() => setWatchOptions(s, 'zz', 'p1', {})).toThrow(new SettingsEditError('Project p1 is not watched'))
    // A connection whose list is missing (a hand edit) gets one.
    delete s.watched.b
    expect(watchProject(s, 'b', 'p2', NOW)).toEqual({
      projectId: 'p2',
      name: '',
      muted: false,
      addedAt: NOW.toISOString()
    })
    expect(s.watched.b).toEqual([{ projectId: 'p2', name: '', muted: false, addedAt: NOW.toISOString() }])
  })
})

describe('errors', () => {
  it('say their kind when printed or logged', () => {
    expect(() => setActiveConnection(defaultSettings(), 'zz')).toThrow(
      expect.objectContaining({ name: 'SettingsEditError' }) as Error
    )
    expect(String(new SettingsEditError('No connection zz'))).toBe('SettingsEditError: No connection zz')
  })
})
