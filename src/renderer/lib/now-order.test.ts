import { describe, expect, it } from 'vitest'
import type { AttentionItem } from '../../shared/ipc'
import { failuresFirst, spentToday } from './now-order'

const item = (kind: AttentionItem['kind'], taskId: string): AttentionItem => ({
  kind,
  connectionId: 'c',
  projectId: 'p',
  projectName: 'P',
  taskId,
  at: '2026-11-26T10:00:00Z'
})

describe('failuresFirst', () => {
  it('puts failures before budgets before completions and keeps the newest-first order within each', () => {
    const items = [
      item('completed', 'c1'),
      item('failed', 'f1'),
      item('budget', 'b1'),
      item('completed', 'c2'),
      item('failed', 'f2')
    ]
    expect(failuresFirst(items).map((i) => i.taskId)).toEqual(['f1', 'f2', 'b1', 'c1', 'c2'])
  })
})

describe('spentToday', () => {
  it('adds up what every project spent today', () => {
    expect(spentToday([{ costTodayUsd: 1.25 }, { costTodayUsd: 0.5 }, { costTodayUsd: Number.NaN }])).toBe(1.75)
  })
})
