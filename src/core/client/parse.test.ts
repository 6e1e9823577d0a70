import { describe, expect, it } from 'vitest'
import {
  decodeJson,
  type InvalidRecordIssue,
  parseProject,
  parseProjects,
  parsePublishResult,
  parseSteps,
  parseStepsAndUsages,
  parseTask,
  parseTaskDigests,
  parseTasks
} from './parse'
import { ServiceError } from './service-error'

const project = {
  id: 'p1',
  software_product_id: 'sp1',
  name: 'Shop',
  description: 'A shop',
  project_type: 'web',
  project_template_type: 'react',
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:01.000Z',
  user_email: 'a@b.c',
  prebuilt_url: 'https://ui.example/p1',
  return_url: 'https://app.example/back',
  ref_id: 'r1'
}

const step = {
  id: 's1',
  task_id: 't1',
  name: 'Read',
  description: 'Read a file',
  status: 'completed',
  type: null,
  metadata: { tool: 'read_file_from_sandbox', path: 'src/a.ts' },
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z'
}

const task = {
  id: 't1',
  project_id: 'p1',
  name: 'Build',
  description: 'Build it',
  status: 'in_progress',
  text_requirement: 'a shop',
  files_requirement: [{ file_type: 'image', url: 'https://x/y.png' }],
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z',
  steps: [step],
  branch: 'main',
  total_price: 0.0123
}

const usage = {
  id: 'u1',
  task_id: 't1',
  usage_type: 'llm_call',
  provider: 'openai',
  model: 'gpt',
  remark: 'plan',
  request_data: {},
  response_data: { id: 'r', token_usage: { total_tokens: 30 }, finish_reason: 'stop' },
  usage_metadata: {
    input_tokens: 10,
    output_tokens: 20,
    total_tokens: 30,
    cache_read_tokens: 4,
    input_token_details: { cache_read: 4, priority_cache_read: 'x' },
    output_token_details: {}
  },
  price: { input_price: 0.001, output_price: 0.002, cache_read_price: 0, total_price: 0.003 },
  final_price: 0.003,
  created_at: '2025-01-01T00:00:00.000Z',
  updated_at: '2025-01-01T00:00:00.000Z'
}

function collect(): { issues: InvalidRecordIssue[]; report: (i: InvalidRecordIssue) => void } {
  const issues: InvalidRecordIssue[] = []
  return { issues, report: (i) => issues.push(i) }
}

function thrown(run: () => unknown): ServiceError {
  try {
    run()
  } catch (e) {
    expect(e).toBeInstanceOf(ServiceError)
    return e as ServiceError
  }
  throw new Error('expected a ServiceError')
}

describe('decodeJson', () => {
  it('reads JSON', () => {
    expect(decodeJson('{"a":1}', 'a project')).toEqual({ a: 1 })
  })

  it('names a body that is not JSON, quoting its start', () => {
    const e = thrown(() => decodeJson('<html>Bad Gateway</html>', 'a project'))
    expect(e.kind).toBe('invalid_response')
    expect(e.details).toEqual({ reason: 'not_json', record: 'a project' })
    expect(e.message).toContain('not JSON')
    expect(e.message).toContain('<html>Bad Gateway')
  })

  it('treats truncated JSON as not JSON', () => {
    expect(thrown(() => decodeJson(JSON.stringify([task]).slice(0, 50), 'tasks')).details?.reason).toBe('not_json')
  })

  it('names an empty body', () => {
    const e = thrown(() => decodeJson('  ', 'a project'))
    expect(e.details).toEqual({ reason: 'empty', record: 'a project' })
    expect(e.message).toBe('The service sent an empty body where a project was expected.')
  })
})

