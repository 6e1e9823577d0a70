import { describe, expect, it } from 'vitest'
import type { Budget } from '../../shared/budgets'
import type { MonitorEvent } from '../../shared/monitor'
import type { Waiting } from '../../shared/provider'
import { DEFAULT_NOTIFICATION_PREFS, type Settings, type WatchedProject } from '../../shared/settings'
import { projectDisplayName } from '../../shared/watched-project'
import { defaultSettings } from '../settings/schema'
import { ManualClock } from '../util/clock'
import { createNotificationGate, HELD_RECHECK_MS, unmutedEvents } from './gate'
import type { HeldEvent } from './hold'
import type { Notification } from './policy'

const NOON = Date.parse('2025-03-10T12:00:00.000Z')

function watched(projectId: string, over: Partial<WatchedProject> = {}): WatchedProject {
  return { projectId, name: projectId.toUpperCase(), muted: false, addedAt: '2025-01-01T00:00:00.000Z', ...over }
}

/** A total budget of $10 on each project (id "total-<project>"). */
function totals(...projectIds: string[]): Budget[] {
  return projectIds.map((projectId) => ({
    id: `total-${projectId}`,
    projectId,
    period: 'total',
    limitUsd: 10,
    warnRatio: 0.8
  }))
}

type BudgetEvent = Extract<HeldEvent, { kind: 'budget' }>
type UnusualEvent = Extract<HeldEvent, { kind: 'task-cost-unusual' }>
type WaitingEvent = Extract<HeldEvent, { kind: 'agent-waiting' }>

function rig(tz: number | ((at: Date) => number) = 0, labelled = false, saved: HeldEvent[] | null = []) {
  const clock = new ManualClock(NOON)
  const settings: Settings = defaultSettings()
  settings.connections = [
    { id: 'c1', name: 'Work', baseUrl: 'https://a.example', publishingDomain: '' },
    { id: 'c2', name: 'Home', baseUrl: 'https://b.example', publishingDomain: '' }
  ]
  settings.watched = { c1: [watched('shop'), watched('blog')], c2: [watched('site')] }
  settings.budgets = { c1: totals('shop', 'blog'), c2: totals('site') }
  /** What each task costs now, as the budgets would say: absent is no longer more than usual. */
  const costlyNow = new Map<string, { costUsd: number; usualUsd: number } | 'wait'>()
  /** What a held waiting task asks now, when it differs from what was seen ('wait', answered: null). */
  const waitingNow = new Map<string, Waiting | null | 'wait'>()
  const told: Notification[] = []
  const held: HeldEvent[][] = []
  const errors: unknown[] = []
  const gate = createNotificationGate({
    clock,
    tz,
    settings: () => settings,
    projectName: (c, p) =>
      projectDisplayName(settings.watched[c]?.find((w) => w.projectId === p) ?? { projectId: p, name: '' }),
    connectionLabel: (c) => (labelled ? (settings.connections.find((x) => x.id === c)?.name ?? null) : null),
    accountName: (c) => settings.connections.find((x) => x.id === c)?.name ?? c,
    waitingNow: (e) => (waitingNow.has(e.taskId) ? waitingNow.get(e.taskId)! : e.waiting),
    deliver: (n) => told.push(n),
    onError: (_c, e) => errors.push(e),
    unusualNow: (e) => costlyNow.get(e.taskId) ?? null,
    held: saved === null ? undefined : { read: () => saved, write: (events: HeldEvent[]) => void held.push(events) }
  })
  return { clock, settings, told, errors, gate, held, costlyNow, waitingNow }
}

const completed = (connectionId: string, projectId: string, taskId = 't1'): MonitorEvent => ({
  kind: 'task-status',
  connectionId,
  projectId,
  at: new Date(NOON).toISOString(),
  taskId,
  taskName: `Task ${taskId}`,
  from: 'in_progress',
  to: 'completed'
})

