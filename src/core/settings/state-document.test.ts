// state.json across the change to compact snapshots: a file the previous build wrote (version 1,
// every task's every step) still loads, and a monitor restarted from it reports what changed while
// it was away, exactly. Against the reference service over real HTTP; only time is manual.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from '../../reference-service/index'
import type { FullProjectSnapshot, MonitorEvent } from '../../shared/monitor'
import type { Task } from '../../shared/service'
import { createServiceClient, type ServiceClient } from '../client/index'
import { Monitor, type MonitorCycle } from '../monitor/monitor'
import { ManualClock } from '../util/clock'
import { describeStateFinding, interpretState, STATE_VERSION } from './state-document'

const KEY = 'state-document-key'
let service: ReferenceService
let client: ServiceClient

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 3, manualClock: true })
  client = createServiceClient({ baseUrl: service.url, apiKey: KEY, retry: { retries: 0 } })
})
afterAll(async () => {
  await client.close()
  await service.close()
})

/** The full form, as the previous build saved it. */
function fullSnapshot(tasks: readonly Task[], polledAt: string): FullProjectSnapshot {
  const out: FullProjectSnapshot = { polledAt, tasks: {} }
  for (const t of tasks) {
    out.tasks[t.id] = {
      status: t.status,
      name: t.name,
      updatedAt: t.updated_at,
      totalPrice: t.total_price,
      steps: Object.fromEntries(t.steps.map((s) => [s.id, s.status]))
    }
  }
  return out
}

/** Every step whose status differs between two lists of the same task, as `task/step:from>to`. */
function stepChanges(before: readonly Task[], after: readonly Task[]): string[] {
  const out: string[] = []
  for (const t of after) {
    const was = new Map(before.find((b) => b.id === t.id)?.steps.map((s) => [s.id, s.status]))
    for (const s of t.steps) {
      const from = was.get(s.id)
      if (from === undefined) out.push(`${t.id}/${s.id}:+${s.status}`)
      else if (from !== s.status) out.push(`${t.id}/${s.id}:${from}>${s.status}`)
    }
  }
  return out.sort()
}

const eventLine = (e: MonitorEvent): string | null =>
  e.kind === 'step-status'
    ? `${e.taskId}/${e.stepId}:${e.from}>${e.to}`
    : e.kind === 'step-added'
      ? `${e.taskId}/${e.stepId}:+${e.status}`
      : null

