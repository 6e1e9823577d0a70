import { describe, expect, it } from 'vitest'
import { hasUnsafeCharacters } from '../../shared/controls'
import type { MonitorEvent } from '../../shared/monitor'
import { DEFAULT_NOTIFICATION_PREFS, type NotificationPrefs } from '../../shared/settings'
import { projectDisplayName } from '../../shared/watched-project'
import {
  budgetNotification,
  decideNotifications,
  inQuietHours,
  notifiableTransition,
  type NotificationContext,
  taskSentence
} from './policy'

const at = '2025-03-10T12:00:00.000Z'
const base = { connectionId: 'c1', at }

function status(projectId: string, taskId: string, from: string, to: string, taskName = `T${taskId}`): MonitorEvent {
  return { ...base, projectId, kind: 'task-status', taskId, taskName, from: from as never, to: to as never }
}

const NAMES: Record<string, string> = { shop: 'Shop', blog: 'Blog' }
const context = (): NotificationContext => ({
  projectName: (_connectionId, projectId) => projectDisplayName({ projectId, name: NAMES[projectId] ?? '' })
})

const prefs = (over: Partial<NotificationPrefs> = {}): NotificationPrefs => ({ ...DEFAULT_NOTIFICATION_PREFS, ...over })

describe('decideNotifications', () => {
  it('tells of one finished task specifically, targeting it', () => {
    const out = decideNotifications(
      { events: [status('shop', 'a', 'in_progress', 'completed', 'Add login')], away: false },
      prefs(),
      context()
    )
    expect(out).toEqual([
      {
        kind: 'task',
        title: 'Task completed',
        body: "Shop: 'Add login' completed",
        connectionId: 'c1',
        projectId: 'shop',
        taskId: 'a',
        outcome: 'completed'
      }
    ])
  })

  it('says how long a finished task ran and what it cost, a failure first in its title', () => {
    const facts = { createdAt: '2025-03-10T11:56:00.000Z', updatedAt: '2025-03-10T12:00:10.000Z', totalPrice: 0.57 }
    const one = (to: string, over: Partial<MonitorEvent> = {}) =>
      decideNotifications(
        {
          events: [
            { ...status('shop', 'a', 'in_progress', to, 'Add a contact form'), ...facts, ...over } as MonitorEvent
          ],
          away: false
        },
        prefs(),
        {
          projectName: () => 'Recipe Box'
        }
      )[0]
    expect(one('completed')).toMatchObject({
      title: 'Task completed',
      body: "Recipe Box: 'Add a contact form' completed in 4 m 10 s · $0.57",
      outcome: 'completed'
    })
    expect(one('failed')).toMatchObject({
      title: 'Task failed',
      body: "Recipe Box: 'Add a contact form' failed after 4 m 10 s · $0.57",
      outcome: 'failed'
    })
    expect(one('cancelled')).toMatchObject({
      body: "Recipe Box: 'Add a contact form' was cancelled after 4 m 10 s · $0.57"
    })
    // What the service did not say is left out, never guessed.
    expect(one('completed', { totalPrice: null } as Partial<MonitorEvent>)!.body).toBe(
      "Recipe Box: 'Add a contact form' completed in 4 m 10 s"
    )
    expect(one('completed', { updatedAt: 'not a date' } as Partial<MonitorEvent>)!.body).toBe(
      "Recipe Box: 'Add a contact form' completed · $0.57"
    )
    expect(
      one('completed', { createdAt: '2025-03-10T12:00:00.000Z', totalPrice: 0.000123 } as Partial<MonitorEvent>)!.body
    ).toBe("Recipe Box: 'Add a contact form' completed in 10 s · <$0.01")
    expect(one('completed', { createdAt: '2025-03-10T09:55:00.000Z' } as Partial<MonitorEvent>)!.body).toMatch(
      /completed in 2 h 05 m · /
    )
    const away = decideNotifications(
      { events: [{ ...status('shop', 'a', 'in_progress', 'failed', 'X'), ...facts } as MonitorEvent], away: true },
      prefs(),
      context()
    )
    expect(away[0]).toMatchObject({
      kind: 'away',
      title: 'While you were away: task failed',
      body: "Shop: 'X' failed after 4 m 10 s · $0.57"
    })
  })

  it('follows each transition toggle; started is off by default', () => {
    const events = [
      status('shop', 'a', 'in_progress', 'completed'),
      status('shop', 'b', 'in_progress', 'failed'),
      status('shop', 'c', 'todo', 'cancelled'),
      status('shop', 'd', 'todo', 'in_progress')
    ]
    const count = (p: NotificationPrefs) => {
      const [n] = decideNotifications({ events, away: false }, p, context())
      return n?.title ?? null
    }
    expect(count(prefs())).toBe('3 tasks finished: 1 failed, 1 completed, 1 cancelled')
    const t = DEFAULT_NOTIFICATION_PREFS.transitions
    expect(count(prefs({ transitions: { ...t, started: true } }))).toBe(
      '4 task updates: 1 failed, 1 completed, 1 cancelled, 1 started'
    )
    expect(count(prefs({ transitions: { ...t, failed: false, cancelled: false } }))).toBe('Task completed')
    expect(count(prefs({ transitions: { ...t, completed: false, cancelled: false } }))).toBe('Task failed')
    expect(count(prefs({ transitions: { ...t, completed: false, failed: false } }))).toBe('Task cancelled')
    expect(
      count(
        prefs({ transitions: { started: true, completed: false, failed: false, cancelled: false, waiting: false } })
      )
    ).toBe('Task started')
    expect(
      count(
        prefs({ transitions: { started: false, completed: false, failed: false, cancelled: false, waiting: false } })
      )
    ).toBeNull()
  })

  it('ignores steps, prices, health and non-notifying status changes', () => {
    const events: MonitorEvent[] = [
      { ...base, projectId: 'shop', kind: 'step-added', taskId: 'a', stepId: 's', stepName: 's', status: 'pending' },
      { ...base, projectId: 'shop', kind: 'task-price', taskId: 'a', taskName: 'a', from: 0, to: 1 },
      { ...base, projectId: 'shop', kind: 'project-health', health: { state: 'unknown' } },
      status('shop', 'a', 'in_progress', 'todo'),
      status('shop', 'b', 'failed', 'in_progress'),
      { ...base, projectId: 'shop', kind: 'task-added', taskId: 'n', taskName: 'n', status: 'todo' }
    ]
    expect(
      decideNotifications(
        { events, away: false },
        prefs({ transitions: { started: true, completed: true, failed: true, cancelled: true, waiting: true } }),
        context()
      )
    ).toEqual([])
  })

  it('counts a new task that has already ended', () => {
    const out = decideNotifications(
      {
        events: [
          { ...base, projectId: 'blog', kind: 'task-added', taskId: 'n', taskName: 'Fix CSS', status: 'failed' }
        ],
        away: false
      },
      prefs(),
      context()
    )
    expect(out).toMatchObject([{ kind: 'task', title: 'Task failed', body: "Blog: 'Fix CSS' failed", taskId: 'n' }])
  })

  it('coalesces several changes across projects into one summary', () => {
    const out = decideNotifications(
      {
        events: [
          status('shop', 'a', 'in_progress', 'completed'),
          status('blog', 'b', 'in_progress', 'completed'),
          status('shop', 'c', 'in_progress', 'failed')
        ],
        away: false
      },
      prefs(),
      context()
    )
    expect(out).toEqual([
      {
        kind: 'summary',
        title: '3 tasks finished: 1 failed, 2 completed',
        body: "In projects 'Shop', 'Blog'",
        taskIds: ['a', 'b', 'c']
      }
    ])
  })

  it('names every task a summary tells of once, each task by its last change', () => {
    const out = decideNotifications(
      {
        events: [
          status('shop', 'a', 'todo', 'in_progress'),
          status('blog', 'b', 'in_progress', 'cancelled'),
          status('shop', 'a', 'in_progress', 'failed'),
          status('shop', 'x', 'todo', 'in_progress')
        ],
        away: false
      },
      prefs(),
      context()
    )
    // 'x' only started (not told by default); 'a' is told once, by its failure.
    expect(out).toMatchObject([
      { kind: 'summary', title: '2 tasks finished: 1 failed, 1 cancelled', taskIds: ['b', 'a'] }
    ])
  })

  it('keeps only the last change of a task within a round', () => {
    const out = decideNotifications(
      {
        events: [status('shop', 'a', 'todo', 'in_progress'), status('shop', 'a', 'in_progress', 'completed')],
        away: false
      },
      prefs({ transitions: { ...DEFAULT_NOTIFICATION_PREFS.transitions, started: true } }),
      context()
    )
    expect(out).toMatchObject([{ kind: 'task', title: 'Task completed', taskId: 'a' }])
  })

  it('sums up an away round in one notification', () => {
    const events = [
      status('shop', 'a', 'in_progress', 'completed'),
      status('shop', 'b', 'in_progress', 'failed'),
      {
        ...base,
        projectId: 'shop',
        kind: 'step-status',
        taskId: 'a',
        stepId: 's',
        stepName: 's',
        from: 'pending',
        to: 'completed'
      } as MonitorEvent
    ]
    expect(decideNotifications({ events, away: true }, prefs(), context())).toEqual([
      {
        kind: 'away',
        title: 'While you were away',
        body: "2 tasks finished: 1 failed, 1 completed in project 'Shop'",
        connectionId: 'c1',
        projectId: 'shop',
        taskIds: ['a', 'b']
      }
    ])
    expect(decideNotifications({ events: events.slice(0, 1), away: true }, prefs(), context())).toMatchObject([
      { kind: 'away', title: 'While you were away: task completed', body: "Shop: 'Ta' completed", taskId: 'a' }
    ])
  })

  it('announces a budget crossing once, beside the task news', () => {
    const out = decideNotifications(
      {
        events: [
          status('shop', 'a', 'in_progress', 'completed'),
          {
            ...base,
            projectId: 'shop',
            kind: 'budget',
            budgetId: 'b1',
            period: 'day',
            periodKey: '2025-03-10',
            level: 'over',
            spentUsd: 10.5,
            budgetUsd: 10
          },
          {
            ...base,
            projectId: null,
            kind: 'budget',
            budgetId: 'b2',
            period: 'month',
            periodKey: '2025-03',
            level: 'near',
            spentUsd: 80,
            budgetUsd: 100
          }
        ],
        away: false
      },
      prefs(),
      context()
    )
    expect(out).toEqual([
      expect.objectContaining({ kind: 'task' }),
      {
        kind: 'budget',
        connectionId: 'c1',
        projectId: 'shop',
        title: "Budget reached: project 'Shop', daily",
        body: '$10.50 spent on 2025-03-10 of a $10.00 budget.'
      },
      {
        kind: 'budget',
        connectionId: 'c1',
        title: 'Nearing the monthly budget of all watched projects',
        body: '$80.00 spent in 2025-03 of a $100.00 budget.'
      }
    ])
  })

  it('names an account-wide budget as all watched projects, not after any project', () => {
    const out = decideNotifications(
      {
        events: [
          {
            ...base,
            projectId: null,
            kind: 'budget',
            budgetId: 'b2',
            period: 'month',
            periodKey: '2025-03',
            level: 'over',
            spentUsd: 101,
            budgetUsd: 100
          }
        ],
        away: false
      },
      prefs(),
      { projectName: () => 'Recipe Box' }
    )
    expect(out).toEqual([
      {
        kind: 'budget',
        connectionId: 'c1',
        title: 'Budget reached: all watched projects, monthly',
        body: '$101.00 spent in 2025-03 of a $100.00 budget.'
      }
    ])
  })

  it('tells a task costing more than usual only when that notification is on', () => {
    const event = {
      ...base,
      projectId: 'shop',
      kind: 'task-cost-unusual' as const,
      taskId: 'a',
      taskName: 'Ta',
      costUsd: 4,
      usualUsd: 1
    }
    expect(decideNotifications({ events: [event], away: false }, prefs(), context())).toEqual([])
    expect(decideNotifications({ events: [event], away: false }, { ...prefs(), unusualCost: true }, context())).toEqual(
      [
        {
          kind: 'cost',
          connectionId: 'c1',
          projectId: 'shop',
          taskId: 'a',
          title: 'Costing more than usual',
          body: "Shop: 'Ta' has cost $4.00 so far; its completed tasks cost $1.00 (median)."
        }
      ]
    )
  })
})

