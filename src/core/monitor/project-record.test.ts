import { describe, expect, it } from 'vitest'
import type { Task } from '../../shared/service'
import { KeptLists, newProjectRecord, type ProjectRecord, releaseWaiters } from './project-record'

const list = (n: number): Task[] => Array.from({ length: n }, (_, i) => ({ id: `t${i}` }) as Task)

function records(...ids: string[]): Map<string, ProjectRecord> {
  return new Map(ids.map((id) => [id, newProjectRecord(id, 0)]))
}

describe('KeptLists', () => {
  it('keeps at most its capacity of lists, dropping the least recently used', () => {
    const all = records('a', 'b', 'c')
    const kept = new KeptLists(all, 2)
    kept.keep(all.get('a')!, list(1))
    kept.keep(all.get('b')!, list(2))
    expect(kept.use(all.get('a')!)).toHaveLength(1)
    kept.keep(all.get('c')!, list(3))
    expect([...all.values()].filter((r) => r.list).map((r) => r.projectId)).toEqual(['a', 'c'])
    expect(kept.use(all.get('b')!)).toBeUndefined()
  })

  it('counts a list kept again as a use, and a record that is gone holds no slot', () => {
    const all = records('a', 'b', 'c')
    const kept = new KeptLists(all, 2)
    kept.keep(all.get('a')!, list(1))
    kept.keep(all.get('b')!, list(1))
    kept.keep(all.get('a')!, list(4))
    all.delete('b')
    kept.keep(all.get('c')!, list(1))
    expect(all.get('a')!.list?.tasks).toHaveLength(4)
    expect(all.get('c')!.list).toBeDefined()
  })

  it('refuses to keep no list at all', () => {
    expect(() => new KeptLists(new Map(), 0)).toThrow(new RangeError('at least one task list must be kept'))
  })
})

describe('a new record', () => {
  it('is due now, and comes back from a former run only with its snapshot', () => {
    const fresh = newProjectRecord('p', 42)
    expect(fresh).toMatchObject({
      dueAt: 42,
      away: false,
      snapshot: undefined,
      health: { state: 'unknown' },
      etag: null
    })
    const former = newProjectRecord('p', 42, { tasks: {} } as unknown as ProjectRecord['snapshot'])
    expect(former.away).toBe(true)
  })
})

describe('releaseWaiters', () => {
  it('lets go those a poll satisfies and keeps the others waiting', () => {
    const record = newProjectRecord('p', 0)
    const released: number[] = []
    for (const minSeq of [1, 2, 3]) record.waiters.push({ minSeq, resolve: () => released.push(minSeq) })
    releaseWaiters(record, 2)
    expect(released).toEqual([1, 2])
    expect(record.waiters.map((w) => w.minSeq)).toEqual([3])
    releaseWaiters(record, Number.POSITIVE_INFINITY)
    expect(released).toEqual([1, 2, 3])
  })
})