describe('state.json from the previous build (full snapshots)', () => {
  it('loads as it is, and a restart from it reports the away changes exactly, then keeps the compact form', async () => {
    const project = service.control.createProject({ name: 'Upgrade' })
    const running = service.control.addTask(project.id, { name: 'Running', status: 'in_progress' })
    const done = service.control.addTask(project.id, { name: 'Done', status: 'completed' })
    const waiting = service.control.addTask(project.id, { name: 'Waiting', status: 'todo' })
    const before = await client.listTasks(project.id)
    const old = {
      version: 1,
      lastSeen: { conn: { [project.id]: fullSnapshot(before, service.control.now()) } },
      budgetsNotified: {}
    }

    const read = interpretState(old)
    expect(read.finding).toBeUndefined()
    expect(read.doc.version).toBe(STATE_VERSION)
    expect(read.doc.lastSeen).toEqual(old.lastSeen)

    // While the app was closed.
    service.control.setTaskStatus(running.id, 'completed')
    service.control.setTaskStatus(waiting.id, 'cancelled')
    const after = await client.listTasks(project.id)

    const monitor = new Monitor({
      connectionId: 'conn',
      source: client,
      projects: [project.id],
      initialState: read.doc.lastSeen.conn ?? {},
      clock: new ManualClock(),
      random: () => 0.5
    })
    const cycles: MonitorCycle[] = []
    monitor.on('cycle', (c) => cycles.push(c))
    await monitor.pollNow()
    expect(cycles).toHaveLength(1)
    expect(cycles[0]!.away).toBe(true)
    const statusChanges = cycles[0]!.events.flatMap((e) =>
      e.kind === 'task-status' ? [`${e.taskName}:${e.from}>${e.to}`] : []
    )
    expect(statusChanges.sort()).toEqual(['Running:in_progress>completed', 'Waiting:todo>cancelled'])
    expect(cycles[0]!.events.some((e) => 'taskId' in e && e.taskId === done.id)).toBe(false)
    // Steps compared one by one (the running task's last step finished).
    expect(stepChanges(before, after).length).toBeGreaterThan(0)
    expect(cycles[0]!.events.flatMap((e) => eventLine(e) ?? []).sort()).toEqual(stepChanges(before, after))

    // What it saves now is compact, reads back valid, and a second restart sees nothing new.
    const saved = monitor.snapshot()
    monitor.dispose()
    expect(saved[project.id]).toMatchObject({ form: 'compact', steps: {} })
    const again = interpretState({ version: STATE_VERSION, lastSeen: { conn: saved }, budgetsNotified: {} })
    expect(again.finding).toBeUndefined()
    const second = new Monitor({
      connectionId: 'conn',
      source: client,
      projects: [project.id],
      initialState: again.doc.lastSeen.conn ?? {},
      clock: new ManualClock()
    })
    const later: MonitorCycle[] = []
    second.on('cycle', (c) => later.push(c))
    await second.pollNow()
    second.dispose()
    expect(later).toEqual([])
  })

  it('keeps the valid snapshots of either form and drops a compact one whose columns disagree', () => {
    const compact = {
      form: 'compact',
      polledAt: '2026-01-05T09:00:00.000Z',
      taskIds: ['a', 'b'],
      statuses: ['completed', 'in_progress'],
      prices: [0.5, null],
      stepCounts: [2, 1],
      stepFingerprints: [17, -3],
      steps: { b: { s1: 'in_progress' } }
    }
    const full = {
      polledAt: '2026-01-05T09:00:00.000Z',
      tasks: { t: { status: 'todo', name: 'T', updatedAt: 'x', totalPrice: null, steps: {} } }
    }
    const bad = { ...compact, prices: [0.5] }
    const read = interpretState({
      version: 2,
      lastSeen: { c: { p1: compact, p2: full, p3: bad } },
      budgetsNotified: {}
    })
    expect(read.finding?.kind).toBe('invalid')
    expect(read.doc.lastSeen).toEqual({ c: { p1: compact, p2: full } })
  })
})

describe('what the notification gate holds (budgets.held)', () => {
  const crossing = {
    kind: 'budget',
    connectionId: 'c',
    projectId: null,
    at: '2026-01-05T09:00:00.000Z',
    budgetId: 'b',
    period: 'month',
    periodKey: '2026-01',
    level: 'over',
    spentUsd: 25,
    budgetUsd: 20
  }
  const costly = {
    kind: 'task-cost-unusual',
    connectionId: 'c',
    projectId: 'p',
    at: '2026-01-05T09:00:00.000Z',
    taskId: 't',
    taskName: 'T',
    costUsd: 4,
    usualUsd: 1
  }
  const file = (held: unknown[]) => ({
    version: 2,
    lastSeen: {},
    budgetsNotified: {},
    budgets: { told: {}, held, unusualTold: {} }
  })

  it('reads back budget crossings and tasks costing more than usual', () => {
    const read = interpretState(file([crossing, costly]))
    expect(read.finding).toBeUndefined()
    expect(read.doc.budgets.held).toEqual([crossing, costly])
  })

  it("reads back an agent account's per-unit budget crossing and what was told of it", () => {
    const unitCrossing = {
      kind: 'unit-budget',
      connectionId: 'd',
      projectId: null,
      at: '2026-01-05T09:00:00.000Z',
      budgetId: 'u1',
      unit: 'ACU',
      period: 'month',
      periodKey: '2026-01',
      level: 'near',
      spent: 85,
      limit: 100
    }
    const unitTold = { d: { u1: { periodKey: '2026-01', level: 'near', limit: 100, warnRatio: 0.8 } } }
    const read = interpretState({ ...file([unitCrossing]), budgets: { told: {}, held: [unitCrossing], unitTold } })
    expect(read.doc.budgets.held).toEqual([unitCrossing])
    expect(read.doc.budgets.unitTold).toEqual(unitTold)
  })

  it('drops a held entry that is not one of them, keeping the rest', () => {
    const read = interpretState(file([crossing, { ...costly, costUsd: 'a lot' }, costly]))
    expect(read.finding?.kind).toBe('invalid')
    expect(read.doc.budgets.held).toEqual([crossing, costly])
  })

  it("reads back another service's task waiting for you; one asking in a way unknown is dropped", () => {
    const waiting = {
      kind: 'agent-waiting',
      connectionId: 'j',
      projectId: '',
      at: '2026-01-05T09:00:00.000Z',
      service: 'jules',
      serviceName: 'Jules',
      taskId: 't',
      taskName: 'Add dark mode',
      url: null,
      waiting: { kind: 'plan_approval', text: 'Plan', where: 'https://jules.example/t' }
    }
    expect(interpretState(file([waiting, crossing])).doc.budgets.held).toEqual([waiting, crossing])
    const unknown = { ...waiting, waiting: { ...waiting.waiting, kind: 'vote' } }
    expect(interpretState(file([unknown, crossing])).doc.budgets.held).toEqual([crossing])
  })
})

