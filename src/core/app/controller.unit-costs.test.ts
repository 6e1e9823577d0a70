// An agent account's costs in its own unit through the controller, over real HTTP against the reference service's
// Devin fake and a real settings and state file: ACUs per period in AppState, a per-unit budget saved and refused by
// the one rule, its crossing told once (a notification and a monitor event), not again after a restart, and again
// once the limit changes.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { type AgentFake, startAgentFake } from '../../reference-service'
import { countAttention } from '../../shared/attention-count'
import type { EventContract } from '../../shared/ipc'
import type { MonitorEvent } from '../../shared/monitor'
import { createSessionSecretStore, type SecretStore } from '../secrets'
import { openSettings } from '../settings/store'
import { ManualClock } from '../util/clock'
import { type AppController, createAppController } from './controller'
import { dispatch } from './dispatch'
import { referenceControllerPorts } from './test-controller'

const KEY = 'cog_unitCostsControllerKey01'
// The fake's sessions are created at its simulated start; the app's clock is a little later the same month.
const FAKE_START = '2026-03-10T09:00:00.000Z'
const APP_NOW = Date.parse('2026-03-10T12:00:00Z')

let fake: AgentFake
let dir: string
let secrets: SecretStore
let controller: AppController
let events: MonitorEvent[]
let told: EventContract['notification:shown'][]

async function open(): Promise<void> {
  controller = createAppController(
    referenceControllerPorts({
      settings: await openSettings({ dir }),
      secrets,
      clock: new ManualClock(APP_NOW)
    })
  )
  controller.on('monitor:event', (e) => events.push(e))
  controller.on('notification:shown', (n) => told.push(n))
  await controller.start()
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agent-tray-unit-costs-'))
  secrets = createSessionSecretStore('Kept in memory for this test.')
  events = []
  told = []
  fake = await startAgentFake('devin', { apiKey: KEY, manualClock: true, startTime: FAKE_START })
  await open()
})

afterEach(async () => {
  await controller.stop()
  await fake.close()
  await rm(dir, { recursive: true, force: true })
})

async function addDevin(): Promise<string> {
  const view = await controller.handlers['connection:save']({
    connection: { name: 'Work', baseUrl: fake.baseUrl, publishingDomain: '', service: 'devin' },
    apiKey: KEY
  })
  return view.id
}

const pollNow = () => controller.handlers['monitor:poll-now']()
const costs = (id: string) => controller.getState().agentCosts.find((c) => c.connectionId === id)
const budgetNews = () => events.filter((e) => e.kind === 'unit-budget')

it("shows an agent account's ACUs per period with their unit, never as USD", async () => {
  const id = await addDevin()
  fake.control.addTask({ title: 'Fix test', script: 'complete' })
  fake.control.addTask({ title: 'Rotate keys', script: 'approve' })
  await fake.control.advance(60_000)
  await pollNow()
  // 'complete' worked (1.5) and finished (0.5); 'approve' worked (1.5).
  expect(costs(id)).toEqual({
    connectionId: id,
    units: [{ unit: 'ACU', today: 3.5, thisMonth: 3.5, total: 3.5, tasks: 2 }],
    budgets: [],
    budgetUnits: ['ACU']
  })
  // Workser's figures are untouched: there is no project, so no USD anywhere.
  expect(controller.getState().budgets).toEqual([])
})

it('saves a budget in one of the account’s units, refuses any other, and tells its crossing once', async () => {
  const id = await addDevin()
  fake.control.addTask({ title: 'Fix test', script: 'complete' })
  await fake.control.advance(60_000)
  await pollNow()

  const budget = { unit: 'ACU', period: 'month' as const, limit: 100, warnRatio: 0.8 }
  const saved = await controller.handlers['unit-budget:save']({ connectionId: id, budget })
  expect(saved).toEqual({ id: expect.stringMatching(/^u-/), ...budget })
  expect(costs(id)?.budgets).toEqual([{ budget: saved, periodKey: '2026-03', spent: 2, state: 'ok' }])
  expect(budgetNews()).toEqual([])

  // The same rule as the form's: a unit the account does not report, and a wrong warning, are refused; nothing saved.
  const usd = await dispatch(controller.handlers, 'unit-budget:save', {
    connectionId: id,
    budget: { ...budget, unit: 'USD' }
  })
  expect(usd).toEqual({
    ok: false,
    error: { kind: 'invalid_argument', message: 'The unit must be one this account reports: ACU.' }
  })
  const warn = await dispatch(controller.handlers, 'unit-budget:save', {
    connectionId: id,
    budget: { ...budget, warnRatio: 2 }
  })
  expect(warn.ok).toBe(false)
  expect(costs(id)?.budgets.map((s) => s.budget)).toEqual([saved])

  // Saving into the same unit and period replaces it (its id kept); below what was spent, it is told at once.
  const lower = await controller.handlers['unit-budget:save']({ connectionId: id, budget: { ...budget, limit: 2 } })
  expect(lower.id).toBe(saved.id)
  expect(budgetNews()).toEqual([
    expect.objectContaining({ connectionId: id, unit: 'ACU', level: 'over', spent: 2, limit: 2, periodKey: '2026-03' })
  ])
  expect(told).toEqual([
    expect.objectContaining({
      title: 'Budget reached: the monthly ACU budget of Work',
      body: '2 ACU spent in 2026-03 of a 2 ACU budget.'
    })
  ])
  expect(costs(id)?.budgets[0]?.state).toBe('over')
  // The tray and the badge count it as an account-wide budget over its limit; another poll tells nothing new.
  expect(countAttention(controller.getState()).accountsOver).toBe(1)
  await pollNow()
  expect(budgetNews()).toHaveLength(1)

  // A restart tells nothing twice.
  await controller.stop()
  events = []
  told = []
  await open()
  await pollNow()
  expect(budgetNews()).toEqual([])
  expect(costs(id)?.budgets[0]?.state).toBe('over')

  // Removed, it is gone from the window.
  await controller.handlers['unit-budget:remove']({ connectionId: id, budgetId: saved.id })
  expect(costs(id)?.budgets).toEqual([])
})

it('refuses a per-unit budget for an account that is not an open agent account', async () => {
  const refused = await dispatch(controller.handlers, 'unit-budget:save', {
    connectionId: 'nope',
    budget: { unit: 'ACU', period: 'day', limit: 1, warnRatio: 0.8 }
  })
  expect(refused).toEqual({
    ok: false,
    error: { kind: 'invalid_argument', message: 'There is no connection with id "nope".' }
  })
})
