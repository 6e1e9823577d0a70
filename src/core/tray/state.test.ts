import { describe, expect, it } from 'vitest'
import { agentTask, appState, jules, project } from './fixtures.test-helpers'
import { summariseTray, TRAY_STATE_PRIORITY, trayTooltip } from './state'

const error = {
  state: 'error' as const,
  error: { kind: 'auth' as const, message: 'The API key is wrong or revoked.' },
  since: '2026-01-01T00:00:00.000Z',
  nextPollAt: '2026-01-01T00:01:00.000Z'
}

describe('summariseTray', () => {
  it('is idle with nothing running', () => {
    expect(summariseTray(appState([project('a')]), true).state).toBe('idle')
    expect(summariseTray(appState([]), true).state).toBe('idle')
  })

  it('is running while a task runs', () => {
    const s = summariseTray(appState([project('a', { running: 2 }), project('b', { running: 1 })]), true)
    expect(s.state).toBe('running')
    expect(s.running).toBe(3)
  })

  it('asks for attention when a task failed since the user last looked', () => {
    const s = summariseTray(
      appState([project('a', { running: 1 }), project('b', { failed: 2, newFailed: ['t1'] })]),
      true
    )
    expect(s.state).toBe('attention')
    expect(s.failed).toBe(2)
    expect(s.newFailed).toBe(1)
  })

  it('does not ask for attention for failures the user has seen: they stay as information', () => {
    const s = summariseTray(appState([project('a', { running: 1 }), project('b', { failed: 3 })]), true)
    expect(s.state).toBe('running')
    expect(s.failed).toBe(3)
    expect(s.newFailed).toBe(0)
    expect(summariseTray(appState([project('b', { failed: 3 })]), true).state).toBe('idle')
  })

  it('asks for attention when a budget was newly crossed, not for one over budget already seen', () => {
    const crossed = summariseTray(
      appState([project('a', { budgetUsd: 1, costTotalUsd: 1.01, budgetCrossed: true })]),
      true
    )
    expect(crossed.state).toBe('attention')
    expect(crossed).toMatchObject({ overBudget: 1, budgetsCrossed: 1 })
    const seen = summariseTray(appState([project('a', { budgetUsd: 1, costTotalUsd: 1.01 })]), true)
    expect(seen.state).toBe('idle')
    expect(seen).toMatchObject({ overBudget: 1, budgetsCrossed: 0 })
    // Reaching the limit is reaching it (as the notification says); just below is not.
    const at = summariseTray(appState([project('a', { budgetUsd: 1, costTotalUsd: 1 })]), true)
    expect(at.overBudget).toBe(1)
    const below = summariseTray(appState([project('a', { budgetUsd: 1, costTotalUsd: 0.99 })]), true)
    expect(below.overBudget).toBe(0)
  })

  it('lets a muted project run without asking for attention', () => {
    const s = summariseTray(
      appState([
        project('a', {
          muted: true,
          failed: 3,
          newFailed: ['t1'],
          budgetCrossed: true,
          running: 1,
          budgetUsd: 0,
          costTotalUsd: 5
        })
      ]),
      true
    )
    expect(s.state).toBe('running')
    expect(s).toMatchObject({ failed: 0, overBudget: 0, newFailed: 0, budgetsCrossed: 0 })
  })

  it('shows an error over attention and running', () => {
    const s = summariseTray(
      appState([project('a', { failed: 1, newFailed: ['t'], running: 1 }), project('b', { health: error })]),
      true
    )
    expect(s.state).toBe('error')
    expect(s.erroring).toBe(1)
  })

  it('shows offline over everything but what needs you', () => {
    const s = summariseTray(
      appState([project('a', { failed: 1, newFailed: ['t'], running: 1 }), project('b', { health: error })]),
      false
    )
    expect(s.state).toBe('offline')
  })

  it('orders every state exactly once', () => {
    expect([...TRAY_STATE_PRIORITY].sort()).toEqual(['attention', 'error', 'idle', 'needs-you', 'offline', 'running'])
    expect(TRAY_STATE_PRIORITY[0]).toBe('needs-you')
    expect(TRAY_STATE_PRIORITY.at(-1)).toBe('idle')
  })

  it('knows when notifications are paused', () => {
    const s = summariseTray(
      appState([], { monitor: { paused: false, notificationsPausedUntil: '2026-01-01T01:00:00.000Z' } }),
      true
    )
    expect(s.notificationsPaused).toBe(true)
  })
})