describe('parseProject', () => {
  it('keeps every field of a good project and drops unknown keys without failing', () => {
    expect(parseProject({ ...project, brand_new_field: { x: 1 } })).toEqual(project)
  })

  it('fills absent and null strings with empty strings', () => {
    expect(parseProject({ id: 'p2', name: null })).toEqual({
      ...Object.fromEntries(Object.keys(project).map((k) => [k, ''])),
      id: 'p2'
    })
  })

  it('writes out numbers given where strings belong, and accepts a numeric id', () => {
    const p = parseProject({ id: 42, name: 7, description: true, ref_id: { no: 1 } })
    expect(p.id).toBe('42')
    expect(p.name).toBe('7')
    expect(p.description).toBe('true')
    expect(p.ref_id).toBe('')
  })

  it('names the field when the id is missing', () => {
    const e = thrown(() => parseProject({ name: 'x' }))
    expect(e.kind).toBe('invalid_response')
    expect(e.details).toEqual({ reason: 'invalid_record', record: 'a project', path: 'id' })
    expect(e.message).toBe('The service sent a project we cannot read: id: missing.')
  })

  it.each([
    [null, 'null'],
    [[], 'a list'],
    ['text', 'a string'],
    [3, 'a number'],
    [true, 'a boolean']
  ])('rejects %j where an object belongs, saying what came', (body, came) => {
    const e = thrown(() => parseProject(body))
    expect(e.details).toEqual({ reason: 'wrong_shape', record: 'a project', path: '(body)' })
    expect(e.message).toBe(`The service sent ${came} where a project was expected.`)
    if (!Array.isArray(body))
      expect(thrown(() => parseTasks(body)).message).toBe(
        `The service sent ${came} where a list of tasks was expected.`
      )
  })
})

describe('parseProjects', () => {
  it('drops a broken project, reports where it was, and keeps its siblings', () => {
    const { issues, report } = collect()
    expect(
      parseProjects([project, { ...project, id: 'p2', name: 'Other' }, { ...project, id: '' }], report).map(
        (p) => p.name
      )
    ).toEqual(['Shop', 'Other'])
    expect(issues).toStrictEqual([{ resource: 'project', index: 2, path: '[2].id', message: 'empty' }])
  })

  it('rejects a body that is not a list of projects, saying so', () => {
    const e = thrown(() => parseProjects({ projects: [project] }))
    expect(e.message).toBe('The service sent an object where a list of projects was expected.')
    expect(e.details).toEqual({ reason: 'wrong_shape', record: 'projects', path: '(body)' })
  })
})

describe('parseTask', () => {
  it('names the field of a task it cannot read', () => {
    const e = thrown(() => parseTask({ ...task, steps: 'nope' }))
    expect(e.message).toBe('The service sent a task we cannot read: steps: not a list.')
    expect(e.details).toEqual({ reason: 'invalid_record', record: 'a task', path: 'steps' })
  })

  it('drops a broken step and keeps the task with the rest', () => {
    expect(parseTask({ ...task, steps: [{ ...step, id: undefined }, step] }).steps).toEqual([step])
  })
})

describe('anything thrown while a body is read', () => {
  /** An object whose `key` throws when read: no JSON makes one, but the parsers take any value. */
  const throwing = (key: string): object =>
    Object.defineProperty({}, key, {
      enumerable: true,
      get() {
        throw new Error('boom')
      }
    })

  it.each<[string, () => unknown]>([
    ['a project', () => parseProject(throwing('id'))],
    ['projects', () => parseProjects([throwing('id')])],
    ['a task', () => parseTask(throwing('id'))],
    ['steps', () => parseSteps([throwing('id')])],
    ['tasks', () => parseTasks([throwing('id')])],
    ['tasks', () => parseTaskDigests([throwing('id')])],
    ['steps and usages', () => parseStepsAndUsages(throwing('steps'))],
    ['a publish result', () => parsePublishResult(throwing('status'))]
  ])('becomes invalid_response naming %s', (what, run) => {
    const e = thrown(run)
    expect(e.kind).toBe('invalid_response')
    expect(e.message).toBe(`The service sent ${what} we cannot read (boom).`)
    expect(e.details).toEqual({ record: what })
  })
})

