// Forwarding's wiring with a fake fetch and key store: what it learns and sends, the test message,
// a target removed while its entry was read, the file's lock, and the errors it passes on.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ForwardTarget } from '../../shared/forward-target'
import { ManualClock } from '../util/clock'
import { createForwarding, type ForwardingDeps, NOT_IN_KEY_STORE } from './forwarding'
import { memoryOutboxStorage, OUTBOX_FILE } from './outbox-file'
import { FORWARDING_ELSEWHERE_APP, lockOutbox } from './outbox-lock'
import { NAMES, taskEnded } from './test-events'

const TARGET: ForwardTarget = {
  id: 'f1',
  name: 'hook',
  kind: 'webhook',
  host: 'h.example',
  on: ['failed'],
  when: 'always',
  paused: false,
  quietHours: false
}
const URL_ = 'https://h.example/hook/abcdefghijklmnopqrst'
const cleanup: Array<() => unknown> = []
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn()
})

function open(
  extra: Partial<ForwardingDeps> = {},
  entry: Record<string, unknown> | null = { url: URL_, secret: 'the-secret-0123456' }
) {
  const settings = { forwarding: { targets: [TARGET] }, watched: {}, connectionNotifications: {} }
  const seen = {
    learnt: [] as string[][],
    requests: [] as Array<{ url: string; headers: Record<string, string> }>,
    changes: 0,
    giveUps: [] as string[],
    reads: 0
  }
  const storage = memoryOutboxStorage()
  const clock = new ManualClock(Date.UTC(2026, 10, 27, 9))
  const forwarding = createForwarding({
    storage,
    clock,
    secrets: { get: () => (seen.reads++, Promise.resolve(entry === null ? null : JSON.stringify(entry))) },
    settings: () => settings,
    names: NAMES,
    moment: () => ({ away: true, quiet: false }),
    learnSecrets: (s) => void seen.learnt.push([...s]),
    onGiveUp: (id, reason) => void seen.giveUps.push(`${id} ${reason}`),
    onChange: () => void seen.changes++,
    fetch: ((url: string, init: RequestInit) => {
      seen.requests.push({ url, headers: init.headers as Record<string, string> })
      return Promise.resolve(new Response('', { status: 200 }))
    }) as unknown as typeof globalThis.fetch,
    ...extra
  })
  cleanup.push(() => forwarding.dispose())
  return { forwarding, seen, settings, storage, clock }
}

describe('forwarding', () => {
  it('reads the entry when it sends: the secrets learnt first, the request signed with its secret', async () => {
    const { forwarding, seen } = open()
    await expect(forwarding.ready).resolves.toEqual({ held: true })
    forwarding.forward('c1', [taskEnded('t1')])
    await forwarding.idle()
    expect(seen.learnt).toEqual([expect.arrayContaining([URL_, 'the-secret-0123456'])])
    expect(seen.requests).toHaveLength(1)
    expect(seen.requests[0]!.url).toBe(URL_)
    expect(seen.requests[0]!.headers['x-agent-tray-signature']).toMatch(/^t=\d+,v1=/)
    expect(forwarding.status('f1')).toMatchObject({ pending: 0, lastDeliveredAt: Date.UTC(2026, 10, 27, 9) })
    expect(seen.changes).toBeGreaterThan(0)
  })

  it('an entry without a secret sends unsigned', async () => {
    const { forwarding, seen } = open({}, { url: URL_ })
    forwarding.forward('c1', [taskEnded('t1')])
    await forwarding.idle()
    expect(seen.requests[0]!.headers).not.toHaveProperty('x-agent-tray-signature')
  })

  it('the test message: sent outside the queue, its outcome the last delivery; none when the entry is gone', async () => {
    const { forwarding, seen } = open()
    await expect(forwarding.test('f1')).resolves.toEqual({ kind: 'delivered' })
    expect(seen.requests[0]!.headers['x-agent-tray-event']).toBe('test')
    expect(forwarding.status('f1')).toEqual({ pending: 0, lastDeliveredAt: Date.UTC(2026, 10, 27, 9) })
    const gone = open({}, null)
    await expect(gone.forwarding.test('f1')).resolves.toEqual({ kind: 'refused', reason: NOT_IN_KEY_STORE })
    expect(gone.forwarding.status('f1')).toMatchObject({ lastError: NOT_IN_KEY_STORE })
    expect(gone.seen.learnt).toEqual([])
  })

  it('a target whose entry is gone gives its events up, said once', async () => {
    const { forwarding, seen } = open({}, null)
    forwarding.forward('c1', [taskEnded('t1')])
    await forwarding.idle()
    expect(seen.giveUps).toEqual([`f1 ${NOT_IN_KEY_STORE}`])
  })

  it('a target removed while its entry was read gets nothing', async () => {
    let removeNow = () => {}
    const { forwarding, seen, settings, storage } = open({
      secrets: { get: () => (removeNow(), Promise.resolve(JSON.stringify({ url: URL_ }))) }
    })
    removeNow = () => (settings.forwarding.targets = [])
    forwarding.forward('c1', [taskEnded('t1')])
    await forwarding.idle()
    expect(seen.requests).toEqual([])
    expect(storage.doc.pending).toEqual([])
  })

  it('forget drops a target at once; status prunes what left the settings', async () => {
    const { forwarding, settings, storage } = open({
      fetch: (() => Promise.resolve(new Response('', { status: 500 }))) as unknown as typeof globalThis.fetch,
      random: () => 0
    })
    forwarding.forward('c1', [taskEnded('t1')])
    await forwarding.idle()
    expect(forwarding.status('f1')).toMatchObject({ pending: 1, lastError: 'HTTP 500' })
    forwarding.forget('f1')
    expect(storage.doc.pending).toEqual([])
    forwarding.forward('c1', [taskEnded('t2')])
    await forwarding.idle()
    settings.forwarding.targets = []
    expect(forwarding.status('f1')).toEqual({ pending: 0 })
  })

  it('needs a file or a storage', () => {
    expect(() => open({ storage: undefined })).toThrow('forwarding needs an outbox file or storage')
  })
})

