import { describe, expect, it } from 'vitest'
import type { AgentTaskView, AttentionItem, RunningTaskView } from '../../shared/ipc'
import type { ProviderStatus } from '../../shared/provider'
import { failuresFirst, nowGroups, type NowRow, spentToday } from './now-order'

const item = (kind: AttentionItem['kind'], taskId: string, at = '2026-11-26T10:00:00Z'): AttentionItem => ({
  kind,
  connectionId: 'c',
  projectId: 'p',
  projectName: 'P',
  taskId,
  at
})

const agent = (id: string, status: ProviderStatus, updatedAt: string, unseenFailure = false): AgentTaskView => ({
  id,
  title: id,
  status,
  serviceStatus: status,
  waiting: status === 'waiting' ? { kind: 'plan_approval', text: null, where: null } : null,
  links: { page: null, pullRequests: [], preview: null },
  project: null,
  createdAt: null,
  updatedAt,
  costs: [],
  connectionId: 'a',
  service: 'svc',
  unseenFailure
})

const running = (taskId: string): RunningTaskView => ({
  connectionId: 'c',
  projectId: 'p',
  projectName: 'P',
  taskId,
  name: taskId,
  status: 'in_progress',
  currentStep: null,
  costUsd: null,
  startedAt: '2026-11-26T09:00:00Z'
})

/** A row's id, whatever its kind. */
const id = (row: NowRow): string | undefined =>
  row.kind === 'agent' ? row.task.id : row.kind === 'running' ? row.task.taskId : row.item.taskId

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

describe('nowGroups', () => {
  const view = {
    items: [
      item('completed', 'done', '2026-11-26T12:00:00Z'),
      item('failed', 'w-failed', '2026-11-26T10:00:00Z'),
      item('budget', 'over', '2026-11-26T11:00:00Z')
    ],
    running: [running('w-run')]
  }
  const agentTasks = [
    agent('a-run', 'running', '2026-11-26T10:30:00Z'),
    agent('a-wait-new', 'waiting', '2026-11-26T10:20:00Z'),
    agent('a-failed-seen', 'failed', '2026-11-26T10:40:00Z'),
    agent('a-failed', 'failed', '2026-11-26T11:30:00Z', true),
    agent('a-wait-old', 'waiting', '2026-11-26T09:00:00Z'),
    agent('a-done', 'completed', '2026-11-26T12:30:00Z'),
    agent('a-queued', 'queued', '2026-11-26T12:30:00Z')
  ]

  it('lists what waits for you, then unseen failures, then what runs, then the rest', () => {
    const groups = nowGroups(view, agentTasks)
    // The longest waiting first: it has waited for the user longest.
    expect(groups.waiting.map(id)).toEqual(['a-wait-old', 'a-wait-new'])
    // Failures of every service newest first; one already opened is not asked about again.
    expect(groups.failed.map(id)).toEqual(['a-failed', 'w-failed'])
    expect(groups.running.map(id)).toEqual(['w-run', 'a-run'])
    expect(groups.rest.map(id)).toEqual(['over', 'done'])
  })

  it('keeps Workser’s order as it is when no other service has a task', () => {
    const groups = nowGroups(view, [])
    expect([...groups.waiting, ...groups.failed, ...groups.running, ...groups.rest].map(id)).toEqual([
      'w-failed',
      'w-run',
      'over',
      'done'
    ])
  })

  it('lists other services’ tasks before Now’s own view has loaded', () => {
    expect(nowGroups(null, agentTasks).waiting).toHaveLength(2)
    expect(nowGroups(null, []).running).toEqual([])
  })
})

describe('spentToday', () => {
  it('adds up what every project spent today', () => {
    expect(spentToday([{ costTodayUsd: 1.25 }, { costTodayUsd: 0.5 }, { costTodayUsd: Number.NaN }])).toBe(1.75)
  })
})
