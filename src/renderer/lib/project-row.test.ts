import { describe, expect, it } from 'vitest'
import type { BudgetStatus } from '../../shared/budgets'
import type { ProjectView } from '../../shared/ipc'
import {
  projectBudgetLevel,
  projectFigures,
  projectMetaLine,
  projectRowMeta,
  projectSignals,
  projectStatus,
  projectsWorstFirst,
  unseenFailures
} from './project-row'

function view(over: Partial<ProjectView> = {}, watched: Partial<ProjectView['watched']> = {}): ProjectView {
  return {
    connectionId: 'c1',
    watched: { projectId: 'p1', name: 'Shop', muted: false, addedAt: '2026-11-01T00:00:00Z', ...watched },
    project: null,
    health: { state: 'ok' } as ProjectView['health'],
    counts: { running: 0, failed: 0, total: 0 },
    lastActivityAt: null,
    costTodayUsd: 0,
    costTotalUsd: 0,
    budgetUsd: null,
    attention: { failedTaskIds: [], budgetCrossed: false },
    ...over
  }
}

function budget(projectId: string | null, state: BudgetStatus['state'], connectionId = 'c1'): BudgetStatus {
  return {
    connectionId,
    budget: { id: `${projectId}-${state}`, projectId, period: 'month', limitUsd: 10, warnRatio: 0.8 },
    periodKey: '2026-11',
    spentUsd: 9,
    estimatedUsd: 0,
    state,
    burnUsdPerHour: 0,
    projectedUsd: null
  }
}

describe('projectSignals', () => {
  it('is red only for failures not yet seen; failures already seen leave no red', () => {
    const seen = view({ counts: { running: 1, failed: 4, total: 9 } })
    expect(projectSignals(seen, [])).toEqual({ unseenFailed: 0, running: 1, budget: 'none' })
    const unseen = view({
      counts: { running: 0, failed: 4, total: 9 },
      attention: { failedTaskIds: ['t1', 't2'], budgetCrossed: false }
    })
    expect(projectSignals(unseen, []).unseenFailed).toBe(2)
  })

  it('a muted project asks for nothing, as the tray badge counts it', () => {
    const muted = view({ attention: { failedTaskIds: ['t1'], budgetCrossed: false } }, { muted: true })
    expect(projectSignals(muted, []).unseenFailed).toBe(0)
  })
})

describe('unseenFailures', () => {
  it('holds the failed tasks not yet seen, none for a muted project or one not watched', () => {
    const attention = { failedTaskIds: ['t1', 't2'], budgetCrossed: false }
    expect([...unseenFailures(view({ attention }))]).toEqual(['t1', 't2'])
    expect(unseenFailures(view({ attention }, { muted: true })).size).toBe(0)
    expect(unseenFailures(null).size).toBe(0)
  })
})

describe('projectBudgetLevel', () => {
  it("takes the worst of the project's own budgets, not the account's or another project's", () => {
    const v = view()
    expect(projectBudgetLevel([], v)).toBe('none')
    expect(projectBudgetLevel([budget('p1', 'ok'), budget('p1', 'near')], v)).toBe('near')
    expect(projectBudgetLevel([budget('p1', 'near'), budget('p1', 'over')], v)).toBe('over')
    expect(projectBudgetLevel([budget(null, 'over'), budget('p2', 'over'), budget('p1', 'over', 'c2')], v)).toBe('none')
  })
})

describe('projectRowMeta', () => {
  const quiet = { unseenFailed: 0, running: 0, budget: 'none' } as const
  it('says its states worst first, muted, then when the project last moved', () => {
    const busy = { unseenFailed: 2, running: 1, budget: 'over' } as const
    expect(projectRowMeta(view({ lastActivityAt: '2026-11-27T09:05:00Z' }), busy)).toEqual([
      { text: '2 new failures', tone: 'danger' },
      { text: 'over budget', tone: 'warn' },
      { text: '1 running' },
      { activeAt: '2026-11-27T09:05:00Z' }
    ])
    expect(projectRowMeta(view({ lastActivityAt: '2026-11-20T09:05:00Z' }, { muted: true }), quiet)).toEqual([
      { text: 'Muted' },
      { activeAt: '2026-11-20T09:05:00Z' }
    ])
    expect(projectRowMeta(view(), quiet)).toEqual([{ text: 'no activity yet' }])
    expect(projectRowMeta(view({ health: { state: 'unknown' } as ProjectView['health'] }), quiet)).toEqual([
      { text: 'Not checked yet' }
    ])
  })
})

