// The fast path must be invisible: for any body, parseTasks/parseSteps/parseStepsAndUsages give
// the same records, in the same key order, and report the same issues, as the schemas alone.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { STEP_STATUSES, STEP_TYPES, TASK_STATUSES } from '../../shared/service'
import { digestTask } from './digest'
import { fastStep, fastTask } from './fast'
import {
  type InvalidRecordIssue,
  parseSteps,
  parseStepsAndUsages,
  parseTaskDigests,
  parseTasks,
  stepsOf,
  withSchemasOnly
} from './parse'

/** Mostly the right kind of value, sometimes any other: both paths get exercised. */
const odd = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(''),
  fc.string(),
  fc.constant([]),
  fc.constant({}),
  fc.constant('12.5')
)
const maybe = <T>(good: fc.Arbitrary<T>) => fc.oneof({ weight: 8, arbitrary: good }, { weight: 1, arbitrary: odd })
const iso = fc.integer({ min: 0, max: 4e12 }).map((ms) => new Date(ms).toISOString())

const step = fc.record(
  {
    id: maybe(fc.uuid()),
    task_id: maybe(fc.string()),
    name: maybe(fc.string()),
    description: maybe(fc.string()),
    status: maybe(fc.constantFrom(...STEP_STATUSES, 'paused')),
    type: maybe(fc.constantFrom(...STEP_TYPES, null, 'new_kind')),
    metadata: maybe(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })),
    created_at: maybe(iso),
    updated_at: maybe(iso),
    extra: fc.jsonValue({ maxDepth: 1 })
  },
  { requiredKeys: [] }
)

const task = fc.record(
  {
    id: maybe(fc.uuid()),
    project_id: maybe(fc.string()),
    name: maybe(fc.string()),
    description: maybe(fc.string()),
    status: maybe(fc.constantFrom(...TASK_STATUSES, 'queued')),
    text_requirement: maybe(fc.string()),
    files_requirement: maybe(
      fc.array(fc.oneof(fc.record({ file_type: maybe(fc.string()), url: maybe(fc.webUrl()) }), odd), { maxLength: 2 })
    ),
    created_at: maybe(iso),
    updated_at: maybe(iso),
    steps: maybe(fc.array(fc.oneof({ weight: 6, arbitrary: step }, { weight: 1, arbitrary: odd }), { maxLength: 5 })),
    branch: maybe(fc.string()),
    total_price: maybe(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null))),
    extra: fc.jsonValue({ maxDepth: 1 })
  },
  { requiredKeys: [] }
)

function both<T>(parse: (report: (i: InvalidRecordIssue) => void) => T): void {
  const fastIssues: InvalidRecordIssue[] = []
  const slowIssues: InvalidRecordIssue[] = []
  const fast = parse((i) => fastIssues.push(i))
  const slow = withSchemasOnly(() => parse((i) => slowIssues.push(i)))
  expect(fast).toStrictEqual(slow)
  expect(JSON.stringify(fast)).toBe(JSON.stringify(slow))
  expect(fastIssues).toStrictEqual(slowIssues)
}