describe('parseTasks', () => {
  it('reads a good list', () => {
    const { issues, report } = collect()
    const [t] = parseTasks([task], report)
    expect(issues).toEqual([])
    expect(t).toEqual({ ...task, steps: [{ ...step }] })
  })

  it('keeps an unknown status as unknown with the raw value', () => {
    const [t] = parseTasks([{ ...task, status: 'paused' }])
    expect(t?.status).toBe('unknown')
    expect(t?.status_raw).toBe('paused')
    const [u] = parseTasks([{ ...task, status: undefined }])
    expect(u?.status).toBe('unknown')
    expect(u).not.toHaveProperty('status_raw')
  })

  it('defaults optional fields', () => {
    const [t] = parseTasks([{ id: 't9' }])
    expect(t).toEqual({
      id: 't9',
      project_id: '',
      name: '',
      description: '',
      status: 'unknown',
      text_requirement: '',
      files_requirement: [],
      created_at: '',
      updated_at: '',
      steps: [],
      branch: '',
      total_price: null
    })
  })

  it('reads total_price as a number, a numeric string, or null', () => {
    expect(parseTasks([{ ...task, total_price: '1.5' }])[0]?.total_price).toBe(1.5)
    expect(parseTasks([{ ...task, total_price: null }])[0]?.total_price).toBeNull()
    expect(parseTasks([{ ...task, total_price: 'lots' }])[0]?.total_price).toBeNull()
    expect(parseTasks([{ ...task, total_price: 0 }])[0]?.total_price).toBe(0)
    expect(parseTasks([{ ...task, total_price: true }])[0]?.total_price).toBeNull()
  })

  it('keeps only object file requirements', () => {
    const [t] = parseTasks([{ ...task, files_requirement: [null, 'x', { url: 'u' }] }])
    expect(t?.files_requirement).toEqual([{ file_type: '', url: 'u' }])
  })

  it('drops a broken task, reports it, and keeps its siblings', () => {
    const { issues, report } = collect()
    const tasks = parseTasks(
      [task, { ...task, id: undefined }, { ...task, id: 't3', steps: 'nope' }, { ...task, id: 't4' }],
      report
    )
    expect(tasks.map((t) => t.id)).toEqual(['t1', 't4'])
    // Strictly: a record without an id is reported without one, not with an id of undefined.
    expect(issues).toStrictEqual([
      { resource: 'task', index: 1, path: '[1].id', message: 'missing' },
      { resource: 'task', index: 2, id: 't3', path: '[2].steps', message: 'not a list' }
    ])
  })

  it('drops a broken step inside a task and keeps the task', () => {
    const { issues, report } = collect()
    const tasks = parseTasks(
      [
        { ...task, id: 'tx' },
        { ...task, steps: [step, { ...step, id: '' }, 5] }
      ],
      report
    )
    expect(tasks[1]?.steps).toHaveLength(1)
    expect(issues).toEqual([
      { resource: 'step', index: 1, path: '[1].steps[1].id', message: 'empty' },
      { resource: 'step', index: 2, path: '[1].steps[2]', message: expect.any(String) }
    ])
  })

  it('reports a dropped task by its numeric id written out, and says an id that is neither text nor a number is not one', () => {
    const { issues, report } = collect()
    const tasks = parseTasks(
      [
        { ...task, id: 7, steps: 'nope' },
        { ...task, id: { x: 1 } },
        { ...task, id: 't3', status: 5 }
      ],
      report
    )
    expect(tasks.map((t) => [t.id, t.status, t.status_raw])).toEqual([['t3', 'unknown', '5']])
    expect(issues).toEqual([
      { resource: 'task', index: 0, id: '7', path: '[0].steps', message: 'not a list' },
      { resource: 'task', index: 1, path: '[1].id', message: 'not a non-empty string' }
    ])
  })

  it('treats null steps as none', () => {
    expect(parseTasks([{ ...task, steps: null }])[0]?.steps).toEqual([])
  })

  it('rejects a body that is not a list', () => {
    for (const parse of [parseTasks, parseTaskDigests]) {
      const e = thrown(() => parse({ tasks: [task] }))
      expect(e.kind).toBe('invalid_response')
      expect(e.message).toBe('The service sent an object where a list of tasks was expected.')
      expect(e.details).toEqual({ reason: 'wrong_shape', record: 'tasks', path: '(body)' })
    }
  })

  it('reads a huge list', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => ({ ...task, id: `t${i}` }))
    expect(parseTasks(many)).toHaveLength(20_000)
  })
})