describe('what a notification says', () => {
  const crossing = {
    ...base,
    projectId: null,
    kind: 'budget' as const,
    budgetId: 'b',
    level: 'over' as const,
    spentUsd: 12,
    budgetUsd: 10
  }
  it("says a budget's period the way it counts: on a day, in a month, in total", () => {
    expect(budgetNotification({ ...crossing, period: 'day', periodKey: '2025-03-10' }, null).body).toBe(
      '$12.00 spent on 2025-03-10 of a $10.00 budget.'
    )
    expect(budgetNotification({ ...crossing, period: 'month', periodKey: '2025-03' }, null).body).toBe(
      '$12.00 spent in 2025-03 of a $10.00 budget.'
    )
    expect(budgetNotification({ ...crossing, period: 'total', periodKey: 'total' }, 'Shop')).toMatchObject({
      title: "Budget reached: project 'Shop', total",
      body: '$12.00 spent in total of a $10.00 budget.'
    })
  })

  it('says only that a task started: no run time or cost yet', () => {
    const change = {
      taskName: 'Add login',
      createdAt: '2025-03-10T11:00:00Z',
      updatedAt: '2025-03-10T11:05:00Z',
      totalPrice: 0.5
    }
    expect(taskSentence({ ...change, transition: 'started' }, 'Shop')).toBe("Shop: 'Add login' started")
    expect(taskSentence({ ...change, transition: 'completed' }, 'Shop')).toBe(
      "Shop: 'Add login' completed in 5 m 00 s · $0.50"
    )
  })

  it('tells of a new task that is already running as started', () => {
    const added: MonitorEvent = {
      ...base,
      projectId: 'shop',
      kind: 'task-added',
      taskId: 'n',
      taskName: 'New',
      status: 'in_progress'
    }
    const started = prefs({ transitions: { ...DEFAULT_NOTIFICATION_PREFS.transitions, started: true } })
    expect(decideNotifications({ events: [added], away: false }, started, context())).toEqual([
      {
        kind: 'task',
        title: 'Task started',
        body: "Shop: 'New' started",
        connectionId: 'c1',
        projectId: 'shop',
        taskId: 'n',
        outcome: 'started'
      }
    ])
  })
})

