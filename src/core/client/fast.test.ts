// The fast path's own rule, field by field: which records it takes as they are, what it builds from
// them, and which it leaves to the schemas (parse.fast.test.ts checks the two paths then agree).
import { describe, expect, it } from 'vitest'
import { STEP_STATUSES, STEP_TYPES, TASK_STATUSES } from '../../shared/service'
import { fastStep, fastTask, isFastStep } from './fast'

const task = {
  id: 't1',
  project_id: 'p1',
  name: 'Add login',
  description: 'A form',
  status: 'completed',
  text_requirement: 'Make it',
  files_requirement: [{ file_type: 'image', url: 'https://x.test/a.png' }],
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T11:00:00.000Z',
  branch: 'main',
  total_price: 0.5,
  steps: [{ id: 's1' }]
}

const step = {
  id: 's1',
  task_id: 't1',
  name: 'Build',
  description: 'It builds',
  status: 'completed',
  type: 'research',
  metadata: { k: 1 },
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T11:00:00.000Z'
}

const TASK_TEXT = [
  'project_id',
  'name',
  'description',
  'text_requirement',
  'created_at',
  'updated_at',
  'branch'
] as const
const STEP_TEXT = ['task_id', 'name', 'description', 'created_at', 'updated_at'] as const
/** Values no plain record is: the fast path leaves each to the schemas. */
const NOT_PLAIN = [
  null,
  undefined,
  'task',
  7,
  [],
  [task],
  Object.assign(Object.create(null) as object, task),
  new (class Task {})()
]

describe('fastTask', () => {
  it('takes a well-formed task as it is, with its raw steps', () => {
    const { steps, ...head } = task
    const taken = fastTask(task)
    expect(taken).toStrictEqual({ task: head, rawSteps: steps })
    expect(taken?.rawSteps).toBe(steps)
    expect(Object.keys(taken!.task)).toEqual(Object.keys(head))
  })

  it('reads a text field left out or null as empty, and leaves any other kind of value to the schemas', () => {
    for (const field of TASK_TEXT) {
      expect(fastTask({ ...task, [field]: null })?.task[field], field).toBe('')
      expect(fastTask({ ...task, [field]: undefined })?.task[field], field).toBe('')
      for (const odd of [7, true, {}, []]) expect(fastTask({ ...task, [field]: odd }), field).toBeUndefined()
    }
  })

  it('needs a non-empty text id and a known status', () => {
    for (const id of ['', 7, null, undefined]) expect(fastTask({ ...task, id })).toBeUndefined()
    for (const status of TASK_STATUSES) expect(fastTask({ ...task, status })?.task.status).toBe(status)
    for (const status of ['queued', 'COMPLETED', 1, null, undefined])
      expect(fastTask({ ...task, status })).toBeUndefined()
  })

  it('takes a finite price or none (null), and steps as a list or none (empty)', () => {
    expect(fastTask({ ...task, total_price: 0 })?.task.total_price).toBe(0)
    expect(fastTask({ ...task, total_price: -2.5 })?.task.total_price).toBe(-2.5)
    expect(fastTask({ ...task, total_price: null })?.task.total_price).toBeNull()
    expect(fastTask({ ...task, total_price: undefined })?.task.total_price).toBeNull()
    for (const price of ['0.5', Number.NaN, Number.POSITIVE_INFINITY, {}, true])
      expect(fastTask({ ...task, total_price: price })).toBeUndefined()
    expect(fastTask({ ...task, steps: null })?.rawSteps).toEqual([])
    expect(fastTask({ ...task, steps: undefined })?.rawSteps).toEqual([])
    for (const steps of [{}, 'steps', 3]) expect(fastTask({ ...task, steps })).toBeUndefined()
  })

  it('reads the files asked for as far as they are records, and no list as none', () => {
    const files = [{ file_type: 'image', url: 'u' }, null, 'a.png', [], { url: 7 }, { file_type: true, url: null }]
    expect(fastTask({ ...task, files_requirement: files })?.task.files_requirement).toStrictEqual([
      { file_type: 'image', url: 'u' },
      { file_type: '', url: '7' },
      { file_type: 'true', url: '' }
    ])
    for (const none of [undefined, null, {}, 'a.png'])
      expect(fastTask({ ...task, files_requirement: none })?.task.files_requirement).toEqual([])
  })

  it('leaves anything but a plain record to the schemas', () => {
    for (const v of NOT_PLAIN) expect(fastTask(v)).toBeUndefined()
  })
})

describe('isFastStep and fastStep', () => {
  it('take a well-formed step as it is', () => {
    expect(isFastStep(step)).toBe(true)
    const taken = fastStep(step)
    expect(taken).toStrictEqual(step)
    expect(taken?.metadata).toBe(step.metadata)
    expect(Object.keys(taken!)).toEqual([
      'id',
      'task_id',
      'name',
      'description',
      'status',
      'type',
      'metadata',
      'created_at',
      'updated_at'
    ])
  })

  it('read a text field left out or null as empty, and leave any other kind of value to the schemas', () => {
    for (const field of STEP_TEXT) {
      expect(fastStep({ ...step, [field]: null })?.[field], field).toBe('')
      expect(fastStep({ ...step, [field]: undefined })?.[field], field).toBe('')
      for (const odd of [7, false, {}]) {
        expect(isFastStep({ ...step, [field]: odd }), field).toBe(false)
        expect(fastStep({ ...step, [field]: odd }), field).toBeUndefined()
      }
    }
  })

  it('need a non-empty text id and a known status; a type known or none, metadata a record or none', () => {
    for (const id of ['', 7, null]) expect(isFastStep({ ...step, id })).toBe(false)
    for (const status of STEP_STATUSES) expect(fastStep({ ...step, status })?.status).toBe(status)
    for (const status of ['paused', 2, null]) expect(isFastStep({ ...step, status })).toBe(false)
    for (const type of STEP_TYPES) expect(fastStep({ ...step, type })?.type).toBe(type)
    expect(fastStep({ ...step, type: null })?.type).toBeNull()
    expect(fastStep({ ...step, type: undefined })?.type).toBeNull()
    for (const type of ['new_kind', 3, {}]) expect(isFastStep({ ...step, type })).toBe(false)
    expect(fastStep({ ...step, metadata: null })?.metadata).toEqual({})
    expect(fastStep({ ...step, metadata: undefined })?.metadata).toEqual({})
    for (const metadata of [[], 'm', 1, Object.create(null) as object])
      expect(isFastStep({ ...step, metadata })).toBe(false)
  })

  it('leave anything but a plain record to the schemas', () => {
    for (const v of NOT_PLAIN) {
      expect(isFastStep(v)).toBe(false)
      expect(fastStep(v)).toBeUndefined()
    }
  })
})
