import { describe, expect, it } from 'vitest'
import { attentionTotal, countAttention } from './attention-count'
import type { BudgetStatus } from './budgets'
import type { BudgetState } from './cost'
import type { ProjectView } from './ipc'

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
    expect(count).toEqual({ newFailed: 3, budgetsCrossed: 1, accountsOver: 0 })
    expect(attentionTotal(count)).toBe(4)
  })

  it('counts each account-wide budget over its limit, while a project’s over budget asks only through its crossing', () => {
    const count = countAttention({
      projects: [project('a', { failedTaskIds: [], budgetCrossed: false })],
      budgets: [budget(null, 'over'), budget(null, 'near'), budget(null, 'ok'), budget('a', 'over')]
    })
    expect(count).toEqual({ newFailed: 0, budgetsCrossed: 0, accountsOver: 1 })
    expect(attentionTotal(count)).toBe(1)
  })

  it('counts account-wide budgets over their limit only, however many projects are over theirs', () => {
    const count = countAttention({
      projects: [],
      budgets: [budget('a', 'over'), budget('b', 'over'), budget(null, 'over')]
    })
    expect(count.accountsOver).toBe(1)
  })

  it('is zero when nothing asks', () => {
    expect(
      attentionTotal(
        countAttention({ projects: [project('a', { failedTaskIds: [], budgetCrossed: false })], budgets: [] })
      )
    ).toBe(0)
  })
})
