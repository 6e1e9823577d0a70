import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CostRange } from '../../shared/cost-range'
import type { Task } from '../../shared/service'
import { testTask } from '../../shared/test-task'
import { type ProjectTasks, reportTasks, tasksInRange, touchesRange } from './report-data'
import { openUsageStore } from './usage-store'

const RANGE: CostRange = { since: '2026-03-10', until: '2026-03-20' }
const UTC = 0

function task(id: string, created_at: string, updated_at: string, total_price: number | null = 1): Task {
  return testTask(id, { project_id: 'p', name: id, created_at, updated_at, total_price })
}

describe('which tasks can have cost in a range', () => {
  it('takes a task created up to the last day, not one created the day after', () => {
    expect(touchesRange(task('a', '2026-03-20T23:59:59.999Z', '2026-03-21T02:00:00.000Z'), RANGE, UTC)).toBe(true)
    expect(touchesRange(task('b', '2026-03-21T00:00:00.000Z', '2026-03-21T02:00:00.000Z'), RANGE, UTC)).toBe(false)
    // Later in the same month is after the range too: the days are compared, not the months.
    expect(touchesRange(task('c', '2026-03-25T00:00:00.000Z', '2026-03-26T00:00:00.000Z'), RANGE, UTC)).toBe(false)
  })

  it('takes a task last changed on the first day or later, not one last changed the day before', () => {
    expect(touchesRange(task('a', '2026-03-01T00:00:00.000Z', '2026-03-10T00:00:00.000Z'), RANGE, UTC)).toBe(true)
    expect(touchesRange(task('b', '2026-03-01T00:00:00.000Z', '2026-03-09T23:59:59.999Z'), RANGE, UTC)).toBe(false)
    // Earlier in the same month is before the range too.
    expect(touchesRange(task('c', '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'), RANGE, UTC)).toBe(false)
  })

  it('takes a task that spans the whole range', () => {
    expect(touchesRange(task('a', '2026-02-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'), RANGE, UTC)).toBe(true)
  })

  it('reads the days in the user’s time zone', () => {
    const lateOnTheLastDay = task('a', '2026-03-20T23:30:00.000Z', '2026-03-21T00:30:00.000Z')
    expect(touchesRange(lateOnTheLastDay, RANGE, UTC)).toBe(true)
    // An hour east of UTC it was created on the 21st, after the range.
    expect(touchesRange(lateOnTheLastDay, RANGE, 60)).toBe(false)
    const earlyOnTheFirstDay = task('b', '2026-03-09T00:00:00.000Z', '2026-03-10T00:30:00.000Z')
    expect(touchesRange(earlyOnTheFirstDay, RANGE, UTC)).toBe(true)
    // An hour west of UTC it was last changed on the 9th, before the range.
    expect(touchesRange(earlyOnTheFirstDay, RANGE, -60)).toBe(false)
  })

  it('keeps a task whose times cannot be read (its cost is not dropped unseen)', () => {
    expect(touchesRange(task('a', 'garbled', 'garbled'), RANGE, UTC)).toBe(true)
    expect(touchesRange(task('b', 'garbled', '2026-03-15T00:00:00.000Z'), RANGE, UTC)).toBe(true)
    expect(touchesRange(task('c', '2026-03-15T00:00:00.000Z', 'garbled'), RANGE, UTC)).toBe(true)
  })
})

const before = task('before', '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z')
const inside = task('inside', '2026-03-01T00:00:00.000Z', '2026-03-12T00:00:00.000Z')
const after = task('after', '2026-03-22T00:00:00.000Z', '2026-03-23T00:00:00.000Z')
const alsoInside = task('also-inside', '2026-03-15T00:00:00.000Z', '2026-03-15T01:00:00.000Z', null)
const projects: ProjectTasks[] = [
  { projectId: 'p1', projectName: 'One', tasks: [before, inside, after] },
  { projectId: 'p2', projectName: 'Two', tasks: [alsoInside] }
]

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

describe('a report’s input', () => {
  it('lists the tasks of every project that can have cost in the range, and only those', () => {
    expect(tasksInRange(projects, RANGE, UTC).map((t) => t.id)).toEqual(['inside', 'also-inside'])
  })

  it('gives each task in range its project and the records known for it on that connection', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-data-'))
    dirs.push(dir)
    const store = await openUsageStore({ dir, now: () => new Date('2026-03-25T00:00:00.000Z') })
    const usage = {
      provider: 'openai',
      model: 'gpt',
      final_price: 1,
      created_at: inside.updated_at,
      usage_metadata: { input_tokens: 1, output_tokens: 2, total_tokens: 3 }
    }
    store.put('c1', inside, [usage])
    store.put('c2', alsoInside, [usage])
    expect(reportTasks('c1', projects, store, RANGE, UTC)).toEqual([
      { projectId: 'p1', projectName: 'One', task: inside, usages: [usage] },
      // Known on another connection only: none fetched yet on this one.
      { projectId: 'p2', projectName: 'Two', task: alsoInside, usages: undefined }
    ])
    await store.flush()
  })

  it('has no records for any task when there is no usage store (the costs are then estimates)', () => {
    expect(reportTasks('c1', projects, null, RANGE, UTC)).toEqual([
      { projectId: 'p1', projectName: 'One', task: inside, usages: undefined },
      { projectId: 'p2', projectName: 'Two', task: alsoInside, usages: undefined }
    ])
  })
})
