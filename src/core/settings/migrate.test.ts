// The settings file's migrations, rule by rule, on the JSON as read (the store's tests load whole
// files of each version end to end).
import { describe, expect, it } from 'vitest'
import { DEFAULT_WARN_RATIO } from '../../shared/budgets'
import { migrate, MIGRATED_CONNECTION_ID, versionOf } from './migrate'
import { defaultSettings, SETTINGS_VERSION } from './schema'

const NOW = new Date('2025-01-02T03:04:05.000Z')
const watched = (projectId: string) => ({ projectId, name: '', muted: false, addedAt: NOW.toISOString() })

describe('versionOf', () => {
  it('a whole version number is the version', () => {
    expect(versionOf({ version: 1, apiBaseUrl: 'https://a.example' })).toBe(1)
    expect(versionOf({ version: 1 })).toBe(1)
    expect(versionOf({ version: 2, watched: {} })).toBe(2)
    expect(versionOf({ version: 3 })).toBe(3)
    expect(versionOf({ version: 7, connections: [] })).toBe(7)
  })

  it('without a usable one, the keys decide: v1 keys make it v1, anything else is current', () => {
    for (const version of [undefined, 0, -1, 2.5, '2', null]) {
      expect(versionOf({ version, apiBaseUrl: 'https://a.example' })).toBe(1)
      expect(versionOf({ version, watchedProjects: [] })).toBe(1)
      expect(versionOf({ version, watched: {} })).toBe(SETTINGS_VERSION)
      expect(versionOf({ version })).toBe(SETTINGS_VERSION)
    }
  })

  it('"version 1" with only later keys is a damaged later file; with v1 keys too, it is v1', () => {
    expect(versionOf({ version: 1, connections: [] })).toBe(SETTINGS_VERSION)
    expect(versionOf({ version: 1, watched: {} })).toBe(SETTINGS_VERSION)
    expect(versionOf({ version: 1, connections: [], watchedProjects: ['p1'] })).toBe(1)
    expect(versionOf({ version: 1, watched: {}, apiBaseUrl: 'https://a.example' })).toBe(1)
  })
})

describe('version 1 → current', () => {
  it('the one service becomes the connection "default" with its projects; every v1 setting is kept', () => {
    const { doc, from } = migrate(
      {
        version: 1,
        apiBaseUrl: 'https://API.example.com/',
        publishingDomain: 'apps.example.com',
        watchedProjects: [' p1 ', 'p2', '', '  ', 7],
        pollIntervalMs: 2000,
        notifyOnComplete: false,
        notifyOnFailure: false,
        theme: 'light',
        launchAtLogin: true
      },
      NOW
    )
    expect(from).toBe(1)
    const d = defaultSettings()
    expect(doc).toEqual({
      ...d,
      version: SETTINGS_VERSION,
      theme: 'light',
      launchAtLogin: true,
      activeConnectionId: MIGRATED_CONNECTION_ID,
      connections: [
        {
          id: 'default',
          name: 'api.example.com',
          baseUrl: 'https://api.example.com',
          publishingDomain: 'apps.example.com'
        }
      ],
      watched: { default: [watched('p1'), watched('p2')] },
      polling: { ...d.polling, activeIntervalMs: 2000 },
      notifications: {
        ...d.notifications,
        transitions: { ...d.notifications.transitions, completed: false, failed: false }
      }
    })
  })

  it('without a service there is no connection; without a list, no projects', () => {
    const { doc } = migrate({ version: 1, watchedProjects: 'p1', pollIntervalMs: 'fast', notifyOnComplete: 'no' }, NOW)
    const d = defaultSettings()
    expect(doc).toEqual({ ...d, activeConnectionId: null, connections: [], watched: {} })
    // Projects with no service are still kept (under the connection id they would have).
    expect(migrate({ version: 1, apiBaseUrl: '', watchedProjects: ['p1'] }, NOW).doc).toMatchObject({
      connections: [],
      activeConnectionId: null,
      watched: { default: [watched('p1')] }
    })
  })

  it('a service address the rule refuses is kept as given, for the schema to refuse and tell', () => {
    const { doc } = migrate({ version: 1, apiBaseUrl: 'ftp://old.example', watchedProjects: [] }, NOW)
    expect(doc.connections).toEqual([
      { id: 'default', name: expect.any(String) as string, baseUrl: 'ftp://old.example', publishingDomain: '' }
    ])
  })
})