describe('the fast path agrees with the schemas', () => {
  it('task lists, through JSON as the client sees them', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 8, arbitrary: task }, { weight: 1, arbitrary: odd }), { maxLength: 6 }),
        (list) => {
          const body = JSON.parse(JSON.stringify(list)) as unknown
          both((report) => parseTasks(body, report))
        }
      ),
      { numRuns: 500 }
    )
  })

  it('task digests: the same tasks, steps, fingerprints and reports as parseTasks, fast or through the schemas', () => {
    const list = fc.array(fc.oneof({ weight: 8, arbitrary: task }, { weight: 1, arbitrary: odd }), { maxLength: 6 })
    fc.assert(
      fc.property(list, fc.boolean(), (tasks, schemasOnly) => {
        const body = JSON.parse(JSON.stringify(tasks)) as unknown
        const run = <T>(f: () => T): T => (schemasOnly ? withSchemasOnly(f) : f())
        const fullIssues: InvalidRecordIssue[] = []
        const digestIssues: InvalidRecordIssue[] = []
        const full = run(() => parseTasks(body, (i) => fullIssues.push(i)))
        const digests = run(() => parseTaskDigests(body, (i) => digestIssues.push(i)))
        expect(digestIssues).toStrictEqual(fullIssues)
        expect(digests.length).toBe(full.length)
        digests.forEach((d, i) => {
          const expected = digestTask(full[i] as (typeof full)[number])
          const { steps, rawSteps, ...head } = d
          const { steps: expectedSteps, rawSteps: _none, ...expectedHead } = expected
          expect(head).toStrictEqual(expectedHead)
          // Ended tasks' steps are built only when asked for, and then equal parseTasks's.
          if (d.status === 'todo' || d.status === 'in_progress') expect(steps).not.toBeNull()
          if (steps === null) expect(rawSteps).not.toBeNull()
          expect(run(() => stepsOf(d))).toStrictEqual(expectedSteps)
        })
      }),
      { numRuns: 500 }
    )
  })

  it("task digests keep an ended task's steps unbuilt, and report a broken one once", () => {
    const good = { id: 's1', status: 'completed', updated_at: '2026-11-23T10:00:00.000Z' }
    const body = [
      { id: 't1', status: 'completed', steps: [good, { ...good, id: 's2', updated_at: '2026-11-23T11:00:00.000Z' }] },
      { id: 't2', status: 'failed', steps: [good, 'not a step', { id: 7, status: 'completed' }] },
      { id: 't3', status: 'in_progress', steps: [good] }
    ]
    const issues: InvalidRecordIssue[] = []
    const [t1, t2, t3] = parseTaskDigests(body, (i) => issues.push(i))
    expect(t1).toMatchObject({ steps: null, stepCount: 2, stepsActivityMs: Date.parse('2026-11-23T11:00:00.000Z') })
    // The schema's way still reads what it can (a numeric id), and drops what it cannot.
    expect(t2).toMatchObject({ stepCount: 2, rawSteps: null })
    expect(t2?.steps?.map((s) => s.id)).toEqual(['s1', '7'])
    expect(t3?.steps).toHaveLength(1)
    expect(issues).toEqual([expect.objectContaining({ resource: 'step', index: 1, path: '[1].steps[1]' })])
    expect(stepsOf(t1!).map((s) => s.id)).toEqual(['s1', 's2'])
    expect(issues).toHaveLength(1)
  })

  it('step lists and steps with usages', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 8, arbitrary: step }, { weight: 1, arbitrary: odd }), { maxLength: 6 }),
        (list) => {
          const body = JSON.parse(JSON.stringify(list)) as unknown
          both((report) => parseSteps(body, report))
          both((report) => parseStepsAndUsages({ steps: body, usages: [] }, report))
        }
      ),
      { numRuns: 300 }
    )
  })

  it('takes well-formed records, and leaves the rest to the schemas', () => {
    const good = { id: 't1', status: 'completed', steps: [], total_price: 0.5 }
    expect(fastTask(good)?.task).toMatchObject({ id: 't1', status: 'completed', total_price: 0.5, name: '' })
    expect(fastTask({ ...good, status: 'queued' })).toBeUndefined()
    expect(fastTask({ ...good, total_price: '0.5' })).toBeUndefined()
    expect(fastTask({ ...good, id: 7 })).toBeUndefined()
    expect(fastTask({ ...good, steps: {} })).toBeUndefined()
    expect(fastTask(Object.assign(Object.create(null) as object, good))).toBeUndefined()
    expect(fastStep({ id: 's1', status: 'pending', type: 'unknown_kind' })).toBeUndefined()
    expect(fastStep({ id: 's1', status: 'pending', metadata: [] })).toBeUndefined()
    expect(fastStep({ id: 's1', status: 'pending' })).toMatchObject({ type: null, metadata: {}, name: '' })
  })
})