describe('parseSteps', () => {
  it('keeps null type, known types, and unknown types with their raw value', () => {
    const steps = parseSteps([
      step,
      { ...step, id: 's2', type: 'research' },
      { ...step, id: 's3', type: 'video_generation', status: 'queued' }
    ])
    expect(steps.map((s) => s.type)).toEqual([null, 'research', 'unknown'])
    expect(steps[2]).toMatchObject({ type_raw: 'video_generation', status: 'unknown', status_raw: 'queued' })
    expect(steps[0]).not.toHaveProperty('type_raw')
  })

  it('writes out a status or type sent as a number, and keeps no raw text of one sent as an object', () => {
    const [numbered, odd] = parseSteps([
      { ...step, status: 5, type: 7 },
      { ...step, id: 's2', status: { a: 1 }, type: { a: 1 } }
    ])
    expect(numbered).toMatchObject({ status: 'unknown', status_raw: '5', type: 'unknown', type_raw: '7' })
    expect(odd).toMatchObject({ status: 'unknown', type: 'unknown' })
    expect(odd).not.toHaveProperty('status_raw')
    expect(odd).not.toHaveProperty('type_raw')
  })

  it('turns metadata that is not an object into {}', () => {
    for (const metadata of [null, 'x', [1], 3, undefined]) {
      expect(parseSteps([{ ...step, metadata }])[0]?.metadata).toEqual({})
    }
  })

  it('keeps metadata of unknown tools as it is', () => {
    const metadata = { tool: 'deploy_to_moon', rocket: { stages: 3 } }
    expect(parseSteps([{ ...step, metadata }])[0]?.metadata).toEqual(metadata)
  })

  it('rejects a body that is not a list of steps, saying so', () => {
    expect(thrown(() => parseSteps({ steps: [step] })).message).toBe(
      'The service sent an object where a list of steps was expected.'
    )
  })

  it('drops null entries and reports them', () => {
    const { issues, report } = collect()
    expect(parseSteps([null, step], report)).toHaveLength(1)
    expect(issues[0]).toMatchObject({ resource: 'step', index: 0, path: '[0]' })
  })
})

