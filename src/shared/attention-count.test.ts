import { describe, expect, it } from 'vitest'
import { attentionTotal, countAttention } from './attention-count'
import type { BudgetStatus } from './budgets'
import type { BudgetState } from './cost'
import type { AgentTaskView, ConnectionView, ProjectView } from './ipc'
import type { ProviderStatus } from './provider'

function project(id: string, attention: ProjectView['attention'], muted = false): ProjectView {
  return {
    connectionId: 'c1',
    watched: { projectId: id, name: id, muted, addedAt: '2026-01-01T00:00:00.000Z' },
    project: null,
    health: { state: 'ok', polledAt: '2026-01-01T00:00:00.000Z' },
    counts: { running: 0, failed: attention.failedTaskIds.length, total: attention.failedTaskIds.length },
    lastActivityAt: null,
    costTodayUsd: 0,
    costTotalUsd: 0,
    budgetUsd: null,
    attention
  }
}

function budget(projectId: string | null, state: BudgetState): BudgetStatus {
  return {
    connectionId: 'c1',
    budget: { id: `b-${projectId ?? 'account'}-${state}`, projectId, period: 'month', limitUsd: 10, warnRatio: 0.8 },
    periodKey: '2026-01',
    spentUsd: 0,
    estimatedUsd: 0,
    state,
    burnUsdPerHour: 0,
    projectedUsd: null
  }
}

describe('countAttention', () => {
  it('counts new failures and budgets crossed since the user looked, leaving muted projects out', () => {
    const count = countAttention({
      projects: [
        project('a', { failedTaskIds: ['t1', 't2'], budgetCrossed: true }),
        project('b', { failedTaskIds: ['t3'], budgetCrossed: false }),
        project('muted', { failedTaskIds: ['t4'], budgetCrossed: true }, true)
      ],
      budgets: []
    })
    expect(count).toEqual({ newFailed: 3, budgetsCrossed: 1, accountsOver: 0, agentsWaiting: 0, agentFailures: 0 })
    expect(attentionTotal(count)).toBe(4)
  })

  it('counts each account-wide budget over its limit, while a project’s over budget asks only through its crossing', () => {
    const count = countAttention({
      projects: [project('a', { failedTaskIds: [], budgetCrossed: false })],
      budgets: [budget(null, 'over'), budget(null, 'near'), budget(null, 'ok'), budget('a', 'over')]
    })
    expect(count).toEqual({ newFailed: 0, budgetsCrossed: 0, accountsOver: 1, agentsWaiting: 0, agentFailures: 0 })
    expect(attentionTotal(count)).toBe(1)
  })

  it('counts account-wide budgets over their limit only, however many projects are over theirs', () => {
    const count = countAttention({
      projects: [],
      budgets: [budget('a', 'over'), budget('b', 'over'), budget(null, 'over')]
    })
    expect(count.accountsOver).toBe(1)
  })

  it("counts an agent account's per-unit budgets over their limit as account-wide ones", () => {
    const unit = (state: 'ok' | 'near' | 'over') => ({
      budget: { id: state, unit: 'ACU', period: 'month' as const, limit: 10, warnRatio: 0.8 },
      periodKey: '2026-03',
      spent: 10,
      state
    })
    const count = countAttention({
      projects: [],
      budgets: [budget(null, 'over')],
      agentCosts: [
        { connectionId: 'd', units: [], budgetUnits: ['ACU'], budgets: [unit('over'), unit('near'), unit('ok')] }
      ]
    })
    expect(count.accountsOver).toBe(2)
  })

  it('is zero when nothing asks', () => {
    expect(
      attentionTotal(
        countAttention({ projects: [project('a', { failedTaskIds: [], budgetCrossed: false })], budgets: [] })
      )
    ).toBe(0)
  })
})

function agentTask(
  id: string,
  status: ProviderStatus,
  connectionId = 'j',
  unseenFailure = false,
  projectMuted = false
): AgentTaskView {
  return {
    id,
    title: id,
    status,
    serviceStatus: status.toUpperCase(),
    waiting: status === 'waiting' ? { kind: 'question', text: 'Q?', where: null } : null,
    links: { page: null, pullRequests: [], preview: null },
    project: null,
    createdAt: null,
    updatedAt: null,
    costs: [],
    connectionId,
    service: 'jules',
    unseenFailure,
    projectMuted
  }
}

const account = (id: string, muted: boolean): ConnectionView =>
  ({ id, name: id, notifications: { muted, pausedUntil: null } }) as ConnectionView

describe("another service's tasks", () => {
  it('each waiting task asks, and each failure not opened yet; of a muted account neither does', () => {
    const count = countAttention({
      projects: [],
      budgets: [],
      connections: [account('j', false), account('quiet', true)],
      agentTasks: [
        agentTask('w1', 'waiting'),
        agentTask('w2', 'waiting'),
        agentTask('f1', 'failed', 'j', true),
        agentTask('f2', 'failed', 'j', false),
        agentTask('r1', 'running'),
        agentTask('w3', 'waiting', 'quiet'),
        agentTask('f3', 'failed', 'quiet', true)
      ]
    })
    expect(count).toMatchObject({ agentsWaiting: 2, agentFailures: 1 })
    expect(attentionTotal(count)).toBe(3)
  })

  it('a task of a muted repository or source asks nothing, waiting or failed', () => {
    const count = countAttention({
      projects: [],
      budgets: [],
      connections: [account('j', false)],
      agentTasks: [agentTask('w1', 'waiting', 'j', false, true), agentTask('f1', 'failed', 'j', true, true)]
    })
    expect(attentionTotal(count)).toBe(0)
  })
})
