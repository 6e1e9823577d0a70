// The forwarded event each monitor event stands for: its identity (the idempotency key, the same
// across runs and different between what differs), its words, and its facts.
import { describe, expect, it } from 'vitest'
import type { MonitorEvent } from '../../shared/monitor'
import { eventId, testEvent, toForwardEvent } from './event'
import { agentEnded, agentWaits, NAMES, taskEnded } from './test-events'
import { webhookBody } from './webhook-body'

const AT = Date.UTC(2026, 10, 27, 9, 5)
const names = { projectName: (c: string, p: string) => `project ${c}/${p}`, accountName: (c: string) => `account ${c}` }

const budget = (over: Partial<Extract<MonitorEvent, { kind: 'budget' }>> = {}): MonitorEvent =>
  ({
    kind: 'budget',
    connectionId: 'c1',
    projectId: 'p1',
    budgetId: 'b1',
    period: 'month',
    periodKey: '2026-11',
    level: 'over',
    spentUsd: 12.5,
    budgetUsd: 10,
    at: '2026-11-27T09:05:00.000Z',
    ...over
  }) as MonitorEvent

describe('eventId', () => {
  it('a 32-hex digest of the identity, its parts kept apart', () => {
    expect(eventId('a', 'b')).toMatch(/^[0-9a-f]{32}$/)
    expect(eventId('a', 'b')).toBe(eventId('a', 'b'))
    expect(eventId('ab', 'c')).not.toBe(eventId('a', 'bc'))
    expect(eventId('a', 'b')).not.toBe(eventId('ab'))
  })
})

describe('a budget event', () => {
  it("a project's budget: its identity, words and facts", () => {
    expect(toForwardEvent(budget(), names, AT)).toEqual({
      id: eventId('c1', 'budget', 'b1', '2026-11', 'over'),
      kind: 'budget',
      at: '2026-11-27T09:05:00.000Z',
      title: "Budget reached: project 'project c1/p1', monthly",
      text: '$12.50 spent in 2026-11 of a $10.00 budget.',
      account: { id: 'c1', name: 'account c1' },
      project: { id: 'p1', name: 'project c1/p1' },
      task: null,
      budget: { id: 'b1', period: 'month', periodKey: '2026-11', level: 'over', spentUsd: 12.5, budgetUsd: 10 },
      links: { app: 'agent-tray://projects/p1' }
    })
  })

  it("an agent account's per-unit budget: its amounts in its unit, never as USD, the budget's identity", () => {
    const unitBudget: MonitorEvent = {
      kind: 'unit-budget',
      connectionId: 'd1',
      projectId: null,
      at: '2026-11-27T09:05:00.000Z',
      budgetId: 'u1',
      unit: 'ACU',
      period: 'month',
      periodKey: '2026-11',
      level: 'near',
      spent: 85,
      limit: 100
    }
    const e = toForwardEvent(unitBudget, names, AT)!
    expect(e).toMatchObject({
      id: eventId('d1', 'budget', 'u1', '2026-11', 'near'),
      kind: 'budget',
      title: 'Nearing the monthly ACU budget of account d1',
      text: '85 ACU spent in 2026-11 of a 100 ACU budget.',
      project: null,
      budget: null,
      unitBudget: { id: 'u1', unit: 'ACU', period: 'month', periodKey: '2026-11', level: 'near', spent: 85, limit: 100 }
    })
    expect(webhookBody(e)).toMatchObject({
      budget: null,
      unit_budget: { id: 'u1', unit: 'ACU', period_key: '2026-11', level: 'near', spent: 85, limit: 100 }
    })
    // Every other event says no per-unit budget.
    expect(webhookBody(toForwardEvent(budget(), names, AT)!).unit_budget).toBeNull()
  })

  it("the account's budget has no project, and links to the projects", () => {
    const e = toForwardEvent(budget({ projectId: null, level: 'near' }), names, AT)!
    expect(e.project).toBeNull()
    expect(e.title).toContain('all watched projects')
    expect(e.links).toEqual({ app: 'agent-tray://projects' })
    expect(e.id).toBe(eventId('c1', 'budget', 'b1', '2026-11', 'near'))
  })
})

