import { describe, expect, it } from 'vitest'
import type { ProviderStatus, ProviderTask, Waiting } from '../../shared/provider'
import { agentTaskChanges, waitingKey } from './changes'

function task(id: string, status: ProviderStatus, waiting: Waiting | null = null): ProviderTask {
  return {
    id,
    title: `Task ${id}`,
    status,
    serviceStatus: status,
    waiting,
    links: { page: null, pullRequests: [], preview: null },
    project: null,
    createdAt: null,
    updatedAt: null,
    costs: []
  }
}

const plan: Waiting = { kind: 'plan_approval', text: 'Step 1: add a toggle', where: null }

describe('agentTaskChanges', () => {
  it('tells only what waits on the first poll, keeping the rest as the baseline', () => {
    const { changes, seen } = agentTaskChanges(null, [task('a', 'waiting', plan), task('b', 'failed')])
    expect(changes).toEqual([{ kind: 'waiting', task: task('a', 'waiting', plan), waiting: plan }])
    expect(seen).toEqual({
      a: { status: 'waiting', waiting: waitingKey(plan) },
      b: { status: 'failed', waiting: null }
    })
  })

  it('tells a question once, and again only when a new one is asked', () => {
    const first = agentTaskChanges(null, [task('a', 'waiting', plan)])
    expect(agentTaskChanges(first.seen, [task('a', 'waiting', plan)]).changes).toEqual([])
    const other: Waiting = { kind: 'question', text: 'Which branch?', where: null }
    expect(agentTaskChanges(first.seen, [task('a', 'waiting', other)]).changes).toHaveLength(1)
  })

  it('tells a status change with where it came from, and the waiting task that resumed and ended', () => {
    const first = agentTaskChanges(null, [task('a', 'waiting', plan), task('b', 'running')])
    const second = agentTaskChanges(first.seen, [task('a', 'running'), task('b', 'completed')])
    expect(second.changes).toEqual([
      { kind: 'status', task: task('a', 'running'), from: 'waiting' },
      { kind: 'status', task: task('b', 'completed'), from: 'running' }
    ])
    expect(agentTaskChanges(second.seen, [task('a', 'waiting', plan), task('b', 'completed')]).changes).toHaveLength(1)
  })

  it('tells a task that appeared already ended, not one that appeared running', () => {
    const first = agentTaskChanges(null, [])
    const { changes } = agentTaskChanges(first.seen, [task('n', 'running'), task('m', 'failed'), task('q', 'queued')])
    expect(changes).toEqual([{ kind: 'status', task: task('m', 'failed'), from: null }])
  })

  it('forgets a task no longer listed', () => {
    const first = agentTaskChanges(null, [task('a', 'running')])
    expect(agentTaskChanges(first.seen, []).seen).toEqual({})
  })
})
