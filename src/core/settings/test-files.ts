// For tests: real settings files, written by the store itself (connections, watched projects with
// awkward names, preferences, keys, and last seen state per project).
import fs from 'node:fs'
import path from 'node:path'
import type { FullProjectSnapshot, ProjectSnapshot } from '../../shared/monitor'
import type { Settings } from '../../shared/settings'
import { compactSnapshot } from '../monitor/diff'
import { addConnection, watchProject } from './edit'
import { openSettings } from './store'

export const FIXTURE_NOW = new Date('2025-03-04T05:06:07.089Z')

/** Names a damaged byte could turn into structure: brackets, quotes, escapes, commas, non-ASCII. */
const NAMES = ['Shop', 'a {brace}', 'list [1, 2]', 'say "hi"', 'back\\slash', 'comma, colon: x', 'Ünïcödé ✓', '']

export interface Fixture {
  settings: Settings
  safeStorageKeys: Record<string, string>
  lastSeen: Record<string, Record<string, ProjectSnapshot>>
  config: Buffer
  state: Buffer
}

function snapshotOf(projectId: string, n: number): ProjectSnapshot {
  const full: FullProjectSnapshot = { polledAt: FIXTURE_NOW.toISOString(), tasks: {} }
  for (let t = 0; t < 3; t++) {
    full.tasks[`task-${projectId}-${t}`] = {
      status: (['in_progress', 'completed', 'failed'] as const)[(n + t) % 3]!,
      name: NAMES[(n + t) % NAMES.length]!,
      updatedAt: FIXTURE_NOW.toISOString(),
      totalPrice: t === 1 ? null : 0.125 * (n + t + 1),
      steps: Object.fromEntries(
        [0, 1, 2].map((s) => [`step-${projectId}-${t}-${s}`, s < t ? 'completed' : 'in_progress'])
      )
    }
  }
  // Both forms are stored in practice: compact from the monitor, full from the previous build.
  return n % 2 === 0 ? compactSnapshot(full) : full
}

/** Writes a real config.json and state.json into `dir` through the store, and returns them. */
export async function writeFixture(dir: string): Promise<Fixture> {
  const store = await openSettings({ dir, now: () => FIXTURE_NOW })
  const connections = [
    { id: 'conn-work', name: 'Work', baseUrl: 'https://api.work.example', publishingDomain: 'apps.work.example' },
    { id: 'conn-home', name: 'Home "lab"', baseUrl: 'http://127.0.0.1:4010' },
    { id: 'conn-uni', name: 'Ünï ✓', baseUrl: 'https://agents.example.org/v1' }
  ]
  await store.update((draft) => {
    for (const c of connections) addConnection(draft, c, c.id)
    let n = 0
    for (const c of connections) {
      for (let p = 0; p < 4; p++, n++) {
        watchProject(draft, c.id, `proj-${c.id}-${p}`, FIXTURE_NOW, {
          name: NAMES[n % NAMES.length]!,
          ...(n % 3 === 0 ? { budgetUsd: n + 0.5 } : {}),
          ...(n % 4 === 1 ? { muted: true } : {})
        })
      }
    }
    draft.activeConnectionId = 'conn-home'
    draft.theme = 'dark'
    draft.polling.activeIntervalMs = 3000
    draft.notifications.quietHours = { enabled: true, start: '21:30', end: '06:45' }
    draft.window = { x: 10, y: 20, width: 500, height: 700, maximized: false }
    draft.attention = {
      'conn-work': {
        'proj-conn-work-1': {
          acknowledgedAt: null,
          failedTaskIds: ['t9', 't10'],
          budgetCrossed: true,
          completedTaskIds: [],
          tasks: {
            t9: { name: 'Nine', at: '2026-01-01T00:00:00.000Z' },
            t10: { name: 'Ten', at: '2026-01-01T00:00:00.000Z' }
          },
          budgetCrossedAt: '2026-01-01T00:00:00.000Z'
        }
      }
    }
  })
  await store.ciphertexts.set('conn-work', 'Y2lwaGVydGV4dC13b3Jr')
  await store.ciphertexts.set('conn-uni', 'Y2lwaGVydGV4dC11bmk=')
  let n = 0
  for (const c of connections) {
    const snapshots: Record<string, ProjectSnapshot> = {}
    for (let p = 0; p < 3; p++, n++) snapshots[`proj-${c.id}-${p}`] = snapshotOf(`${c.id}-${p}`, n)
    await store.writeLastSeen(c.id, snapshots)
  }
  await store.setBudgetNotified('conn-work', 'proj-conn-work-0', 0.5)
  const reopened = await openSettings({ dir, now: () => FIXTURE_NOW })
  const configPath = path.join(dir, 'config.json')
  const safeStorageKeys = (
    JSON.parse(fs.readFileSync(configPath, 'utf8')) as { safeStorageKeys: Record<string, string> }
  ).safeStorageKeys
  return {
    settings: reopened.read(),
    safeStorageKeys,
    lastSeen: reopened.readLastSeen(),
    config: fs.readFileSync(configPath),
    state: fs.readFileSync(path.join(dir, 'state.json'))
  }
}