describe('a task event', () => {
  it('an ended task: its identity by transition, how long it ran, its cost', () => {
    expect(toForwardEvent(taskEnded('t1', 'completed'), NAMES, AT)).toEqual({
      id: eventId('c1', 'p1', 't1', 'completed'),
      kind: 'completed',
      at: '2026-11-27T09:05:00.000Z',
      title: 'Task completed',
      text: "Recipe Box: 'Add a contact form' completed in 4 m 00 s · $0.57",
      account: { id: 'c1', name: 'Work' },
      project: { id: 'p1', name: 'Recipe Box' },
      task: { id: 't1', name: 'Add a contact form', status: 'completed', costUsd: 0.57, durationMs: 240_000 },
      budget: null,
      links: { app: 'agent-tray://projects/p1/tasks/t1' }
    })
  })

  it('a run time only from both times, and never negative', () => {
    const without = { ...taskEnded('t1'), createdAt: undefined } as MonitorEvent
    expect(toForwardEvent(without, NAMES, AT)!.task!.durationMs).toBeNull()
    const noEnd = { ...taskEnded('t1'), updatedAt: undefined } as MonitorEvent
    expect(toForwardEvent(noEnd, NAMES, AT)!.task!.durationMs).toBeNull()
    const backwards = { ...taskEnded('t1'), createdAt: '2026-11-27T09:10:00.000Z' } as MonitorEvent
    expect(toForwardEvent(backwards, NAMES, AT)!.task!.durationMs).toBeNull()
    const instant = { ...taskEnded('t1'), createdAt: '2026-11-27T09:04:00.000Z' } as MonitorEvent
    expect(toForwardEvent(instant, NAMES, AT)!.task!.durationMs).toBe(0)
  })

  it('a task added already ended is forwarded; one started, a step, a price are not', () => {
    const added = {
      kind: 'task-added',
      connectionId: 'c1',
      projectId: 'p1',
      taskId: 't9',
      taskName: 'x',
      status: 'failed',
      at: '2026-11-27T09:05:00.000Z'
    } as MonitorEvent
    expect(toForwardEvent(added, NAMES, AT)).toMatchObject({
      kind: 'failed',
      task: { id: 't9', costUsd: null, durationMs: null }
    })
    expect(toForwardEvent({ ...added, status: 'in_progress' } as MonitorEvent, NAMES, AT)).toBeNull()
    expect(
      toForwardEvent({ ...taskEnded('t1'), from: 'todo', to: 'in_progress' } as MonitorEvent, NAMES, AT)
    ).toBeNull()
    const step = {
      kind: 'step-status',
      connectionId: 'c1',
      projectId: 'p1',
      taskId: 't1',
      stepId: 's1',
      stepName: 's',
      from: 'in_progress',
      to: 'failed',
      at: ''
    } as MonitorEvent
    expect(toForwardEvent(step, NAMES, AT)).toBeNull()
    expect(
      toForwardEvent(
        {
          kind: 'task-price',
          connectionId: 'c1',
          projectId: 'p1',
          taskId: 't1',
          taskName: 'x',
          from: 1,
          to: 2,
          at: ''
        } as MonitorEvent,
        NAMES,
        AT
      )
    ).toBeNull()
  })

  it('a task costing more than usual', () => {
    const unusual = {
      kind: 'task-cost-unusual',
      connectionId: 'c1',
      projectId: 'p1',
      taskId: 't1',
      taskName: 'Big',
      costUsd: 9,
      usualUsd: 2,
      at: ''
    } as MonitorEvent
    expect(toForwardEvent(unusual, NAMES, AT)).toEqual({
      id: eventId('c1', 'p1', 't1', 'unusual'),
      kind: 'unusual',
      at: '2026-11-27T09:05:00.000Z',
      title: 'Costing more than usual',
      text: "Recipe Box: 'Big' has cost $9.00 so far; its completed tasks cost $2.00 (median).",
      account: { id: 'c1', name: 'Work' },
      project: { id: 'p1', name: 'Recipe Box' },
      task: { id: 't1', name: 'Big', status: 'in_progress', costUsd: 9, durationMs: null },
      budget: null,
      links: { app: 'agent-tray://projects/p1/tasks/t1' }
    })
  })
})

it('the test message: its own identity each time', () => {
  expect(testEvent(AT, 'n1')).toEqual({
    id: eventId('test', 'n1'),
    kind: 'test',
    at: '2026-11-27T09:05:00.000Z',
    title: 'Agent Tray test',
    text: 'This target receives what Agent Tray forwards.',
    account: { id: '', name: '' },
    project: null,
    task: null,
    budget: null,
    links: { app: 'agent-tray://projects' }
  })
  expect(testEvent(AT, 'n2').id).not.toBe(testEvent(AT, 'n1').id)
})

describe("another service's task", () => {
  it('waiting: one identity per question, the same on every run; its words as the notification says them', () => {
    const first = toForwardEvent(agentWaits('Which colour?'), NAMES, AT)!
    expect(toForwardEvent(agentWaits('Which colour?'), NAMES, AT + 60_000)!.id).toBe(first.id)
    expect(first.id).toBe(eventId('c1', 'agent', 'j1', 'waiting', 'plan_approval', 'Which colour?'))
    expect(toForwardEvent(agentWaits('Which size?'), NAMES, AT)!.id).not.toBe(first.id)
    expect(first).toMatchObject({
      kind: 'waiting',
      title: "Jules needs you: approve the plan for 'Add dark mode'",
      text: 'Work: Which colour?',
      account: { id: 'c1', name: 'Work' },
      service: { kind: 'jules', name: 'Jules' },
      waiting: { kind: 'plan_approval', text: 'Which colour?' },
      task: { id: 'j1', name: 'Add dark mode', status: 'waiting', costUsd: null, durationMs: null },
      budget: null,
      links: { app: 'agent-tray://projects' }
    })
  })

  it('a page that is not a safe http(s) address is not sent', () => {
    for (const url of ['javascript:alert(1)', 'https://u:p@jules.example/x', 'https://jules.example/a b', null])
      expect(toForwardEvent(agentWaits('Q', url), NAMES, AT)!.task!.url, String(url)).toBeNull()
  })

  it('ended: forwarded as a watched task ends, naming the service and account; a status that is no end is not', () => {
    const failed = toForwardEvent(agentEnded('failed'), NAMES, AT)!
    expect(failed).toMatchObject({
      id: eventId('c1', 'agent', 'j2', 'failed'),
      kind: 'failed',
      title: 'Task failed',
      text: "Jules · Work: 'Fix the build' failed",
      project: null,
      task: { id: 'j2', status: 'failed', url: 'https://jules.example/session/j2' },
      waiting: null
    })
    expect(toForwardEvent(agentEnded('completed'), NAMES, AT)!.kind).toBe('completed')
    expect(toForwardEvent(agentEnded('running'), NAMES, AT)).toBeNull()
  })
})