describe('notifiableTransition', () => {
  // Exported on its own (the forwarder reads it too): a step's status is never a task's transition.
  it("reads a task's status only: a step that ends or starts is no transition", () => {
    const step = { ...base, projectId: 'shop', taskId: 't', stepId: 's', stepName: 'Build' }
    for (const to of ['completed', 'failed', 'cancelled', 'in_progress'] as const) {
      expect(notifiableTransition({ ...step, kind: 'step-added', status: to } as MonitorEvent)).toBeNull()
      expect(notifiableTransition({ ...step, kind: 'step-status', from: 'pending', to } as MonitorEvent)).toBeNull()
    }
    expect(
      notifiableTransition({
        ...base,
        projectId: 'shop',
        kind: 'task-added',
        taskId: 't',
        taskName: 'T',
        status: 'failed'
      })
    ).toBe('failed')
    expect(notifiableTransition(status('shop', 't', 'todo', 'in_progress'))).toBe('started')
    expect(notifiableTransition(status('shop', 't', 'failed', 'in_progress'))).toBeNull()
  })
})

describe('inQuietHours', () => {
  const q = (start: string, end: string) => ({ enabled: true, start, end })
  const atUtc = (hhmm: string) => new Date(`2025-03-10T${hhmm}:00.000Z`)
  it('handles plain and wrapping ranges, end exclusive', () => {
    expect(inQuietHours(q('09:00', '17:00'), atUtc('12:00'), 0)).toBe(true)
    expect(inQuietHours(q('09:00', '17:00'), atUtc('17:00'), 0)).toBe(false)
    expect(inQuietHours(q('09:00', '17:00'), atUtc('09:00'), 0)).toBe(true)
    expect(inQuietHours(q('09:00', '17:00'), atUtc('08:59'), 0)).toBe(false)
    expect(inQuietHours(q('22:00', '07:00'), atUtc('22:00'), 0)).toBe(true)
    expect(inQuietHours(q('22:00', '07:00'), atUtc('21:59'), 0)).toBe(false)
    expect(inQuietHours(q('22:00', '07:00'), atUtc('23:30'), 0)).toBe(true)
    expect(inQuietHours(q('22:00', '07:00'), atUtc('06:59'), 0)).toBe(true)
    expect(inQuietHours(q('22:00', '07:00'), atUtc('07:00'), 0)).toBe(false)
    expect(inQuietHours(q('22:00', '07:00'), atUtc('12:00'), 0)).toBe(false)
    // 20:30 UTC is 22:30 at UTC+2; 02:00 UTC is 21:00 at UTC-5.
    expect(inQuietHours(q('22:00', '07:00'), atUtc('20:30'), 120)).toBe(true)
    expect(inQuietHours(q('22:00', '07:00'), atUtc('02:00'), -300)).toBe(false)
  })

  it('is off when disabled, empty or unreadable', () => {
    expect(inQuietHours({ enabled: false, start: '00:00', end: '23:59' }, atUtc('12:00'), 0)).toBe(false)
    expect(inQuietHours(q('10:00', '10:00'), atUtc('10:00'), 0)).toBe(false)
    expect(inQuietHours(q('25:00', '07:00'), atUtc('03:00'), 0)).toBe(false)
    expect(inQuietHours(q('22:00', '24:30'), atUtc('23:00'), 0)).toBe(false)
  })

  it("reads the host's own clock when no offset is given", () => {
    // Local times, whatever zone the tests run in.
    expect(inQuietHours(q('22:00', '07:00'), new Date(2025, 2, 10, 23, 30))).toBe(true)
    expect(inQuietHours(q('22:00', '07:00'), new Date(2025, 2, 10, 12, 0))).toBe(false)
    expect(inQuietHours(q('09:00', '09:30'), new Date(2025, 2, 10, 9, 29))).toBe(true)
    expect(inQuietHours(q('09:00', '09:30'), new Date(2025, 2, 10, 9, 30))).toBe(false)
  })
})

