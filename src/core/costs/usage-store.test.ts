// The usage store's rules on tasks and records made here (the service test, usage-store.service.test.ts,
// runs them against the reference service): what is kept, when it is current, what it remembers
// of listed tasks, and its file.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CostUsage } from '../../shared/cost'
import { BACKGROUND_WINDOW_MS } from './background-window'
import { compactUsage, USAGE_CACHE_FILE } from './usage-cache-document'
import {
  LISTED_SWEEP_MS,
  MAX_OFFERS,
  openUsageStore,
  type UsageStore,
  type UsageStoreOptions,
  type UsageTask
} from './usage-store'

const T0 = Date.parse('2026-11-27T12:00:00.000Z')
const MINUTE = 60_000
let clock = T0
const dirs: string[] = []
const stores: UsageStore[] = []

afterEach(async () => {
  for (const s of stores.splice(0)) await s.flush()
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
  clock = T0
})

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'usage-store-unit-'))
  dirs.push(dir)
  return dir
}

async function open(dir: string, options: Partial<UsageStoreOptions> = {}) {
  const notices: string[] = []
  const store = await openUsageStore({ dir, now: () => new Date(clock), onNotice: (n) => notices.push(n), ...options })
  stores.push(store)
  return { store, notices }
}

const at = (ms: number): string => new Date(ms).toISOString()

function task(id: string, status: UsageTask['status'], updatedMs: number, total: number | null): UsageTask {
  return { id, project_id: 'p1', status, updated_at: at(updatedMs), total_price: total }
}

function record(price: number): CostUsage {
  return {
    provider: 'openai',
    model: 'gpt-5',
    final_price: price,
    created_at: at(T0 - 10 * MINUTE),
    usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 }
  }
}

describe('the usage store’s file', () => {
  it('is not written when opened, and holds the compact records once a put is flushed', async () => {
    const dir = tempDir()
    // The system clock: the store's default.
    const store = await openUsageStore({ dir })
    stores.push(store)
    expect(store.path).toBe(path.join(dir, USAGE_CACHE_FILE))
    expect(fs.existsSync(store.path)).toBe(false)
    const full = { ...record(0.5), request_data: { prompt: 'long' } } as CostUsage
    const before = Date.now()
    store.put('c1', task('t1', 'completed', T0, 0.5), [full])
    await store.flush()
    const onDisk = JSON.parse(fs.readFileSync(store.path, 'utf8'))
    expect(onDisk.tasks.c1.t1).toMatchObject({
      projectId: 'p1',
      status: 'completed',
      updatedAt: at(T0),
      totalPrice: 0.5,
      usages: [compactUsage(full)]
    })
    expect(Date.parse(onDisk.tasks.c1.t1.fetchedAt)).toBeGreaterThanOrEqual(before)
  })

  it('keeps records in memory only when its file cannot be used, and says so once', async () => {
    const dir = tempDir()
    fs.mkdirSync(path.join(dir, USAGE_CACHE_FILE))
    const { store, notices } = await open(dir)
    expect(notices).toEqual([expect.stringMatching(/^Usage records are kept in memory only: .*usage-cache\.json/)])
    const t = task('t1', 'in_progress', T0, 0.5)
    store.put('c1', t, [record(0.5)])
    await store.flush()
    expect(store.usages('c1', 't1')).toEqual([record(0.5)])
    expect(store.isCurrent('c1', t)).toBe(true)
    expect(notices).toHaveLength(1)
  })

  it('keeps records in memory only when its directory cannot be made, and names the file it could not read', async () => {
    const parent = tempDir()
    const dir = path.join(parent, 'settings')
    fs.symlinkSync(path.join(parent, 'missing', 'deeper'), dir)
    const { store, notices } = await open(dir)
    expect(notices).toEqual([
      expect.stringMatching(
        new RegExp(`^Usage records are kept in memory only: Cannot read ${path.join(dir, USAGE_CACHE_FILE)}: `)
      )
    ])
    store.put('c1', task('t1', 'completed', T0, 1), [record(1)])
    expect(store.usages('c1', 't1')).toEqual([record(1)])
  })

  it('tells a write that failed, and still knows the records it could not write', async () => {
    const dir = tempDir()
    const { store, notices } = await open(dir)
    fs.mkdirSync(store.path)
    store.put('c1', task('t1', 'completed', T0, 0.5), [record(0.5)])
    await store.flush()
    expect(notices).toEqual([expect.stringMatching(/^Could not save usage records: .*usage-cache\.json/)])
    expect(store.usages('c1', 't1')).toEqual([record(0.5)])
  })

  it('knows the records put while the file is being written', async () => {
    const dir = tempDir()
    const seen: { notice: string; usages: unknown }[] = []
    const opened: { store?: UsageStore } = {}
    const { store } = await open(dir, {
      onNotice: (notice) => seen.push({ notice, usages: opened.store?.usages('c1', 'b') })
    })
    opened.store = store
    // Damage found by the first write is told as soon as that write is done, before the next one.
    fs.writeFileSync(store.path, 'damaged')
    store.put('c1', task('a', 'completed', T0, 1), [record(1)])
    store.put('c1', task('b', 'completed', T0, 2), [record(2)])
    await store.flush()
    expect(seen).toEqual([{ notice: expect.stringMatching(/was damaged \(not-json\)/), usages: [record(2)] }])
    const reopened = await open(dir)
    expect(reopened.notices).toEqual([])
    expect(reopened.store.usages('c1', 'a')).toEqual([record(1)])
    expect(reopened.store.usages('c1', 'b')).toEqual([record(2)])
  })

  it('keeps a newer version’s file aside and starts its own, which the next start reads without a word', async () => {
    const dir = tempDir()
    fs.writeFileSync(
      path.join(dir, USAGE_CACHE_FILE),
      JSON.stringify({ version: 2, tasks: { c1: { t1: 'their layout' } } })
    )
    const first = await open(dir)
    expect(first.notices).toEqual([expect.stringMatching(/was damaged \(newer-version\)/)])
    expect(fs.readdirSync(dir).filter((f) => f.startsWith(`${USAGE_CACHE_FILE}.newer-`))).toHaveLength(1)
    expect(JSON.parse(fs.readFileSync(path.join(dir, USAGE_CACHE_FILE), 'utf8'))).toEqual({ version: 1, tasks: {} })
    expect((await open(dir)).notices).toEqual([])
  })

  it('rebuilds a file that is no JSON at once: the next start finds it whole', async () => {
    const dir = tempDir()
    fs.writeFileSync(path.join(dir, USAGE_CACHE_FILE), 'garbage')
    const first = await open(dir)
    expect(first.notices).toEqual([expect.stringMatching(/was damaged \(not-json\) and was rebuilt.*fetched again/)])
    expect(fs.readdirSync(dir).filter((f) => f.startsWith(`${USAGE_CACHE_FILE}.corrupt-`))).toHaveLength(1)
    const t = task('t1', 'completed', T0, 1)
    first.store.put('c1', t, [record(1)])
    expect(first.store.isCurrent('c1', t)).toBe(true)
    expect((await open(dir)).notices).toEqual([])
  })
})

