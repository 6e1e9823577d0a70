// `agent-tray watch` with no ids and several accounts: every stored connection's watch list at
// once, each with its own key, against two reference services over real HTTP.
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient } from '../core/client'
import { type ReferenceService, startReferenceService } from '../reference-service'
import type { ClientOptions } from './deps'
import { EXIT } from './exit-codes'
import { makeRunner, memorySecrets, tempDir } from './test-harness'

let work: ReferenceService
let home: ReferenceService
const { keys, secrets } = memorySecrets()

beforeAll(async () => {
  work = await startReferenceService({ apiKey: 'work-key-1', port: 0, seed: 1, manualClock: true })
  home = await startReferenceService({ apiKey: 'home-key-2', port: 0, seed: 2, manualClock: true })
})
afterAll(async () => {
  await work.close()
  await home.close()
})

function setUp(homeKey: string, workBudgetUsd: number | null = null) {
  const dir = tempDir()
  const w = work.control.createProject({ name: 'Office app' })
  const h = home.control.createProject({ name: 'Garden planner' })
  const tw = work.control.addTask(w.id, { name: 'Work task', status: 'todo', script: 'run-forever' })
  const th = home.control.addTask(h.id, { name: 'Home task', status: 'todo', script: 'run-forever' })
  // Version 2's per-project budget: migrated to the project's total budget.
  const watched = (projectId: string, budgetUsd: number | null = null) => [
    { projectId, name: '', muted: false, budgetUsd, addedAt: '2026-01-01T00:00:00.000Z' }
  ]
  fs.writeFileSync(
    path.join(dir, 'config.json'),
    JSON.stringify({
      version: 2,
      activeConnectionId: 'w',
      connections: [
        { id: 'w', name: 'Work', baseUrl: work.url, publishingDomain: '' },
        { id: 'h', name: 'Home', baseUrl: home.url, publishingDomain: '' }
      ],
      watched: { w: watched(w.id, workBudgetUsd), h: watched(h.id) }
    })
  )
  keys.set('w', 'work-key-1')
  keys.set('h', homeKey)
  return { dir, tw, th, w }
}

/**
 * Runs `watch` until `done` holds for its output. `afterFirstPoll` runs once per service, when the
 * first task list from it has come back: the watch has its baseline, so a change made then is news.
 */
async function watchUntil(
  dir: string,
  args: string[],
  done: (out: string) => boolean,
  afterFirstPoll: Map<string, () => void> = new Map()
) {
  const stop = new AbortController()
  let out = ''
  const polled = new Set<string>()
  const firstPoll = (baseUrl: string): void => {
    if (polled.has(baseUrl)) return
    polled.add(baseUrl)
    afterFirstPoll.get(baseUrl)?.()
  }
  const createClient = (options: ClientOptions) =>
    createServiceClient({
      ...options,
      retry: { retries: 0 },
      onResponse: (r) => {
        if (r.status === 200 && /^\/projects\/[^/]+\/tasks(\?|$)/.test(r.path)) firstPoll(options.baseUrl)
      }
    })
  const run = makeRunner({ configDir: dir, deps: { secrets: () => secrets, createClient } })
  const finished = run(['watch', '--interval-ms', '1000', ...args], {
    signal: stop.signal,
    env: { AGENT_TRAY_BASE_URL: undefined, AGENT_TRAY_API_KEY: undefined },
    onStdout: (text) => {
      out += text
      if (done(out)) stop.abort()
    }
  })
  return finished
}

describe('watch, every account at once', () => {
  it('watches each connection with its own key, each line naming its connection', async () => {
    const { dir, tw, th } = setUp('home-key-2')
    const r = await watchUntil(
      dir,
      [],
      (out) => /\[Home\].*In progress/.test(out) && /\[Work\].*In progress/.test(out),
      new Map([
        [work.url, () => work.control.setTaskStatus(tw.id, 'in_progress')],
        [home.url, () => home.control.setTaskStatus(th.id, 'in_progress')]
      ])
    )
    expect(r.code).toBe(EXIT.ok)
    expect(r.err).toContain('[Work] Watching 1 project on')
    expect(r.err).toContain('[Home] Watching 1 project on')
    for (const line of r.out.trimEnd().split('\n')) expect(line).toMatch(/^\[(Work|Home)\] /)
  }, 20_000)

  it('--json lines carry the connection', async () => {
    const { dir, tw } = setUp('home-key-2')
    const r = await watchUntil(
      dir,
      ['--json'],
      (out) => out.includes('"to":"in_progress"'),
      new Map([[work.url, () => work.control.setTaskStatus(tw.id, 'in_progress')]])
    )
    const events = r.out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { connection: string; kind: string })
    expect(events.find((e) => e.kind === 'task-status')).toMatchObject({ connection: 'Work', to: 'in_progress' })
  }, 20_000)

  it('a key one service rejects stops that connection only', async () => {
    const { dir, tw } = setUp('not-the-home-key')
    const r = await watchUntil(
      dir,
      [],
      (out) => /\[Work\].*In progress/.test(out),
      new Map([[work.url, () => work.control.setTaskStatus(tw.id, 'in_progress')]])
    )
    expect(r.code).toBe(EXIT.ok)
    expect(r.err).toMatch(/\[Home\] .*Stopped watching this connection\./)
  }, 20_000)

  it("prints a budget's crossing with the other changes (a version 2 project budget, now its total budget)", async () => {
    const { dir, tw, w } = setUp('home-key-2', 0.5)
    work.control.setTaskTotalPrice(tw.id, 1)
    const r = await watchUntil(
      dir,
      [],
      (out) => /budget reached/.test(out),
      new Map([[work.url, () => work.control.setTaskStatus(tw.id, 'in_progress')]])
    )
    expect(r.out).toMatch(new RegExp(`\\[Work\\] .*${w.id}  total budget reached: \\$1\\.00 of \\$0\\.50`))
  }, 20_000)
})