const over = (connectionId: string, projectId: string): BudgetEvent => ({
  kind: 'budget',
  level: 'over',
  connectionId,
  projectId,
  at: new Date(NOON).toISOString(),
  budgetId: `total-${projectId}`,
  period: 'total',
  periodKey: 'total',
  spentUsd: 10.5,
  budgetUsd: 10
})

const costly = (connectionId: string, projectId: string, taskId = 'r1', costUsd = 4): UnusualEvent => ({
  kind: 'task-cost-unusual',
  connectionId,
  projectId,
  at: new Date(NOON).toISOString(),
  taskId,
  taskName: `Task ${taskId}`,
  costUsd,
  usualUsd: 1
})

const QUIET_TILL_1300 = {
  ...DEFAULT_NOTIFICATION_PREFS,
  unusualCost: true,
  quietHours: { enabled: true, start: '11:00', end: '13:00' }
}

describe('the notification gate', () => {
  it('tells a round when nothing holds it back, with each project named as everywhere', () => {
    const r = rig()
    r.gate.announce('c1', { events: [completed('c1', 'shop')], away: false })
    expect(r.told).toEqual([
      {
        kind: 'task',
        title: 'Task completed',
        body: "SHOP: 'Task t1' completed",
        connectionId: 'c1',
        projectId: 'shop',
        taskId: 't1',
        outcome: 'completed'
      }
    ])
  })

  it('names the account in the title when there are several', () => {
    const r = rig(0, true)
    r.gate.announce('c2', { events: [completed('c2', 'site')], away: false })
    expect(r.told).toMatchObject([{ title: 'Task completed · Home', connectionId: 'c2', projectId: 'site' }])
  })

  it('leaves out muted projects, held or not', () => {
    const r = rig()
    r.settings.watched.c1 = [watched('shop', { muted: true }), watched('blog')]
    r.gate.announce('c1', {
      events: [completed('c1', 'shop'), over('c1', 'shop'), completed('c1', 'blog', 't2')],
      away: false
    })
    expect(r.told.map((n) => n.body)).toEqual(["BLOG: 'Task t2' completed"])
  })

  it('stays silent while paused, and speaks once the pause is over', () => {
    const r = rig()
    r.settings.notifications = { ...DEFAULT_NOTIFICATION_PREFS, pausedUntil: new Date(NOON + 60_000).toISOString() }
    expect(r.gate.heldBack()).toBe(true)
    r.gate.announce('c1', { events: [completed('c1', 'shop')], away: false })
    expect(r.told).toEqual([])
    r.settings.notifications = { ...DEFAULT_NOTIFICATION_PREFS, pausedUntil: new Date(NOON - 1).toISOString() }
    expect(r.gate.heldBack()).toBe(false)
    r.gate.announce('c1', { events: [completed('c1', 'shop')], away: false })
    expect(r.told).toHaveLength(1)
  })

  it('stays silent in quiet hours, in the given time zone', () => {
    const quiet = { ...DEFAULT_NOTIFICATION_PREFS, quietHours: { enabled: true, start: '22:00', end: '07:00' } }
    // 12:00 UTC is 23:00 at UTC+11: quiet; at UTC it is noon.
    const east = rig(660)
    east.settings.notifications = quiet
    east.gate.announce('c1', { events: [completed('c1', 'shop')], away: false })
    expect(east.told).toEqual([])
    const utc = rig(0)
    utc.settings.notifications = quiet
    utc.gate.announce('c1', { events: [completed('c1', 'shop')], away: false })
    expect(utc.told).toHaveLength(1)
  })

  it('keeps budget crossings seen while held back and tells them once allowed, by the minute check, per connection', async () => {
    const r = rig()
    r.settings.notifications = { ...DEFAULT_NOTIFICATION_PREFS, pausedUntil: new Date(NOON + 90_000).toISOString() }
    r.gate.announce('c1', { events: [completed('c1', 'shop'), over('c1', 'shop')], away: false })
    r.gate.announce('c2', { events: [over('c2', 'site')], away: false })
    await r.clock.advance(HELD_RECHECK_MS)
    expect(r.told).toEqual([])
    await r.clock.advance(HELD_RECHECK_MS)
    // The task news of the paused round is gone; both crossings are told, each with its own project's name.
    expect(r.told.map((n) => n.title)).toEqual([
      "Budget reached: project 'SHOP', total",
      "Budget reached: project 'SITE', total"
    ])
    await r.clock.advance(HELD_RECHECK_MS * 3)
    expect(r.told).toHaveLength(2)
  })

  it('drops a held crossing that no longer holds: the budget changed meanwhile', async () => {
    const r = rig()
    r.settings.notifications = { ...DEFAULT_NOTIFICATION_PREFS, pausedUntil: new Date(NOON + 30_000).toISOString() }
    r.gate.announce('c1', { events: [over('c1', 'shop')], away: false })
    r.settings.budgets.c1 = [{ ...totals('shop')[0]!, limitUsd: 50 }]
    await r.clock.advance(HELD_RECHECK_MS)
    expect(r.told).toEqual([])
  })

  it('drops a held crossing whose project is no longer watched, and tells the one still watched', async () => {
    const r = rig()
    r.settings.notifications = { ...DEFAULT_NOTIFICATION_PREFS, pausedUntil: new Date(NOON + 30_000).toISOString() }
    r.gate.announce('c1', { events: [over('c1', 'shop'), over('c1', 'blog')], away: false })
    // The user stops watching "shop" while notifications are paused.
    r.settings.watched.c1 = [watched('blog')]
    await r.clock.advance(HELD_RECHECK_MS)
    expect(r.told.map((n) => n.title)).toEqual(["Budget reached: project 'BLOG', total"])
  })

  it('drops the held crossings of an account removed meanwhile (its projects and budgets gone), and tells the others', async () => {
    const r = rig()
    r.settings.notifications = { ...DEFAULT_NOTIFICATION_PREFS, pausedUntil: new Date(NOON + 30_000).toISOString() }
    r.settings.budgets.c2 = [
      ...totals('site'),
      { id: 'all-c2', projectId: null, period: 'total', limitUsd: 10, warnRatio: 0.8 }
    ]
    r.gate.announce('c1', { events: [over('c1', 'shop')], away: false })
    r.gate.announce('c2', {
      events: [over('c2', 'site'), { ...over('c2', 'site'), projectId: null, budgetId: 'all-c2' }],
      away: false
    })
    r.settings.connections = r.settings.connections.filter((c) => c.id !== 'c2')
    delete r.settings.watched.c2
    delete r.settings.budgets.c2
    await r.clock.advance(HELD_RECHECK_MS)
    expect(r.told.map((n) => n.title)).toEqual(["Budget reached: project 'SHOP', total"])
    expect(r.held.at(-1)).toEqual([])
  })

  it('a muted account is told nothing; a paused account waits while the others are told', async () => {
    const r = rig()
    r.settings.connectionNotifications = { c2: { muted: true, pausedUntil: null } }
    r.gate.announce('c2', { events: [completed('c2', 'site'), over('c2', 'site')], away: false })
    expect(r.told).toEqual([])
    r.settings.connectionNotifications = { c2: { muted: false, pausedUntil: new Date(NOON + 90_000).toISOString() } }
    r.gate.announce('c2', { events: [completed('c2', 'site'), over('c2', 'site')], away: false })
    r.gate.announce('c1', { events: [completed('c1', 'shop')], away: false })
    expect(r.told.map((n) => [n.kind, n.projectId])).toEqual([['task', 'shop']])
    await r.clock.advance(HELD_RECHECK_MS)
    expect(r.told).toHaveLength(1)
    // Once the pause is over, the held budget crossing is told; the task news of the paused round is not.
    await r.clock.advance(HELD_RECHECK_MS)
    expect(r.told.map((n) => [n.kind, n.projectId])).toEqual([
      ['task', 'shop'],
      ['budget', 'site']
    ])
  })

  it('looks again no more after dispose', async () => {
    const r = rig()
    r.settings.notifications = { ...DEFAULT_NOTIFICATION_PREFS, pausedUntil: new Date(NOON + 30_000).toISOString() }
    r.gate.announce('c1', { events: [over('c1', 'shop')], away: false })
    r.gate.dispose()
    await r.clock.advance(HELD_RECHECK_MS * 2)
    expect(r.told).toEqual([])
  })

  it('saves what it holds and tells it after a restart, once quiet hours are over', async () => {
    const first = rig()
    first.settings.notifications = {
      ...DEFAULT_NOTIFICATION_PREFS,
      quietHours: { enabled: true, start: '11:00', end: '13:00' }
    }
    first.gate.announce('c1', { events: [over('c1', 'shop')], away: false })
    expect(first.told).toEqual([])
    const saved = first.held.at(-1)!
    expect(saved).toEqual([over('c1', 'shop')])
    first.gate.dispose()

    // A new run, still in quiet hours: it waits; once they end, it is told, and nothing is left saved.
    const second = rig(0, false, saved)
    second.settings.notifications = first.settings.notifications
    await second.clock.advance(HELD_RECHECK_MS)
    expect(second.told).toEqual([])
    await second.clock.advance(60 * 60_000)
    expect(second.told.map((n) => n.title)).toEqual(["Budget reached: project 'SHOP', total"])
    expect(second.held.at(-1)).toEqual([])
  })

  it('keeps a task costing more than usual seen in quiet hours, and tells it once they end with what it costs then', async () => {
    const r = rig()
    r.settings.notifications = QUIET_TILL_1300
    r.costlyNow.set('r1', { costUsd: 4, usualUsd: 1 })
    r.gate.announce('c1', { events: [costly('c1', 'shop')], away: false })
    expect(r.told).toEqual([])
    expect(r.held.at(-1)).toEqual([costly('c1', 'shop')])
    r.costlyNow.set('r1', { costUsd: 6.5, usualUsd: 1.5 })
    await r.clock.advance(HELD_RECHECK_MS * 60)
    expect(r.told).toEqual([
      {
        kind: 'cost',
        connectionId: 'c1',
        projectId: 'shop',
        taskId: 'r1',
        title: 'Costing more than usual',
        body: "SHOP: 'Task r1' has cost $6.50 so far; its completed tasks cost $1.50 (median)."
      }
    ])
    expect(r.held.at(-1)).toEqual([])
    await r.clock.advance(HELD_RECHECK_MS * 3)
    expect(r.told).toHaveLength(1)
  })

  it('drops a held costly task that ended or came back to usual, or whose project was muted, meanwhile', async () => {
    const r = rig()
    r.settings.notifications = QUIET_TILL_1300
    r.gate.announce('c1', {
      events: [costly('c1', 'shop', 'ended'), costly('c1', 'blog', 'muted'), costly('c1', 'shop', 'kept')],
      away: false
    })
    r.costlyNow.set('muted', { costUsd: 4, usualUsd: 1 })
    r.costlyNow.set('kept', { costUsd: 4, usualUsd: 1 })
    r.settings.watched.c1 = [watched('shop'), watched('blog', { muted: true })]
    await r.clock.advance(HELD_RECHECK_MS * 60)
    expect(r.told.map((n) => n.taskId)).toEqual(['kept'])
    expect(r.held.at(-1)).toEqual([])
  })

  it('keeps a held costly task waiting while whether it still costs more is not known (its project not listed yet)', async () => {
    const r = rig()
    r.settings.notifications = QUIET_TILL_1300
    r.gate.announce('c1', { events: [costly('c1', 'shop')], away: false })
    r.costlyNow.set('r1', 'wait')
    await r.clock.advance(HELD_RECHECK_MS * 60)
    expect(r.told).toEqual([])
    expect(r.held.at(-1)).toEqual([costly('c1', 'shop')])
    r.costlyNow.set('r1', { costUsd: 5, usualUsd: 1 })
    await r.clock.advance(HELD_RECHECK_MS)
    expect(r.told.map((n) => [n.kind, n.taskId])).toEqual([['cost', 'r1']])
  })

  it('a costly task of a paused account waits for the pause; of a muted account or project it is not told at all', async () => {
    const r = rig()
    r.settings.notifications = { ...DEFAULT_NOTIFICATION_PREFS, unusualCost: true }
    r.costlyNow
      .set('r1', { costUsd: 4, usualUsd: 1 })
      .set('r2', { costUsd: 4, usualUsd: 1 })
      .set('r3', { costUsd: 4, usualUsd: 1 })
    r.settings.watched.c1 = [watched('shop', { muted: true }), watched('blog')]
    r.settings.connectionNotifications = { c2: { muted: false, pausedUntil: new Date(NOON + 90_000).toISOString() } }
    r.gate.announce('c1', { events: [costly('c1', 'shop', 'r1')], away: false })
    r.gate.announce('c2', { events: [costly('c2', 'site', 'r2')], away: false })
    expect(r.told).toEqual([])
    await r.clock.advance(HELD_RECHECK_MS * 2)
    expect(r.told.map((n) => [n.kind, n.taskId])).toEqual([['cost', 'r2']])
    r.settings.connectionNotifications = { c2: { muted: true, pausedUntil: null } }
    r.gate.announce('c2', { events: [costly('c2', 'site', 'r3')], away: false })
    expect(r.told).toHaveLength(1)
  })

  it('a costly task held in quiet hours is saved, and told after a restart once they are over', async () => {
    const first = rig()
    first.settings.notifications = QUIET_TILL_1300
    first.gate.announce('c1', { events: [costly('c1', 'shop')], away: false })
    const saved = first.held.at(-1)!
    expect(saved).toEqual([costly('c1', 'shop')])
    first.gate.dispose()

    const second = rig(0, false, saved)
    second.settings.notifications = QUIET_TILL_1300
    second.costlyNow.set('r1', { costUsd: 4, usualUsd: 1 })
    await second.clock.advance(HELD_RECHECK_MS)
    expect(second.told).toEqual([])
    await second.clock.advance(60 * 60_000)
    expect(second.told.map((n) => n.title)).toEqual(['Costing more than usual'])
  })

  it('reads quiet hours in a time zone that changes (an offset per instant)', () => {
    const quiet = { ...DEFAULT_NOTIFICATION_PREFS, quietHours: { enabled: true, start: '22:00', end: '07:00' } }
    // UTC+11 at this instant: 23:00, quiet.
    const r = rig((at) => (at.getTime() === NOON ? 660 : 0))
    r.settings.notifications = quiet
    expect(r.gate.heldBack()).toBe(true)
  })

  it('holds and tells without a store for what it holds (kept in memory only)', async () => {
    const r = rig(0, false, null)
    // Nothing waits yet: no look again.
    expect(r.clock.pending).toBe(0)
    r.settings.notifications = QUIET_TILL_1300
    r.gate.announce('c1', { events: [over('c1', 'shop')], away: false })
    expect(r.told).toEqual([])
    await r.clock.advance(HELD_RECHECK_MS * 61)
    expect(r.told.map((n) => n.title)).toEqual(["Budget reached: project 'SHOP', total"])
  })

  it('looks again once a minute only while something waits, one look at a time', async () => {
    const r = rig()
    r.settings.notifications = QUIET_TILL_1300
    // Held back, but nothing that waits (task news is not kept): no look again.
    r.gate.announce('c1', { events: [completed('c1', 'shop')], away: false })
    expect(r.clock.pending).toBe(0)
    r.gate.announce('c1', { events: [over('c1', 'shop')], away: false })
    r.gate.announce('c2', { events: [over('c2', 'site')], away: false })
    expect(r.clock.pending).toBe(1)
    expect(r.clock.nextAt()).toBe(NOON + HELD_RECHECK_MS)
    // Once told, nothing waits: no more looks.
    r.settings.notifications = DEFAULT_NOTIFICATION_PREFS
    await r.clock.advance(HELD_RECHECK_MS)
    expect(r.told).toHaveLength(2)
    expect(r.clock.pending).toBe(0)
    // Allowed, nothing held: no look either.
    r.gate.announce('c1', { events: [completed('c1', 'shop')], away: false })
    expect(r.clock.pending).toBe(0)
  })

  it('leaves no look pending after dispose, and sets none for what is held later', () => {
    const r = rig()
    r.settings.notifications = QUIET_TILL_1300
    r.gate.announce('c1', { events: [over('c1', 'shop')], away: false })
    expect(r.clock.pending).toBe(1)
    r.gate.dispose()
    expect(r.clock.pending).toBe(0)
    r.gate.announce('c1', { events: [over('c1', 'blog')], away: false })
    expect(r.clock.pending).toBe(0)
  })

  it('wants nothing of a muted account, for the desktop or for forwarding', () => {
    const settings = defaultSettings()
    settings.connectionNotifications = { c1: { muted: true, pausedUntil: null } }
    expect(unmutedEvents(settings, 'c1', [completed('c1', 'shop')])).toEqual([])
    expect(unmutedEvents(settings, 'c2', [completed('c2', 'site')])).toHaveLength(1)
  })

  it('drops a held crossing of an account muted meanwhile, and tells a held account-wide one', async () => {
    const r = rig()
    r.settings.notifications = QUIET_TILL_1300
    r.settings.budgets.c1 = [
      ...totals('shop', 'blog'),
      { id: 'all-c1', projectId: null, period: 'total', limitUsd: 10, warnRatio: 0.8 }
    ]
    const accountWide: BudgetEvent = { ...over('c1', 'shop'), projectId: null, budgetId: 'all-c1' }
    r.gate.announce('c1', { events: [accountWide], away: false })
    r.gate.announce('c2', { events: [over('c2', 'site')], away: false })
    r.settings.connectionNotifications = { c2: { muted: true, pausedUntil: null } }
    r.settings.notifications = { ...DEFAULT_NOTIFICATION_PREFS }
    await r.clock.advance(HELD_RECHECK_MS)
    expect(r.told.map((n) => n.title)).toEqual(['Budget reached: all watched projects, total'])
  })

  it('tells a held crossing by its own budget when another budget of the account changed', async () => {
    const r = rig()
    r.settings.notifications = QUIET_TILL_1300
    r.gate.announce('c1', { events: [over('c1', 'blog')], away: false })
    // The shop's budget is raised meanwhile; the blog's, whose crossing waits, is not.
    r.settings.budgets.c1 = [{ ...totals('shop')[0]!, limitUsd: 50 }, ...totals('blog')]
    r.settings.notifications = { ...DEFAULT_NOTIFICATION_PREFS }
    await r.clock.advance(HELD_RECHECK_MS)
    expect(r.told.map((n) => n.title)).toEqual(["Budget reached: project 'BLOG', total"])
  })

  it('reports a round it cannot put in words, tells nothing of it, and goes on', () => {
    const r = rig()
    let broken = true
    const gate = createNotificationGate({
      clock: r.clock,
      tz: 0,
      settings: () => r.settings,
      projectName: (_c, p) => {
        if (broken) throw new Error('no name')
        return p
      },
      connectionLabel: () => null,
      accountName: (c) => c,
      deliver: (n) => r.told.push(n),
      onError: (context, e) => r.errors.push([context, (e as Error).message]),
      unusualNow: () => null
    })
    gate.announce('c1', { events: [completed('c1', 'shop')], away: false })
    expect(r.told).toEqual([])
    expect(r.errors).toEqual([['deciding notifications', 'no name']])
    broken = false
    gate.announce('c1', { events: [completed('c1', 'shop')], away: false })
    expect(r.told).toHaveLength(1)
  })
})