describe('trayTooltip', () => {
  it('counts running and failed tasks', () => {
    const s = summariseTray(appState([project('a', { running: 2 }), project('b', { failed: 1 })]), true)
    expect(trayTooltip(s)).toBe('Agent Tray — 2 running, 1 failed')
  })

  it('names budgets, errors and being offline', () => {
    const s = summariseTray(
      appState([
        project('a', { budgetUsd: 1, costTotalUsd: 2 }),
        project('b', { health: error }),
        project('c', { health: error })
      ]),
      false
    )
    expect(trayTooltip(s)).toBe('Agent Tray — offline, 2 projects unreachable, 1 over budget')
  })

  it('says idle, or that nothing is watched', () => {
    expect(trayTooltip(summariseTray(appState([project('a')]), true))).toBe('Agent Tray — idle')
    expect(trayTooltip(summariseTray(appState([]), true))).toBe('Agent Tray — no projects watched')
  })

  it('says when notifications are paused', () => {
    const s = summariseTray(
      appState([project('a', { running: 1 })], { monitor: { paused: false, notificationsPausedUntil: 'x' } }),
      true
    )
    expect(trayTooltip(s)).toBe('Agent Tray — 1 running (notifications paused)')
  })
})

describe("another service's task waiting for you", () => {
  const waitingApp = (over: Parameters<typeof appState>[1] = {}) =>
    appState([project('a', { health: error, newFailed: ['t'], failed: 1 })], {
      ...jules(),
      agentTasks: [
        agentTask('j2', 'waiting', { title: 'Fix the build', updatedAt: '2026-01-01T10:05:00.000Z' }),
        agentTask('j1', 'waiting', { updatedAt: '2026-01-01T10:00:00.000Z' }),
        agentTask('j3', 'running')
      ],
      ...over
    })

  it('needs you over everything, offline included; the longest waiting said first, with its account and why', () => {
    const s = summariseTray(waitingApp(), false)
    expect(s.state).toBe('needs-you')
    expect(s.needsYou).toEqual([
      {
        sentence: "Jules · Personal: approve the plan for 'Add dark mode'",
        connectionId: 'j',
        projectId: 'octo/shop',
        taskId: 'j1'
      },
      {
        sentence: "Jules · Personal: answer a question on 'Fix the build'",
        connectionId: 'j',
        projectId: '',
        taskId: 'j2'
      }
    ])
    expect(trayTooltip(s)).toBe(
      "Agent Tray — Jules · Personal: approve the plan for 'Add dark mode' (and 1 more), offline, 1 project unreachable (Work), 1 running, 1 failed"
    )
  })

  it("a muted account's waiting task does not ask; its running one still runs", () => {
    const app = waitingApp()
    app.connections = app.connections.map((c) =>
      c.id === 'j' ? { ...c, notifications: { muted: true, pausedUntil: null } } : c
    )
    const s = summariseTray({ ...app, projects: [] }, true)
    expect(s.state).toBe('running')
    expect(s.needsYou).toEqual([])
  })

  it('an unseen failure of another service asks for attention; a long title is cut so the account still shows', () => {
    const failed = appState([], { ...jules(), agentTasks: [agentTask('f', 'failed', { unseenFailure: true })] })
    expect(summariseTray(failed, true)).toMatchObject({ state: 'attention', agentFailures: 1 })
    const long = appState([], { ...jules(), agentTasks: [agentTask('w', 'waiting', { title: 'x'.repeat(200) })] })
    const [line] = summariseTray(long, true).needsYou
    expect(line!.sentence).toBe(`Jules · Personal: approve the plan for '${'x'.repeat(39)}…'`)
  })
})