describe('projectStatus', () => {
  it('shows the worst state and names them all: a new failure, then the budget, then running work', () => {
    const v = view({ counts: { running: 1, failed: 1, total: 3 } })
    expect(projectStatus(v, { unseenFailed: 1, running: 1, budget: 'near' })).toEqual({
      kind: 'failed',
      label: '1 new failure, near its budget, 1 running'
    })
    expect(projectStatus(v, { unseenFailed: 0, running: 1, budget: 'over' }).kind).toBe('budget')
    expect(projectStatus(v, { unseenFailed: 0, running: 2, budget: 'none' })).toEqual({
      kind: 'running',
      label: '2 running'
    })
    expect(projectStatus(v, { unseenFailed: 0, running: 0, budget: 'none' })).toEqual({
      kind: 'completed',
      label: 'Idle'
    })
    expect(projectStatus(view(), { unseenFailed: 0, running: 0, budget: 'none' }).label).toBe('No tasks yet')
  })
})

describe('projectMetaLine', () => {
  it('holds the lifetime counts and the costs to cents', () => {
    expect(
      projectMetaLine(view({ counts: { running: 1, failed: 2, total: 6 }, costTodayUsd: 0.3685, costTotalUsd: 12.5 }))
    ).toBe('6 tasks · 1 running · 2 failed · $0.37 today · $12.50 total')
    expect(
      projectMetaLine(view({ counts: { running: 0, failed: 0, total: 1 }, costTodayUsd: 0.004 }, { muted: true }))
    ).toBe('1 task · <$0.01 today · $0.00 total · muted')
  })
})

describe('projectFigures', () => {
  it('gives each figure its number and its word, the same as the meta line', () => {
    const v = view({ counts: { running: 1, failed: 0, total: 2 }, costTodayUsd: 0.5, costTotalUsd: 1 })
    expect(projectFigures(v)).toEqual([
      { value: '2', word: 'tasks' },
      { value: '1', word: 'running' },
      { value: '$0.50', word: 'today' },
      { value: '$1.00', word: 'total' }
    ])
  })
})

describe('projectsWorstFirst', () => {
  const named = (id: string, over: Partial<ProjectView> = {}, watched: Partial<ProjectView['watched']> = {}) =>
    view(over, { projectId: id, ...watched })
  const ids = (views: ProjectView[]) => views.map((v) => v.watched.projectId)

  it('puts a new failure first, then a budget, then running work, then the rest in the order given', () => {
    const views = [
      named('idle-a', { counts: { running: 0, failed: 0, total: 3 } }),
      named('running', { counts: { running: 1, failed: 0, total: 2 } }),
      named('near', {}),
      named('failed', { attention: { failedTaskIds: ['t1'], budgetCrossed: false } }),
      named('idle-b', { counts: { running: 0, failed: 2, total: 5 } }),
      named('over', { counts: { running: 1, failed: 0, total: 1 } })
    ]
    const budgets = [budget('near', 'near'), budget('over', 'over')]
    expect(ids(projectsWorstFirst(views, budgets))).toEqual(['failed', 'near', 'over', 'running', 'idle-a', 'idle-b'])
  })

  it('a failure already seen or a muted project does not move up; the list given is left as it was', () => {
    const views = [
      named('idle', {}),
      named('seen', { counts: { running: 0, failed: 3, total: 3 } }),
      named('muted', { attention: { failedTaskIds: ['t1'], budgetCrossed: false } }, { muted: true }),
      named('running', { counts: { running: 2, failed: 0, total: 2 } })
    ]
    expect(ids(projectsWorstFirst(views, []))).toEqual(['running', 'idle', 'seen', 'muted'])
    expect(ids(views)).toEqual(['idle', 'seen', 'muted', 'running'])
  })
})
