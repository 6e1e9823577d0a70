// A task list as the monitor reads it (digest.ts): a digest says what it is, and its steps' latest
// activity is the latest of them, whatever their order.
import { describe, expect, it } from 'vitest'
import { digestTask, isDigest } from './digest'
import { parseTasks } from './parse'

const step = (id: string, updated_at: string) => ({ id, task_id: 't1', status: 'completed', updated_at })

describe('digestTask', () => {
  it('is told from a full task', () => {
    const [task] = parseTasks([{ id: 't1', status: 'completed', steps: [] }])
    expect(isDigest(task!)).toBe(false)
    expect(isDigest(digestTask(task!))).toBe(true)
  })

  it("takes the latest step's time as the task's activity, in any order, and leaves unreadable times out", () => {
    const [task] = parseTasks([
      {
        id: 't1',
        status: 'in_progress',
        steps: [step('s1', '2025-01-01T00:00:05.000Z'), step('s2', '2025-01-01T00:00:01.000Z'), step('s3', 'soon')]
      }
    ])
    const digest = digestTask(task!)
    expect(digest.stepCount).toBe(3)
    expect(digest.stepsActivityMs).toBe(Date.parse('2025-01-01T00:00:05.000Z'))
    const [none] = parseTasks([{ id: 't2', status: 'in_progress', steps: [step('s1', 'soon')] }])
    expect(digestTask(none!).stepsActivityMs).toBe(Number.NEGATIVE_INFINITY)
  })
})
