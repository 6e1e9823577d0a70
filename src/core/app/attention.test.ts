import { describe, expect, it } from 'vitest'
import type { MonitorEvent } from '../../shared/monitor'
import type { ProjectAttention } from '../../shared/settings'
import {
  applyAttentionEvent,
  attentionItems,
  createAttentionBook,
  emptyAttention,
  MAX_COMPLETED_KEPT
} from './attention'
import { newestFirst } from './now'

const base = { connectionId: 'c', projectId: 'p' }
const status = (
  taskId: string,
  to: 'failed' | 'completed' | 'in_progress',
  at = '2026-01-01T10:00:00.000Z'
): MonitorEvent => ({
  ...base,
  at,
  kind: 'task-status',
  taskId,
  taskName: `Task ${taskId}`,
  from: 'in_progress',
  to
})

describe('applyAttentionEvent', () => {
  it('keeps a failed or completed task with its name and time, and drops it when it runs again', () => {
    const failed = applyAttentionEvent(undefined, status('t1', 'failed'))!
    expect(failed).toMatchObject({
      failedTaskIds: ['t1'],
      completedTaskIds: [],
      tasks: { t1: { name: 'Task t1', at: '2026-01-01T10:00:00.000Z' } }
    })
    expect(applyAttentionEvent(failed, status('t1', 'failed'))).toBeNull()
    const completed = applyAttentionEvent(failed, status('t1', 'completed'))!
    expect(completed).toMatchObject({ failedTaskIds: [], completedTaskIds: ['t1'] })
    const retried = applyAttentionEvent(completed, status('t1', 'in_progress'))!
    expect(retried).toEqual(emptyAttention())
  })

  it('keeps at most the newest completions, and their names only', () => {
    let a: ProjectAttention = emptyAttention()
    for (let i = 0; i < MAX_COMPLETED_KEPT + 3; i++) a = applyAttentionEvent(a, status(`t${i}`, 'completed'))!
    expect(a.completedTaskIds).toHaveLength(MAX_COMPLETED_KEPT)
    expect(a.completedTaskIds[0]).toBe('t3')
    expect(Object.keys(a.tasks)).toHaveLength(MAX_COMPLETED_KEPT)
    expect(a.tasks.t0).toBeUndefined()
  })

  it('records a budget crossed over once, with its time', () => {
    const event: MonitorEvent = {
      ...base,
      at: '2026-01-02T00:00:00.000Z',
      kind: 'budget',
      budgetId: 'b1',
      period: 'total',
      periodKey: 'total',
      level: 'over',
      spentUsd: 2,
      budgetUsd: 1
    }
    const crossed = applyAttentionEvent(undefined, event)!
    expect(crossed).toMatchObject({ budgetCrossed: true, budgetCrossedAt: '2026-01-02T00:00:00.000Z' })
    expect(applyAttentionEvent(crossed, event)).toBeNull()
    expect(applyAttentionEvent(undefined, { ...event, level: 'near' } as MonitorEvent)).toBeNull()
  })
})

describe('attention items', () => {
  it('are keyed by connection, project and task, and sort newest first', () => {
    let a = applyAttentionEvent(undefined, status('old', 'failed', '2026-01-01T09:00:00.000Z'))!
    a = applyAttentionEvent(a, status('new', 'completed', '2026-01-01T11:00:00.000Z'))!
    a = applyAttentionEvent(a, {
      ...base,
      at: '2026-01-01T10:00:00.000Z',
      kind: 'budget',
      budgetId: 'b1',
      period: 'total',
      periodKey: 'total',
      level: 'over',
      spentUsd: 2,
      budgetUsd: 1
    })!
    const items = newestFirst(attentionItems(a, { ...base, projectName: 'Shop' }))
    expect(items.map((i) => [i.kind, i.taskId ?? null])).toEqual([
      ['completed', 'new'],
      ['budget', null],
      ['failed', 'old']
    ])
    expect(items[0]).toEqual({
      kind: 'completed',
      connectionId: 'c',
      projectId: 'p',
      projectName: 'Shop',
      taskId: 'new',
      taskName: 'Task new',
      at: '2026-01-01T11:00:00.000Z'
    })
  })
})

describe('the attention book', () => {
  it('acknowledges one item, the budget, or all, and writes only what changed', async () => {
    const saved: Record<string, ProjectAttention>[] = []
    const book = createAttentionBook(
      {},
      async (b) => void saved.push(structuredClone(b)),
      () => undefined
    )
    book.take(status('a', 'failed'))
    book.take(status('b', 'completed'))
    book.take({
      ...base,
      at: '2026-01-01T10:00:00.000Z',
      kind: 'budget',
      budgetId: 'b1',
      period: 'total',
      periodKey: 'total',
      level: 'over',
      spentUsd: 2,
      budgetUsd: 1
    })
    const at = new Date('2026-01-03T00:00:00.000Z')
    expect(book.acknowledgeItem('p', { taskId: 'a' }, at)).toBe(true)
    expect(book.acknowledgeItem('p', { taskId: 'a' }, at)).toBe(false)
    expect(book.view('p')).toEqual({ failedTaskIds: [], budgetCrossed: true })
    expect(book.acknowledgeItem('p', { budget: true }, at)).toBe(true)
    expect(book.get('p')).toMatchObject({ completedTaskIds: ['b'], budgetCrossed: false })
    expect(book.acknowledgeItem('p', 'all', at)).toBe(true)
    expect(book.get('p')).toEqual({ ...emptyAttention(), acknowledgedAt: at.toISOString() })
    expect(book.acknowledge(['p'], at)).toBe(false)
    await book.settled()
    expect(saved.at(-1)).toEqual({ p: { ...emptyAttention(), acknowledgedAt: at.toISOString() } })
  })
})