describe('interpretState', () => {
  const snapshot = {
    polledAt: '2026-01-05T09:00:00.000Z',
    tasks: { t: { status: 'todo', name: 'T', updatedAt: 'x', totalPrice: null, steps: {} } }
  }
  const told = { periodKey: '2026-01', level: 'near', limitUsd: 10, warnRatio: 0.8 }
  const bytes = (value: Record<string, unknown>) => value

  it('no file is a fresh state, not written; a whole file of either version is read as it is, not rewritten', () => {
    expect(interpretState({})).toEqual({
      doc: {
        version: STATE_VERSION,
        lastSeen: {},
        budgetsNotified: {},
        budgets: { told: {}, held: [], unusualTold: {}, unitTold: {} },
        agents: {}
      },
      rewrite: false
    })
    for (const version of [1, 2]) {
      const read = interpretState(
        bytes({ version, lastSeen: { c: { p: snapshot } }, budgetsNotified: { c: { p: 5 } } })
      )
      expect(read).toEqual({
        doc: {
          version: STATE_VERSION,
          lastSeen: { c: { p: snapshot } },
          budgetsNotified: { c: { p: 5 } },
          budgets: { told: {}, held: [], unusualTold: {}, unitTold: {} },
          agents: {}
        },
        rewrite: false
      })
    }
    // A budget memory missing a part (edited by hand) is whole: that part is empty.
    expect(
      interpretState(bytes({ version: 2, lastSeen: {}, budgetsNotified: {}, budgets: { told: { c: { b1: told } } } }))
    ).toEqual({
      doc: {
        version: STATE_VERSION,
        lastSeen: {},
        budgetsNotified: {},
        budgets: { told: { c: { b1: told } }, held: [], unusualTold: {}, unitTold: {} },
        agents: {}
      },
      rewrite: false
    })
  })

  it('damage to one part of the budget memory costs only that entry', () => {
    const read = interpretState(
      bytes({
        version: 2,
        lastSeen: {},
        budgetsNotified: { c: { p: 5, q: 'five' }, d: 3 },
        budgets: {
          told: { c: { b1: told, b2: { ...told, level: 'way over' } }, d: 'x' },
          held: 'none',
          unusualTold: { c: ['t1'], d: [1] }
        }
      })
    )
    expect(read.rewrite).toBe(true)
    expect(read.finding?.kind).toBe('invalid')
    expect(read.doc.budgetsNotified).toEqual({ c: { p: 5 }, d: {} })
    expect(read.doc.budgets).toEqual({
      told: { c: { b1: told }, d: {} },
      held: [],
      unusualTold: { c: ['t1'] },
      unitTold: {}
    })
    // A memory of the wrong kind altogether is an empty one.
    expect(interpretState(bytes({ version: 2, lastSeen: {}, budgetsNotified: {}, budgets: 7 })).doc.budgets).toEqual({
      told: {},
      held: [],
      unusualTold: {},
      unitTold: {}
    })
  })

  it('written by a newer version: the snapshots and budget memory that read as ours are kept, and it is rewritten', () => {
    const read = interpretState(
      bytes({
        version: 3,
        lastSeen: { c: { p: snapshot, q: { shape: 'new' } } },
        budgetsNotified: { c: { p: 5 } },
        budgets: { told: { c: { b1: told } } },
        extra: true
      })
    )
    expect(read.rewrite).toBe(true)
    expect(read.finding).toEqual({ kind: 'newer-version', version: 3 })
    expect(read.doc).toEqual({
      version: STATE_VERSION,
      lastSeen: { c: { p: snapshot } },
      budgetsNotified: { c: { p: 5 } },
      budgets: { told: { c: { b1: told } }, held: [], unusualTold: {}, unitTold: {} },
      agents: {}
    })
    // The project whose snapshot did not read has none: it is not listed, so it sets a new baseline.
    expect(Object.keys(read.doc.lastSeen.c ?? {})).toEqual(['p'])
  })

  it('lastSeen of the wrong kind is reset, the rest kept; a connection entry of the wrong kind is dropped', () => {
    const read = interpretState(bytes({ version: 2, lastSeen: ['x'], budgetsNotified: { c: { p: 5 } } }))
    expect(read.finding).toEqual({ kind: 'invalid', wrong: ['lastSeen'] })
    expect(read.doc.lastSeen).toEqual({})
    expect(read.doc.budgetsNotified).toEqual({ c: { p: 5 } })
    const second = interpretState(bytes({ version: 2, lastSeen: { c: 'x', d: { p: snapshot } }, budgetsNotified: {} }))
    expect(second.finding).toEqual({ kind: 'invalid', wrong: ['lastSeen.c'] })
    expect(second.doc.lastSeen).toEqual({ c: {}, d: { p: snapshot } })
    // null, too: nothing to read snapshots from.
    expect(interpretState(bytes({ version: 2, lastSeen: null, budgetsNotified: {} })).finding).toEqual({
      kind: 'invalid',
      wrong: ['lastSeen']
    })
    const third = interpretState(bytes({ version: 2, lastSeen: { c: null, d: { p: snapshot } }, budgetsNotified: {} }))
    expect(third.finding).toEqual({ kind: 'invalid', wrong: ['lastSeen.c'] })
    expect(third.doc.lastSeen).toEqual({ c: {}, d: { p: snapshot } })
  })

  it('a version that is not a number is damage, not a newer version: what reads as ours is kept', () => {
    const read = interpretState(bytes({ version: '3', lastSeen: { c: { p: snapshot } }, budgetsNotified: {} }))
    expect(read.finding).toEqual({ kind: 'invalid', wrong: ['version'] })
    expect(read.rewrite).toBe(true)
    expect(read.doc.lastSeen).toEqual({ c: { p: snapshot } })
  })
})

