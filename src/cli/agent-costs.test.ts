// `costs --agents` and `costs` pointed at an agent account, against the reference service's Devin fake over real
// HTTP: its ACUs with their unit (today, this month, in total: a session counts in the month it started), never as
// USD, and its per-unit budgets with their level; the same figures as the window's (shared/unit-costs.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openSettings } from '../core/settings/store'
import type { AgentFake } from '../reference-service/agent-fake'
import { startAgentFake } from '../reference-service/agent-fakes'
import type { AgentCosts } from './commands/agent-costs'
import { EXIT } from './exit-codes'
import { makeRunner, memorySecrets, type RunOptions, tempDir } from './test-harness'

const KEY = 'cog_cliUnitCostsKey0042'
const NOW = '2026-03-18T12:00:00.000Z'

let devin: AgentFake
const dir = tempDir()
const store = memorySecrets()
const base = makeRunner({
  configDir: dir,
  deps: { secrets: () => store.secrets, now: () => new Date(NOW), tz: 0 }
})
const run = (args: string[], o: RunOptions = {}) =>
  base(args, { ...o, env: { AGENT_TRAY_BASE_URL: undefined, AGENT_TRAY_API_KEY: undefined, ...o.env } })
let connectionId = ''

beforeAll(async () => {
  devin = await startAgentFake('devin', { apiKey: KEY, manualClock: true, startTime: NOW })
  // Working so far: 1.5 ACU; finished: 0.5 (the fake's figures). One started last month counts in total only.
  devin.control.addTask({ title: 'Bump the linter', state: 'working', agoMs: 3_600_000 })
  devin.control.addTask({ title: 'Fix the docs', state: 'finished', agoMs: 7_200_000 })
  devin.control.addTask({ title: 'Old migration', state: 'working', agoMs: 40 * 86_400_000 })
  const r = await run(['login', '--service', 'devin', '--name', 'Cognition', '--base-url', devin.baseUrl, '--json'], {
    stdin: `${KEY}\n`
  })
  expect(r.code).toBe(EXIT.ok)
  connectionId = (JSON.parse(r.out) as { connection: { id: string } }).connection.id
  const settings = await openSettings({ dir })
  await settings.update((draft) => {
    draft.unitBudgets[connectionId] = [
      { id: 'u1', unit: 'ACU', period: 'month', limit: 100, warnRatio: 0.8 },
      { id: 'u2', unit: 'ACU', period: 'total', limit: 3, warnRatio: 0.8 }
    ]
  })
}, 60_000)

afterAll(async () => {
  await devin?.close()
})

describe('costs of agent accounts', () => {
  it('--agents --json: per unit, today, this month and in total, and each budget with its level', async () => {
    const r = await run(['costs', '--agents', '--json'])
    expect(r.err).toBe('')
    expect(r.code).toBe(EXIT.ok)
    expect(JSON.parse(r.out) as AgentCosts[]).toEqual([
      {
        account: 'Cognition',
        service: 'Devin',
        units: [{ unit: 'ACU', today: 2, thisMonth: 2, total: 3.5, tasks: 3 }],
        budgets: [
          {
            id: 'u1',
            unit: 'ACU',
            period: 'month',
            period_key: '2026-03',
            spent: 2,
            limit: 100,
            warn_ratio: 0.8,
            state: 'ok'
          },
          {
            id: 'u2',
            unit: 'ACU',
            period: 'total',
            period_key: 'total',
            spent: 3.5,
            limit: 3,
            warn_ratio: 0.8,
            state: 'over'
          }
        ]
      }
    ])
  })

  it('for people: each amount with its unit named, never in dollars', async () => {
    const r = await run(['costs', '--agents'])
    expect(r.code).toBe(EXIT.ok)
    expect(r.out).toMatch(/Cognition +Devin +2 ACU +2 ACU +3\.5 ACU +3\n/)
    expect(r.out).toMatch(/Cognition +monthly ACU +2 ACU this month +100 ACU +within budget/)
    expect(r.out).toMatch(/Cognition +total ACU +3\.5 ACU in total +3 ACU +limit reached/)
    expect(r.out).toContain('counts on the local day and in the month it started')
    expect(r.out).not.toContain('$')
  })

  it('costs pointed at the agent account shows its costs; a Workser-only flag is refused', async () => {
    const pointed = await run(['costs', '--base-url', devin.baseUrl, '--json'], { env: { AGENT_TRAY_API_KEY: KEY } })
    expect(pointed.code).toBe(EXIT.ok)
    expect((JSON.parse(pointed.out) as AgentCosts[]).map((a) => a.units)).toEqual([
      [{ unit: 'ACU', today: 2, thisMonth: 2, total: 3.5, tasks: 3 }]
    ])
    const refused = await run(['costs', '--agents', '--by', 'model'])
    expect(refused.code).toBe(EXIT.usage)
    expect(refused.err).toMatch(/no report by day, project or model/)
  })
})