describe('which records are current', () => {
  it('keeps an ended task’s records for good: a fetch from an older list does not replace them', async () => {
    const dir = tempDir()
    const { store } = await open(dir)
    const running = task('t1', 'in_progress', T0 - 5 * MINUTE, 0.5)
    const ended = task('t1', 'completed', T0, 1)
    store.put('c1', ended, [record(0.5), record(0.5)])
    store.put('c1', running, [record(0.5)])
    expect(store.usages('c1', 't1')).toEqual([record(0.5), record(0.5)])
    // They are all the task's records, whichever list asks.
    expect(store.isCurrent('c1', ended)).toBe(true)
    expect(store.isCurrent('c1', running)).toBe(true)
    await store.flush()
    expect((await open(dir)).store.usages('c1', 't1')).toHaveLength(2)
  })

  it('holds an active task’s records current only while its updated_at and total_price are unchanged', async () => {
    const dir = tempDir()
    const { store } = await open(dir)
    const t = task('t1', 'in_progress', T0, 0.5)
    expect(store.isCurrent('c1', t)).toBe(false)
    store.put('c1', t, [record(0.5)])
    expect(store.isCurrent('c1', t)).toBe(true)
    expect(store.isCurrent('c2', t)).toBe(false)
    expect(store.isCurrent('c1', { ...t, updated_at: at(T0 + MINUTE) })).toBe(false)
    expect(store.isCurrent('c1', { ...t, total_price: 0.75 })).toBe(false)
    expect(store.isCurrent('c1', { ...t, total_price: null })).toBe(false)
    const unpriced = task('t2', 'todo', T0, null)
    store.put('c1', unpriced, [])
    expect(store.isCurrent('c1', unpriced)).toBe(true)
    expect(store.isCurrent('c1', { ...unpriced, total_price: 0 })).toBe(false)
    await store.flush()
    const reopened = (await open(dir)).store
    expect(reopened.isCurrent('c1', t)).toBe(true)
    expect(reopened.isCurrent('c1', unpriced)).toBe(true)
  })

  it('does not replace the ended task’s records another process kept with ones fetched while it ran', async () => {
    const dir = tempDir()
    const first = (await open(dir)).store
    const second = (await open(dir)).store
    first.put('c1', task('t1', 'completed', T0, 1), [record(0.5), record(0.5)])
    await first.flush()
    second.put('c1', task('t1', 'in_progress', T0 - MINUTE, 0.5), [record(0.5)])
    await second.flush()
    expect(second.usages('c1', 't1')).toHaveLength(2)
    expect((await open(dir)).store.usages('c1', 't1')).toHaveLength(2)
  })

  it('keeps the most recently updated tasks of all connections within the bound, at once', async () => {
    const { store } = await open(tempDir(), { maxTasks: 3 })
    const minutes = [1, 9, 3, 2, 8, 4, 7, 5, 6]
    minutes.forEach((m, i) =>
      store.put(i % 2 === 0 ? 'c1' : 'c2', task(`t${m}`, 'completed', T0 + m * MINUTE, 1), [record(1)])
    )
    const kept = (c: string) => minutes.filter((m) => store.usages(c, `t${m}`) !== undefined).sort()
    expect([...kept('c1'), ...kept('c2')].sort()).toEqual([7, 8, 9])
  })
})

