// `agent-tray costs` against the reference service over real HTTP, its figures checked against
// sums computed here straight from the service's own answers (GET /projects/{id}/tasks and GET
// /tasks/{id}/steps-and-usages, read raw), in an injected time zone, around midnight.
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from '../reference-service'
import { call } from '../reference-service/test-client'
import { EXIT } from './exit-codes'
import { makeRunner, type RunResult, tempDir } from './test-harness'

const KEY = 'test-key-COSTS-8c1d'
const TZ = 60 // UTC+1: the tasks below run across local midnight
const DETAILS = 'GET /tasks/{id}/steps-and-usages'
let service: ReferenceService
let configDir: string
let run: ReturnType<typeof makeRunner>
let projectIds: string[]
let skewed: string

interface RawTask {
  id: string
  name: string
  total_price: number
  updated_at: string
}
interface RawUsage {
  provider: string
  model: string
  final_price: number
  created_at: string
  usage_metadata: {
    input_tokens: number
    output_tokens: number
    cache_read_tokens?: number
    input_token_details?: { cache_read?: number }
  }
}

beforeAll(async () => {
  service = await startReferenceService({
    apiKey: KEY,
    port: 0,
    seed: 21,
    manualClock: true,
    startTime: '2026-03-10T21:30:00.000Z'
  })
  configDir = tempDir()
  const a = service.control.createProject({ name: 'Recipe Box', firstTask: false })
  const b = service.control.createProject({ name: '=Garden "planner", v2', firstTask: false })
  service.control.addTask(a.id, { name: 'Earlier work', status: 'completed' })
  skewed = service.control.addTask(b.id, { name: 'Skewed', status: 'completed' }).id
  service.control.setTaskTotalPrice(skewed, 9.5)
  service.control.advance(89 * 60_000) // 22:59 UTC: 23:59 local on the 10th
  service.control.addTask(a.id, { name: 'Across midnight', status: 'in_progress', script: 'complete' })
  service.control.addTask(b.id, { name: 'Still running', status: 'in_progress', script: 'run-forever' })
  service.control.advance(30 * 60_000) // 00:29 local on the 11th
  projectIds = [a.id, b.id]
  run = makeRunner({
    service,
    configDir,
    env: { AGENT_TRAY_BASE_URL: service.url, AGENT_TRAY_API_KEY: KEY },
    deps: { now: () => new Date(service.control.now()), tz: TZ }
  })
  for (const id of projectIds) expect((await run(['watch-list', 'add', id])).code).toBe(0)
})

afterAll(async () => {
  await service.close()
  fs.rmSync(configDir, { recursive: true, force: true })
})

async function get<T>(path: string): Promise<T> {
  const answer = await call(service.url, 'GET', path, { key: KEY })
  expect(answer.status).toBe(200)
  return answer.json() as T
}

const localDay = (iso: string): string => new Date(Date.parse(iso) + TZ * 60_000).toISOString().slice(0, 10)
const round = (v: number): number => Math.round(v * 1e6) / 1e6

/** The expected figures, from the service's own records: each call on its local day; what total_price has beyond the records on the task's updated_at day. */
async function expected() {
  const byDay = new Map<string, number>()
  const byModel = new Map<string, { calls: number; input: number; output: number; cache: number; cost: number }>()
  let total = 0
  const add = (day: string, usd: number) => byDay.set(day, (byDay.get(day) ?? 0) + usd)
  for (const projectId of projectIds) {
    for (const task of await get<RawTask[]>(`/projects/${projectId}/tasks`)) {
      const { usages } = await get<{ usages: RawUsage[] }>(`/tasks/${task.id}/steps-and-usages`)
      let sum = 0
      for (const u of usages) {
        sum += u.final_price
        add(localDay(u.created_at), u.final_price)
        const m = byModel.get(`${u.provider}/${u.model}`) ?? { calls: 0, input: 0, output: 0, cache: 0, cost: 0 }
        m.calls += 1
        m.input += u.usage_metadata.input_tokens
        m.output += u.usage_metadata.output_tokens
        m.cache += u.usage_metadata.cache_read_tokens ?? u.usage_metadata.input_token_details?.cache_read ?? 0
        m.cost += u.final_price
        byModel.set(`${u.provider}/${u.model}`, m)
      }
      if (Math.abs(task.total_price - sum) > 1e-6 * Math.max(1, usages.length))
        add(localDay(task.updated_at), task.total_price - sum)
      total += task.total_price
    }
  }
  return { byDay, byModel, total }
}