describe('a task of another service waiting for you', () => {
  const asks = (connectionId: string, taskId = 'j1', text: string | null = 'Plan: add a toggle'): WaitingEvent => ({
    kind: 'agent-waiting',
    connectionId,
    projectId: '',
    at: new Date(NOON).toISOString(),
    service: 'jules',
    serviceName: 'Jules',
    taskId,
    taskName: 'Add dark mode',
    url: 'https://jules.example/task/j1',
    waiting: { kind: 'plan_approval', text, where: null }
  })
  const endedAgentTask = (connectionId: string): MonitorEvent => ({
    ...asks(connectionId, 'j2'),
    kind: 'agent-status',
    from: 'running',
    to: 'completed',
    serviceStatus: 'COMPLETED'
  })

  it('is told at once with the account in its body (never again in the title), and opens the task', () => {
    const r = rig(0, true)
    r.gate.announce('c2', { events: [asks('c2')], away: false })
    expect(r.told).toEqual([
      {
        kind: 'waiting',
        title: "Jules needs you: approve the plan for 'Add dark mode'",
        body: 'Home: Plan: add a toggle',
        connectionId: 'c2',
        projectId: '',
        taskId: 'j1',
        outcome: 'waiting',
        service: 'jules'
      }
    ])
  })

  it('is told with "only failures" chosen, and not with its own toggle off', () => {
    const r = rig()
    const onlyFailures = { started: false, completed: false, failed: true, cancelled: false, waiting: true }
    r.settings.notifications = { ...DEFAULT_NOTIFICATION_PREFS, transitions: onlyFailures }
    r.gate.announce('c1', { events: [asks('c1'), endedAgentTask('c1')], away: false })
    expect(r.told.map((n) => n.kind)).toEqual(['waiting'])
    r.settings.notifications = { ...DEFAULT_NOTIFICATION_PREFS, transitions: { ...onlyFailures, waiting: false } }
    r.gate.announce('c1', { events: [asks('c1', 'j3')], away: false })
    expect(r.told).toHaveLength(1)
  })

  it('waits out quiet hours and a pause, kept across a restart, and is told then if the task still waits', async () => {
    const r = rig()
    r.settings.notifications = QUIET_TILL_1300
    r.gate.announce('c1', { events: [asks('c1', 'j1'), asks('c1', 'j2'), endedAgentTask('c1')], away: false })
    expect(r.told).toEqual([])
    const saved = r.held.at(-1)!
    expect(saved.map((e) => e.kind)).toEqual(['agent-waiting', 'agent-waiting'])
    // Restarted after the quiet hours with what was held: j1 was answered meanwhile, j2 asks something newer.
    const after = rig(0, false, saved)
    after.waitingNow.set('j1', null)
    after.waitingNow.set('j2', { kind: 'question', text: 'Which colour?', where: null })
    await after.clock.advance(HELD_RECHECK_MS)
    expect(after.told.map((n) => [n.taskId, n.title, n.body])).toEqual([
      ['j2', "Jules needs you: answer a question on 'Add dark mode'", 'Work: Which colour?']
    ])
  })

  it("keeps waiting while its account is not polled yet; a muted account's is dropped, a paused one's waits", async () => {
    const r = rig()
    r.settings.connectionNotifications = { c2: { muted: false, pausedUntil: new Date(NOON + 90_000).toISOString() } }
    r.gate.announce('c2', { events: [asks('c2')], away: false })
    r.gate.announce('c1', { events: [asks('c1', 'j9')], away: false })
    expect(r.told.map((n) => n.taskId)).toEqual(['j9'])
    r.waitingNow.set('j1', 'wait')
    await r.clock.advance(2 * HELD_RECHECK_MS)
    expect(r.told).toHaveLength(1)
    r.waitingNow.delete('j1')
    await r.clock.advance(HELD_RECHECK_MS)
    expect(r.told.map((n) => n.taskId)).toEqual(['j9', 'j1'])

    const muted = rig()
    muted.settings.notifications = QUIET_TILL_1300
    muted.gate.announce('c2', { events: [asks('c2')], away: false })
    muted.settings.connectionNotifications = { c2: { muted: true, pausedUntil: null } }
    muted.settings.notifications = { ...DEFAULT_NOTIFICATION_PREFS }
    await muted.clock.advance(HELD_RECHECK_MS)
    expect(muted.told).toEqual([])
    muted.gate.announce('c2', { events: [asks('c2', 'j5')], away: false })
    expect(muted.told).toEqual([])
  })
})