describe("another service's tasks", () => {
  const agent = { connectionId: 'j', projectId: '', at, service: 'jules', serviceName: 'Jules', url: null }
  const agentContext = (): NotificationContext => ({ ...context(), accountName: (c) => (c === 'j' ? 'Personal' : c) })
  const waits = (
    taskId: string,
    kind: 'plan_approval' | 'question' | 'permission',
    text: string | null
  ): MonitorEvent => ({
    ...agent,
    kind: 'agent-waiting',
    taskId,
    taskName: 'Add dark mode',
    waiting: { kind, text, where: null }
  })
  const moves = (taskId: string, from: string | null, to: string): MonitorEvent =>
    ({
      ...agent,
      kind: 'agent-status',
      taskId,
      taskName: `T${taskId}`,
      from,
      to,
      serviceStatus: to.toUpperCase()
    }) as MonitorEvent

  it('a task waiting says the service, what to do and on which task; its body the account and what is asked', () => {
    const one = (e: MonitorEvent) => decideNotifications({ events: [e], away: false }, prefs(), agentContext())
    expect(one(waits('a', 'plan_approval', '  Plan:\n1. Add a toggle\n2. Store it  '))).toEqual([
      {
        kind: 'waiting',
        title: "Jules needs you: approve the plan for 'Add dark mode'",
        body: 'Personal: Plan: 1. Add a toggle 2. Store it',
        connectionId: 'j',
        projectId: '',
        taskId: 'a',
        outcome: 'waiting',
        service: 'jules'
      }
    ])
    expect(one(waits('a', 'question', 'Which colour?'))[0]!.title).toBe(
      "Jules needs you: answer a question on 'Add dark mode'"
    )
    expect(one(waits('a', 'permission', null))[0]).toMatchObject({
      title: "Jules needs you: give a permission on 'Add dark mode'",
      body: 'Personal: open the task to see what is asked.'
    })
  })

  it("what is asked is the service's text: escape sequences written out, cut to a few lines' worth", () => {
    const hostile = `\u001b]52;c;bWFsd2FyZQ==\u0007\u001b[31mRun this\u202e ${'x'.repeat(500)}`
    const [n] = decideNotifications({ events: [waits('a', 'question', hostile)], away: false }, prefs(), agentContext())
    expect(hasUnsafeCharacters(n!.body)).toBe(false)
    expect(n!.body.startsWith('Personal: \\u001b]52;c;bWFsd2FyZQ==\\u0007\\u001b[31mRun this\\u202e x')).toBe(true)
    expect(n!.body.endsWith('x…')).toBe(true)
    expect(n!.body.length).toBeLessThan(300)
  })

  it('is never left out by the endings chosen, only by its own toggle; several are each told, many in one', () => {
    const onlyFailures = { started: false, completed: false, failed: true, cancelled: false, waiting: true }
    const round = (events: MonitorEvent[], transitions = onlyFailures) =>
      decideNotifications({ events, away: false }, prefs({ transitions }), agentContext())
    expect(round([waits('a', 'question', 'Q?'), moves('b', 'running', 'completed')]).map((n) => n.kind)).toEqual([
      'waiting'
    ])
    expect(round([waits('a', 'question', 'Q?')], { ...onlyFailures, waiting: false })).toEqual([])
    expect(round(['a', 'b', 'c'].map((id) => waits(id, 'question', 'Q?'))).map((n) => n.taskId)).toEqual([
      'a',
      'b',
      'c'
    ])
    const many = round(['a', 'b', 'c', 'd'].map((id) => waits(id, 'question', 'Q?')))
    expect(many).toEqual([
      {
        kind: 'waiting',
        title: '4 tasks need you',
        body: 'On Jules · Personal',
        taskIds: ['a', 'b', 'c', 'd'],
        outcome: 'waiting',
        connectionId: 'j',
        service: 'jules'
      }
    ])
  })

  it('a status change is worded as a watched task, naming the service and the account, with the same toggles', () => {
    const one = (from: string | null, to: string) =>
      decideNotifications({ events: [moves('a', from, to)], away: false }, prefs(), agentContext())
    expect(one('running', 'completed')).toEqual([
      {
        kind: 'task',
        title: 'Task completed',
        body: "Jules · Personal: 'Ta' completed",
        connectionId: 'j',
        projectId: '',
        taskId: 'a',
        outcome: 'completed',
        service: 'jules'
      }
    ])
    expect(one('waiting', 'failed')[0]!.body).toBe("Jules · Personal: 'Ta' failed")
    expect(one(null, 'cancelled')[0]!.body).toBe("Jules · Personal: 'Ta' was cancelled")
    // Started is off by default, as for watched tasks; on, a task queued or new and running has started.
    expect(one('queued', 'running')).toEqual([])
    const started = (from: string | null, to: string) =>
      decideNotifications(
        { events: [moves('a', from, to)], away: false },
        prefs({ transitions: { ...DEFAULT_NOTIFICATION_PREFS.transitions, started: true } }),
        agentContext()
      ).map((n) => n.body)
    expect(started('queued', 'running')).toEqual(["Jules · Personal: 'Ta' started"])
    expect(started(null, 'running')).toEqual(["Jules · Personal: 'Ta' started"])
    // Answered and running again, or starting to wait (its own event says so), is not news here.
    expect(started('waiting', 'running')).toEqual([])
    expect(started('running', 'waiting')).toEqual([])
    expect(started('running', 'unknown')).toEqual([])
    expect(notifiableTransition(moves('a', 'running', 'failed'))).toBe('failed')
    expect(notifiableTransition(waits('a', 'question', null))).toBe('waiting')
  })

  it('several in one round are one summary, with watched projects and accounts named', () => {
    const round = (events: MonitorEvent[]) => decideNotifications({ events, away: false }, prefs(), agentContext())
    expect(round([moves('a', 'running', 'completed'), moves('b', 'running', 'failed')])).toEqual([
      {
        kind: 'summary',
        title: '2 tasks finished: 1 failed, 1 completed',
        body: 'On Jules · Personal',
        taskIds: ['a', 'b'],
        connectionId: 'j',
        service: 'jules'
      }
    ])
    const mixed = round([moves('a', 'running', 'completed'), status('shop', 's1', 'in_progress', 'failed')])
    expect(mixed).toMatchObject([
      { title: '2 tasks finished: 1 failed, 1 completed', body: "In project 'Shop', on Jules · Personal" }
    ])
    expect(mixed[0]!.connectionId).toBeUndefined()
    const away = decideNotifications(
      { events: [moves('a', 'running', 'completed'), moves('b', 'running', 'failed')], away: true },
      prefs(),
      agentContext()
    )
    expect(away[0]!.body).toBe('2 tasks finished: 1 failed, 1 completed on Jules · Personal')
  })
})