describe('describeStateFinding', () => {
  const file = '/home/a/.config/agent-tray/state.json'
  const aside = `${file}.corrupt-2026-01-05T09-00-00-000Z`
  const state = (projects: number) => ({
    version: STATE_VERSION,
    lastSeen: {
      c: Object.fromEntries(Array.from({ length: projects }, (_, i) => [`p${i}`, { polledAt: 'x', tasks: {} }]))
    },
    budgetsNotified: {},
    budgets: { told: {}, held: [], unusualTold: {}, unitTold: {} },
    agents: {}
  })
  const afresh =
    'the saved monitor state was unreadable; it starts afresh: the next poll of each project sets a new baseline'
  const keptOf = (n: string) =>
    `kept the last seen state of ${n} (the others start afresh without repeating notifications)`

  it('names the monitor state and what was kept of it, for each finding', () => {
    const kept = ` The original was kept as ${aside}.`
    expect(describeStateFinding({ kind: 'not-json', why: 'was empty', lastGood: null }, file, aside, state(0))).toBe(
      `${file} was empty: ${afresh}.${kept}`
    )
    const lastGood = '/home/a/.config/agent-tray/state.last-good.json'
    expect(describeStateFinding({ kind: 'not-json', why: 'held a list', lastGood }, file, aside, state(2))).toBe(
      `${file} held a list: the saved monitor state from ${lastGood} is in use.${kept}`
    )
    expect(describeStateFinding({ kind: 'newer-version', version: 3 }, file, aside, state(2))).toBe(
      `${file} was written by a newer Agent Tray (file version 3): this version ${keptOf('2 projects')}.${kept}`
    )
    expect(describeStateFinding({ kind: 'invalid', wrong: ['lastSeen.c', 'budgets'] }, file, aside, state(1))).toBe(
      `Some entries of ${file} were invalid (lastSeen.c, budgets): this version ${keptOf('1 project')}.${kept}`
    )
  })
})