describe('forwarding from a file', () => {
  function dir(): string {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'forwarding-rules-'))
    cleanup.push(() => fs.rmSync(d, { recursive: true, force: true }))
    return d
  }

  it('holds the lock while it runs, and frees it at close', async () => {
    const file = path.join(dir(), OUTBOX_FILE)
    const { forwarding } = open({ storage: undefined, file })
    await expect(forwarding.ready).resolves.toEqual({ held: true })
    await expect(lockOutbox(file, () => {})).resolves.toBeNull()
    await forwarding.close(0)
    const again = await lockOutbox(file, () => {})
    expect(again).not.toBeNull()
    await again!.release()
  })

  it('beside a holder: waits, says why, and with no retry (the command) tries once', async () => {
    const file = path.join(dir(), OUTBOX_FILE)
    const holder = await lockOutbox(file, () => {})
    cleanup.push(() => holder!.release())
    const errors: unknown[] = []
    const { forwarding } = open({ storage: undefined, file, onError: (e) => errors.push(e) })
    await expect(forwarding.ready).resolves.toEqual({ held: false, reason: FORWARDING_ELSEWHERE_APP })
    forwarding.forward('c1', [taskEnded('t1')])
    expect(forwarding.status('f1')).toEqual({ pending: 1, lastError: FORWARDING_ELSEWHERE_APP })
    expect(errors).toEqual([])
  })

  it('the app tries again every lockRetryMs, and sends what waited once it holds the lock', async () => {
    const file = path.join(dir(), OUTBOX_FILE)
    const holder = await lockOutbox(file, () => {})
    const { forwarding, seen, clock } = open({ storage: undefined, file, lockRetryMs: 1_000 })
    await forwarding.ready
    forwarding.forward('c1', [taskEnded('t1')])
    await holder!.release()
    await clock.advance(999)
    expect(seen.requests).toEqual([])
    await clock.advance(1)
    await forwarding.idle()
    expect(seen.requests).toHaveLength(1)
    expect(forwarding.status('f1')).toMatchObject({ pending: 0 })
  })
})

describe('forwarding, what it passes on', () => {
  const failing = (() => Promise.resolve(new Response('', { status: 500 }))) as unknown as typeof globalThis.fetch

  it('a target gone from the settings before its next try: its entry is not read again, nothing sent', async () => {
    const { forwarding, seen, settings, clock } = open({ fetch: failing, random: () => 0 })
    forwarding.forward('c1', [taskEnded('t1')])
    await forwarding.idle()
    expect(seen.reads).toBe(1)
    settings.forwarding.targets = []
    await clock.advance(60_000)
    await forwarding.idle()
    expect(seen.reads).toBe(1)
  })

  it('told after each change of the outbox', async () => {
    const { forwarding, seen } = open()
    expect(seen.changes).toBe(1)
    forwarding.forward('c1', [taskEnded('t1')])
    await forwarding.idle()
    expect(seen.changes).toBe(3)
  })

  it("the outbox's and the lock's errors reach onError", async () => {
    const errors: string[] = []
    const { forwarding, storage } = open({ onError: (e) => void errors.push((e as Error).message) })
    forwarding.forward('c1', [taskEnded('t1')])
    // Queued and written; the delivery's write fails.
    storage.write = () => {
      throw new Error('disk full')
    }
    await forwarding.idle()
    expect(errors).toContain('disk full')
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'forwarding-rules-'))
    cleanup.push(() => fs.rmSync(d, { recursive: true, force: true }))
    fs.writeFileSync(path.join(d, 'state'), '')
    const lockErrors: unknown[] = []
    const locked = open({
      storage: undefined,
      file: path.join(d, 'state', OUTBOX_FILE),
      onError: (e) => void lockErrors.push(e)
    })
    await locked.forwarding.ready
    expect(lockErrors).toHaveLength(1)
  })

  it('dispose stops its retries', async () => {
    const { forwarding, seen, clock } = open({ fetch: failing, random: () => 0 })
    forwarding.forward('c1', [taskEnded('t1')])
    await forwarding.idle()
    forwarding.dispose()
    await clock.advance(3_600_000)
    expect(seen.reads).toBe(1)
  })
})