function json<T>(r: RunResult): T {
  expect(r.err).toBe('')
  expect(r.code).toBe(0)
  return JSON.parse(r.out) as T
}

interface Row {
  key: string
  costUsd: number
  estimatedUsd: number
  calls: number
  inputTokens: number
  outputTokens: number
  cacheReadTokens: number | null
  mismatch?: { recordsUsd: number; totalPriceUsd: number } | null
}
interface Report {
  since: string
  until: string
  rows: Row[]
  totals: Row
}

describe('costs', () => {
  it('by day over the last 30 days: each call on its local day, the whole agreeing with total_price', async () => {
    const want = await expected()
    service.control.resetStats()
    const report = json<Report>(await run(['costs', '--json']))
    expect(report).toMatchObject({ since: '2026-02-10', until: '2026-03-11' })
    expect(Object.fromEntries(report.rows.map((r) => [r.key, round(r.costUsd)]))).toEqual(
      Object.fromEntries([...want.byDay].filter(([, usd]) => round(usd) !== 0).map(([day, usd]) => [day, round(usd)]))
    )
    // The task across midnight has cost on both local days.
    expect(report.rows.map((r) => r.key)).toEqual(expect.arrayContaining(['2026-03-10', '2026-03-11']))
    expect(round(report.totals.costUsd)).toBe(round(want.total))
    // Records fetched once, for every task.
    expect(service.control.stats().byRoute[DETAILS]?.requests).toBe(4)
  })

  it('fetches nothing again on the next run: the records were kept, an ended task’s for good', async () => {
    service.control.resetStats()
    json<Report>(await run(['costs', '--json']))
    expect(service.control.stats().byRoute[DETAILS]?.requests ?? 0).toBe(0)
  })

  it('by model: calls, input, output and cache-read tokens as the records say', async () => {
    const want = await expected()
    const report = json<Report>(await run(['costs', '--by', 'model', '--json']))
    const models = report.rows.filter((r) => r.key !== '')
    expect(
      Object.fromEntries(
        models.map((r) => [r.key, [r.calls, r.inputTokens, r.outputTokens, r.cacheReadTokens ?? 0, round(r.costUsd)]])
      )
    ).toEqual(
      Object.fromEntries([...want.byModel].map(([k, m]) => [k, [m.calls, m.input, m.output, m.cache, round(m.cost)]]))
    )
    const human = await run(['costs', '--by', 'model'])
    expect(human.code).toBe(0)
    expect(human.out).toMatch(/MODEL\s+CALLS\s+INPUT\s+OUTPUT\s+CACHE READ\s+COST\s+TASKS/)
    expect(human.out).toMatch(/^TOTAL\s+\d+/m)
  })

  it('by task: the skewed task shows its records and its total_price, and total_price counts', async () => {
    const report = json<Report>(await run(['costs', '--by', 'task', '--json']))
    const row = report.rows.find((r) => r.key === skewed)!
    const { usages } = await get<{ usages: RawUsage[] }>(`/tasks/${skewed}/steps-and-usages`)
    expect(row.costUsd).toBe(9.5)
    expect(row.mismatch).toEqual({
      recordsUsd: round(usages.reduce((s, u) => s + u.final_price, 0)),
      totalPriceUsd: 9.5
    })
    const human = await run(['costs', '--by', 'task'])
    expect(human.out).toContain('/ $9.500000')
    expect(human.out).toMatch(/~ includes \$\d+\.\d+ estimated/)
  })

  it('as CSV: the project name from the service quoted and kept from running as a formula', async () => {
    const r = await run(['costs', '--by', 'project', '--csv'])
    expect(r.code).toBe(0)
    expect(r.err).toBe('')
    const lines = r.out.trimEnd().split('\n')
    expect(lines[0]).toBe('project_id,project,cost_usd,estimated_usd,tasks')
    const garden = lines.find((l) => l.startsWith(`${projectIds[1]},`))
    expect(garden).toMatch(new RegExp(`^${projectIds[1]},"'=Garden ""planner"", v2",\\d+\\.?\\d*,\\d+\\.?\\d*,2$`))
    expect(lines.at(-1)).toMatch(/^,total,\d+(\.\d+)?,/)
  })

  it('names a project as every surface does: the service’s current name over the one remembered when it was watched', async () => {
    const renamed = await call(service.url, 'PATCH', `/projects/${projectIds[0]}`, {
      key: KEY,
      body: { name: 'Recipe Box v2' }
    })
    expect(renamed.status).toBe(200)
    try {
      const report = json<{ rows: { key: string; label: string }[] }>(await run(['costs', '--by', 'project', '--json']))
      expect(report.rows.find((r) => r.key === projectIds[0])?.label).toBe('Recipe Box v2')
    } finally {
      await call(service.url, 'PATCH', `/projects/${projectIds[0]}`, { key: KEY, body: { name: 'Recipe Box' } })
    }
  })

  it('a range and a project: only what was spent then, there', async () => {
    const want = await expected()
    const report = json<Report>(
      await run(['costs', '--project', projectIds[0]!, '--since', '2026-03-11', '--until', '2026-03-11', '--json'])
    )
    expect(report.rows.map((r) => r.key)).toEqual(['2026-03-11'])
    expect(report.rows[0]!.costUsd).toBeLessThanOrEqual(round(want.byDay.get('2026-03-11')!))
    expect(report.rows[0]!.costUsd).toBeGreaterThan(0)
  })

  it('draws a progress bar only on a terminal and never with --json or --csv', async () => {
    fs.rmSync(`${configDir}/usage-cache.json`)
    let bar = ''
    const human = await run(['costs'], { progress: (t) => (bar += t) })
    expect(human.code).toBe(0)
    expect(bar).toContain('Fetching usage records [')
    expect(bar).toMatch(/4\/4/)
    expect(bar.endsWith('\r\u001b[K')).toBe(true)
    expect(human.out).not.toContain('Fetching')
    fs.rmSync(`${configDir}/usage-cache.json`)
    let quiet = ''
    expect((await run(['costs', '--json'], { progress: (t) => (quiet += t) })).code).toBe(0)
    expect((await run(['costs', '--csv'], { progress: (t) => (quiet += t) })).code).toBe(0)
    expect(quiet).toBe('')
  })

  it('refuses a bad date, a reversed range, a day after today and an unknown grouping with exit 2 and one clear line', async () => {
    const bad = await run(['costs', '--since', '2026-02-30'])
    expect(bad.code).toBe(EXIT.usage)
    expect(bad.err).toBe('agent-tray: --since must be a date as YYYY-MM-DD, such as 2026-02-10.\n')
    const reversed = await run(['costs', '--since', '2026-03-10', '--until', '2026-03-01'])
    expect(reversed.code).toBe(EXIT.usage)
    expect(reversed.err).toBe('agent-tray: --until must not be before --since (2026-03-10).\n')
    const future = await run(['costs', '--until', '2026-03-12'])
    expect(future.code).toBe(EXIT.usage)
    expect(future.err).toBe('agent-tray: --until must not be after today (2026-03-11).\n')
    const by = await run(['costs', '--by', 'week'])
    expect(by.code).toBe(EXIT.usage)
    expect(by.err).toContain('week')
  })
})