describe('parseStepsAndUsages', () => {
  it('reads steps and usage records', () => {
    const r = parseStepsAndUsages({ steps: [step], usages: [usage], extra: 1 })
    expect(r.steps).toHaveLength(1)
    expect(r.usages[0]).toEqual({
      ...usage,
      usage_metadata: { ...usage.usage_metadata, input_token_details: { cache_read: 4 } }
    })
  })

  it('keeps absent token details absent rather than 0', () => {
    const [u] = parseStepsAndUsages({
      usages: [{ ...usage, usage_metadata: { input_tokens: 1, output_tokens: 2, total_tokens: 5 } }]
    }).usages
    // Strictly: absent, not there with the value undefined.
    expect(u?.usage_metadata).toStrictEqual({ input_tokens: 1, output_tokens: 2, total_tokens: 5 })
  })

  it('keeps Anthropic-style response_data raw', () => {
    const response_data = { stop_reason: 'end_turn', usage: { input_tokens: 3 } }
    expect(parseStepsAndUsages({ usages: [{ ...usage, response_data }] }).usages[0]?.response_data).toEqual(
      response_data
    )
  })

  it('reads a numeric-string final_price and drops non-numeric price parts', () => {
    const [u] = parseStepsAndUsages({
      usages: [{ ...usage, final_price: ' 0.25 ', price: { input_price: 'x', total_price: '0.25' } }]
    }).usages
    expect(u?.final_price).toBe(0.25)
    // Strictly: a part that is no number is left out, not kept as undefined.
    expect(u?.price).toStrictEqual({ total_price: 0.25 })
  })

  it('reads a usage record without a price object as one without price parts', () => {
    const { usages } = parseStepsAndUsages({
      usages: [
        { ...usage, id: 'u1', price: undefined },
        { ...usage, id: 'u2', price: null },
        { ...usage, id: 'u3', price: 'free' }
      ]
    })
    expect(usages.map((u) => [u.id, u.price])).toEqual([
      ['u1', {}],
      ['u2', {}],
      ['u3', {}]
    ])
  })

  it('reports usage records without token counts or a price, keeping the rest', () => {
    const { issues, report } = collect()
    const r = parseStepsAndUsages(
      {
        steps: [],
        usages: [
          { ...usage, id: 'u1', usage_metadata: { input_tokens: 1, total_tokens: 2 } },
          { ...usage, id: 'u2', usage_metadata: { ...usage.usage_metadata, total_tokens: '30' } },
          { ...usage, id: 'u3', final_price: 'free' },
          { ...usage, id: 'u4', final_price: undefined },
          { ...usage, id: 'u7', final_price: { usd: 1 } },
          { ...usage, id: 'u5', usage_metadata: null },
          { ...usage, id: 'u6' }
        ]
      },
      report
    )
    expect(r.usages.map((u) => u.id)).toEqual(['u6'])
    expect(issues).toEqual([
      { resource: 'usage', index: 0, id: 'u1', path: 'usages[0].usage_metadata.output_tokens', message: 'missing' },
      { resource: 'usage', index: 1, id: 'u2', path: 'usages[1].usage_metadata.total_tokens', message: 'not a number' },
      { resource: 'usage', index: 2, id: 'u3', path: 'usages[2].final_price', message: 'not a number' },
      { resource: 'usage', index: 3, id: 'u4', path: 'usages[3].final_price', message: 'missing' },
      { resource: 'usage', index: 4, id: 'u7', path: 'usages[4].final_price', message: 'not a number' },
      { resource: 'usage', index: 5, id: 'u5', path: 'usages[5].usage_metadata', message: 'not an object' }
    ])
  })

  it('reports a usage record without usage_metadata, or with a count too large for a number, and keeps only finite token details', () => {
    const { issues, report } = collect()
    const huge = JSON.parse('1e400') as number
    const { usages } = parseStepsAndUsages(
      {
        usages: [
          { ...usage, id: 'u1', usage_metadata: undefined },
          { ...usage, id: 'u2', usage_metadata: { ...usage.usage_metadata, total_tokens: huge } },
          {
            ...usage,
            id: 'u3',
            usage_metadata: { ...usage.usage_metadata, input_token_details: { cache_read: huge, audio: 2 } }
          }
        ]
      },
      report
    )
    expect(usages.map((u) => [u.id, u.usage_metadata.input_token_details])).toEqual([['u3', { audio: 2 }]])
    expect(issues).toEqual([
      { resource: 'usage', index: 0, id: 'u1', path: 'usages[0].usage_metadata', message: 'missing' },
      { resource: 'usage', index: 1, id: 'u2', path: 'usages[1].usage_metadata.total_tokens', message: 'not a number' }
    ])
  })

  it('defaults missing lists to [] and rejects lists that are not lists', () => {
    expect(parseStepsAndUsages({})).toEqual({ steps: [], usages: [] })
    const e = thrown(() => parseStepsAndUsages({ steps: {}, usages: [] }))
    expect(e.details).toEqual({ reason: 'wrong_shape', record: 'steps and usages', path: 'steps' })
    expect(e.message).toBe('The service sent steps and usages we cannot read: steps: not a list.')
    const list = thrown(() => parseStepsAndUsages([step]))
    expect(list.message).toBe('The service sent a list where steps and usages were expected.')
    expect(list.details).toEqual({ reason: 'wrong_shape', record: 'steps and usages', path: '(body)' })
  })

  it('drops a broken step of steps and usages, reporting where it was', () => {
    const { issues, report } = collect()
    expect(parseStepsAndUsages({ steps: [step, { ...step, id: undefined }], usages: [] }, report).steps).toHaveLength(1)
    expect(issues).toEqual([{ resource: 'step', index: 1, path: 'steps[1].id', message: 'missing' }])
  })
})

describe('parsePublishResult', () => {
  it('accepts message as a list or a single string', () => {
    expect(parsePublishResult({ status: 'success', message: ['Published', 'ok'] })).toEqual({
      status: 'success',
      message: ['Published', 'ok']
    })
    expect(parsePublishResult({ status: 'failed', message: 'Hostname taken' })).toEqual({
      status: 'failed',
      message: ['Hostname taken']
    })
    expect(parsePublishResult({ status: 'failed' })).toEqual({ status: 'failed', message: [] })
    expect(parsePublishResult({ status: 'failed', message: '' })).toEqual({ status: 'failed', message: [] })
    expect(parsePublishResult({ status: 'success', message: [1, true, null, { a: 1 }, 'ok'] })).toEqual({
      status: 'success',
      message: ['1', 'true', 'ok']
    })
  })

  it('names a status it does not know', () => {
    const e = thrown(() => parsePublishResult({ status: 'maybe', message: [] }))
    expect(e.kind).toBe('invalid_response')
    expect(e.details?.path).toBe('status')
    expect(e.message).toContain('neither "success" nor "failed"')
    expect(thrown(() => parsePublishResult({ message: [] })).message).toBe(
      'The service sent a publish result we cannot read: status: missing.'
    )
    expect(thrown(() => parsePublishResult(null)).message).toBe(
      'The service sent null where a publish result was expected.'
    )
  })
})