describe('records the monitor fetched anyway', () => {
  it('keeps records offered before the task is listed once the list shows they account for it', async () => {
    const { store } = await open(tempDir())
    const t = task('t1', 'in_progress', T0, 1)
    store.offerDetails('c1', 't1', [record(0.25), record(0.75)])
    expect(store.usages('c1', 't1')).toBeUndefined()
    store.noteTasks('c1', [t])
    expect(store.isCurrent('c1', t)).toBe(true)
    expect(store.usages('c1', 't1')).toEqual([record(0.25), record(0.75)])
  })

  it('keeps records that differ from the total by rounding only', async () => {
    const { store } = await open(tempDir())
    const t = task('t1', 'in_progress', T0, 1.000001)
    store.noteTasks('c1', [t])
    store.offerDetails('c1', 't1', [record(0.5), record(0.5)])
    expect(store.isCurrent('c1', t)).toBe(true)
  })

  it('does not keep records that do not account for the task’s total, or for a task without one', async () => {
    const { store } = await open(tempDir())
    const short = task('t1', 'in_progress', T0, 1)
    store.noteTasks('c1', [short])
    store.offerDetails('c1', 't1', [record(0.5)])
    const unpriced = task('t2', 'in_progress', T0, null)
    store.offerDetails('c2', 't2', [])
    store.noteTasks('c2', [unpriced])
    store.offerDetails('c2', 't2', [record(0)])
    expect(store.usages('c1', 't1')).toBeUndefined()
    expect(store.usages('c2', 't2')).toBeUndefined()
  })

  it('gives a task listed with a total of $0 no records when none were offered', async () => {
    const { store } = await open(tempDir())
    const free = task('t1', 'in_progress', T0, 0)
    store.noteTasks('c1', [free])
    expect(store.usages('c1', 't1')).toBeUndefined()
    expect(store.isCurrent('c1', free)).toBe(false)
  })

  it('lets offers for tasks never listed wait, up to a bound: the first offered go first', async () => {
    const { store } = await open(tempDir())
    for (let i = 0; i <= MAX_OFFERS; i++) store.offerDetails('c1', `t${i}`, [record(1)])
    expect(store.usages('c1', 't0')).toBeUndefined()
    const listed = [0, 1, MAX_OFFERS].map((i) => task(`t${i}`, 'in_progress', T0, 1))
    store.noteTasks('c1', listed)
    expect(listed.map((t) => store.isCurrent('c1', t))).toEqual([false, true, true])
  })
})

describe('the listed tasks it remembers', () => {
  it('remembers recent tasks whose records are not kept for good, not older or ended ones', async () => {
    const { store } = await open(tempDir())
    const ended = task('ended', 'completed', T0, 1)
    store.put('c1', ended, [record(1)])
    store.noteTasks('c1', [
      ended,
      task('old', 'in_progress', T0 - BACKGROUND_WINDOW_MS - 1, 1),
      task('recent', 'in_progress', T0, 1)
    ])
    expect(store.listedCount).toBe(1)
    // Listed on another connection, the same task id is another task.
    store.noteTasks('c2', [task('recent', 'in_progress', T0, 1)])
    expect(store.listedCount).toBe(2)
    // Once its records are kept for good it is forgotten.
    store.put('c1', task('recent', 'completed', T0 + MINUTE, 1), [record(1)])
    expect(store.listedCount).toBe(1)
  })

  it('forgets a task no longer listed within the hour after it leaves the window, and no other', async () => {
    const { store } = await open(tempDir())
    const leaving = task('leaving', 'in_progress', T0 - BACKGROUND_WINDOW_MS + 30 * MINUTE, 1)
    const other = task('other', 'in_progress', T0, 1)
    store.noteTasks('c1', [leaving, other])
    expect(store.listedCount).toBe(2)
    clock = T0 + 45 * MINUTE
    store.noteTasks('c1', [task('b', 'in_progress', clock, 1)])
    // It left the window a quarter of an hour ago; the hourly sweep is not due yet.
    expect(store.listedCount).toBe(3)
    clock = T0 + LISTED_SWEEP_MS
    store.noteTasks('c1', [task('b', 'in_progress', clock, 1)])
    expect(store.listedCount).toBe(2)
    // What the monitor fetches of a remembered task after its list is still kept for it.
    store.offerDetails('c1', 'other', [record(1)])
    expect(store.isCurrent('c1', other)).toBe(true)
  })
})