describe('version 2 → 3: a project budget becomes a total budget', () => {
  it("each project's budgetUsd moves to its connection's budgets; the budgets already there stay, first", () => {
    const existing = { id: 'b1', projectId: null, period: 'month', limitUsd: 100, warnRatio: 0.5 }
    const { doc, from } = migrate(
      {
        version: 2,
        watched: {
          c1: [
            { projectId: 'p1', name: 'Shop', budgetUsd: 25 },
            { projectId: 'p2', budgetUsd: null },
            { projectId: 'p3' }
          ],
          c2: [{ projectId: 'p4', budgetUsd: 0 }]
        },
        budgets: { c1: [existing] }
      },
      NOW
    )
    expect(from).toBe(2)
    expect(doc).toEqual({
      version: 3,
      watched: {
        c1: [{ projectId: 'p1', name: 'Shop' }, { projectId: 'p2' }, { projectId: 'p3' }],
        c2: [{ projectId: 'p4' }]
      },
      budgets: {
        c1: [
          existing,
          { id: 'total-p1', projectId: 'p1', period: 'total', limitUsd: 25, warnRatio: DEFAULT_WARN_RATIO }
        ],
        c2: [{ id: 'total-p4', projectId: 'p4', period: 'total', limitUsd: 0, warnRatio: DEFAULT_WARN_RATIO }]
      }
    })
  })

  it('what is not a project list or a project is left for the schema; an id that is not text gives no budget', () => {
    const { doc } = migrate(
      {
        version: 2,
        watched: { c1: 'x', c2: [17, null, { projectId: 5, budgetUsd: 3 }, { projectId: 'p1', budgetUsd: 'lots' }] },
        budgets: { c1: 'x', c2: [] }
      },
      NOW
    )
    expect(doc).toEqual({
      version: 3,
      watched: { c1: 'x', c2: [17, null, { projectId: 5 }, { projectId: 'p1' }] },
      // The amount the schema refuses is moved as it is: the schema then drops that budget, and says so.
      budgets: {
        c2: [{ id: 'total-p1', projectId: 'p1', period: 'total', limitUsd: 'lots', warnRatio: DEFAULT_WARN_RATIO }]
      }
    })
  })

  it('a file taken as current (no version, or a damaged one) keeps its v2 budgets too', () => {
    for (const version of [undefined, 'x', 3]) {
      const { doc, from } = migrate({ version, watched: { c1: [{ projectId: 'p1', budgetUsd: 9 }] } }, NOW)
      expect(from).toBe(SETTINGS_VERSION)
      expect(doc.watched).toEqual({ c1: [{ projectId: 'p1' }] })
      expect(doc.budgets).toEqual({
        c1: [{ id: 'total-p1', projectId: 'p1', period: 'total', limitUsd: 9, warnRatio: DEFAULT_WARN_RATIO }]
      })
    }
    // Nothing to move: as it was.
    for (const current of [
      { version: 3, watched: { c1: [{ projectId: 'p1' }] }, budgets: { c1: [] } },
      { version: 3, watched: { c1: [{ projectId: 'p1' }] } }
    ]) {
      expect(migrate(structuredClone(current), NOW)).toEqual({ doc: current, from: 3 })
    }
    // A v2 file with no budget anywhere gains no budgets either (the schema gives the default).
    expect(migrate({ version: 2, watched: { c1: [{ projectId: 'p1' }, null] } }, NOW)).toEqual({
      doc: { version: 3, watched: { c1: [{ projectId: 'p1' }, null] } },
      from: 2
    })
  })

  it('a newer version is left as it is, for the caller', () => {
    const newer = { version: 9, watched: { c1: [{ projectId: 'p1', budgetUsd: 9 }] }, somethingNew: true }
    expect(migrate(structuredClone(newer), NOW)).toEqual({ doc: newer, from: 9 })
  })
})
