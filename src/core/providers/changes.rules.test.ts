// The edges of what is news between polls: a question's identity, and records whose status and waiting disagree.
import { describe, expect, it } from 'vitest'
import type { ProviderStatus, ProviderTask, Waiting } from '../../shared/provider'
import { agentTaskChanges, waitingKey } from './changes'

function task(id: string, status: ProviderStatus, waiting: Waiting | null): ProviderTask {
  return {
    id,
    title: id,
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

describe('waitingKey', () => {
  it('is the kind and 16 hex digits of the text; no text reads as empty text', () => {
    const q = (text: string | null): Waiting => ({ kind: 'question', text, where: null })
    expect(waitingKey(q('Which branch?'))).toMatch(/^question:[0-9a-f]{16}$/)
    expect(waitingKey(q('Which branch?'))).not.toBe(waitingKey(q('Which database?')))
    expect(waitingKey(q(null))).toBe(waitingKey(q('')))
    // sha256 of the empty string, cut to 16.
    expect(waitingKey(q(null))).toBe('question:e3b0c44298fc1c14')
  })
})

describe('a status and a waiting that disagree', () => {
  const plan: Waiting = { kind: 'plan_approval', text: 'Plan', where: null }

  it('a task not waiting is not told as waiting, whatever it carries', () => {
    const first = agentTaskChanges(null, [task('a', 'running', plan)])
    expect(first).toEqual({ changes: [], seen: { a: { status: 'running', waiting: null } } })
    const next = agentTaskChanges(first.seen, [task('a', 'completed', plan)])
    expect(next.changes).toEqual([{ kind: 'status', task: task('a', 'completed', plan), from: 'running' }])
  })

  it('a waiting task without what it asks is a status change, not a question', () => {
    const first = agentTaskChanges(null, [task('a', 'running', null)])
    const next = agentTaskChanges(first.seen, [task('a', 'waiting', null)])
    expect(next.changes).toEqual([{ kind: 'status', task: task('a', 'waiting', null), from: 'running' }])
    expect(next.seen).toEqual({ a: { status: 'waiting', waiting: null } })
  })
})
