// A record the client had to skip is said on stderr, the rest is still printed, and the command
// exits 6 (invalid response) so a script can tell a short list from a whole one: against the
// reference service breaking one record of a list (its corrupt_record fault), over real HTTP.
import fs from 'node:fs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService, type WireTask } from '../reference-service'
import { EXIT } from './exit-codes'
import { guardedIo } from './io'
import { makeRunner, tempDir } from './test-harness'
import { captureIo } from './test-io'
import { describeInvalidRecord, invalidRecordWarner } from './warnings'

const KEY = 'test-key-CLI-warn-81d0e2'
let service: ReferenceService
let configDir: string
let run: ReturnType<typeof makeRunner>
let projectId: string
let tasks: WireTask[]

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 3, manualClock: true })
  configDir = tempDir()
  run = makeRunner({ service, configDir, env: { AGENT_TRAY_BASE_URL: service.url, AGENT_TRAY_API_KEY: KEY } })
  const p = service.control.createProject({ name: 'Broken records' })
  projectId = p.id
  tasks = ['One', 'Two', 'Three'].map((name) => service.control.addTask(p.id, { name, status: 'completed' }))
})
afterEach(() => service.control.clearFaults())
afterAll(async () => {
  await service.close()
  fs.rmSync(configDir, { recursive: true, force: true })
})

const listedOrder = async (): Promise<string[]> => {
  const r = await run(['tasks', projectId, '--json'])
  return (JSON.parse(r.out) as { id: string }[]).map((t) => t.id)
}

describe('a broken record in a list', () => {
  it('tasks: one warning line on stderr, the other tasks listed, exit 6', async () => {
    const order = await listedOrder()
    service.control.setFaults({ rules: [{ kind: 'corrupt_record', index: 1, times: 1 }] })
    const r = await run(['tasks', projectId])
    expect(r.code).toBe(EXIT.invalidResponse)
    expect(r.err).toMatch(/^agent-tray: warning: skipped task #1: \[1\]\.id: \S.*\n$/)
    const shown = order.filter((id) => r.out.includes(id))
    expect(shown).toEqual(order.filter((_, i) => i !== 1))
  })

  it('tasks --json: the warning is a JSON line on stderr, stdout stays one JSON document', async () => {
    const order = await listedOrder()
    service.control.setFaults({ rules: [{ kind: 'corrupt_record', index: 2, times: 1 }] })
    const r = await run(['tasks', projectId, '--json'])
    expect(r.code).toBe(EXIT.invalidResponse)
    expect((JSON.parse(r.out) as { id: string }[]).map((t) => t.id)).toEqual(order.slice(0, 2))
    const lines = r.err.trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toMatchObject({
      warning: expect.stringMatching(/^skipped task #2: \[2\]\.id: /),
      resource: 'task',
      index: 2,
      path: '[2].id'
    })
  })

  it('steps: the broken step is named, the others listed', async () => {
    const task = tasks[0]!
    const steps = service.control.getTask(task.id)?.steps ?? []
    expect(steps.length).toBeGreaterThan(1)
    service.control.setFaults({ rules: [{ kind: 'corrupt_record', index: 0, pathPrefix: '/tasks/', times: 1 }] })
    const r = await run(['steps', task.id])
    expect(r.code).toBe(EXIT.invalidResponse)
    expect(r.err).toMatch(/^agent-tray: warning: skipped step #0: \[0\]\.id: .*\n$/)
    expect(r.out).not.toContain(steps[0]!.id)
    expect(r.out).toContain(steps[1]!.id)
  })
})

describe('a list whose every record is unreadable is not an empty list', () => {
  it('tasks: the warning, a line that says nothing could be read, exit 6; a whole list still exits 0', async () => {
    const p = service.control.createProject({ name: 'One broken task' })
    const only = service.control.addTask(p.id, { name: 'Only', status: 'completed' })
    service.control.setFaults({ rules: [{ kind: 'corrupt_record', index: 0, times: 1 }] })
    const r = await run(['tasks', p.id])
    expect(r.code).toBe(EXIT.invalidResponse)
    expect(r.out).toBe('No task could be read: the service sent 1 that agent-tray cannot read.\n')
    expect(r.err).toMatch(/^agent-tray: warning: skipped task #0: \[0\]\.id: .*\n$/)
    const whole = await run(['tasks', p.id])
    expect(whole.code).toBe(0)
    expect(whole.out).toContain(only.id)
  })

  it('steps, usage: the same; steps --json prints [] and exits 6', async () => {
    const task = tasks[1]!
    const steps = service.control.getTask(task.id)?.steps ?? []
    expect(steps.length).toBeGreaterThan(1)
    service.control.setFaults({ rules: [{ kind: 'corrupt_record', all: true, pathPrefix: '/tasks/', times: 1 }] })
    const r = await run(['steps', task.id, '--json'])
    expect(r.code).toBe(EXIT.invalidResponse)
    expect(JSON.parse(r.out)).toEqual([])
    expect(r.err.trimEnd().split('\n')).toHaveLength(steps.length)
    // steps-and-usages: the fault breaks its steps; the usage table is whole, the exit still 6.
    service.control.setFaults({ rules: [{ kind: 'corrupt_record', all: true, pathPrefix: '/tasks/', times: 1 }] })
    const u = await run(['usage', task.id, '--project', projectId])
    expect(u.code).toBe(EXIT.invalidResponse)
    expect(u.out).toMatch(/^Calls \(\d+\):/)
    expect(u.err.trimEnd().split('\n')).toHaveLength(steps.length)
    service.control.setFaults({ rules: [{ kind: 'corrupt_record', all: true, pathPrefix: '/tasks/', times: 1 }] })
    const human = await run(['steps', task.id])
    expect(human.out).toBe(`No step could be read: the service sent ${steps.length} that agent-tray cannot read.\n`)
  })

  it('watch --task: a task that is there but unreadable is said to be unreadable (6), not gone (4)', async () => {
    const order = await listedOrder()
    service.control.setFaults({ rules: [{ kind: 'corrupt_record', index: 0, times: 1 }] })
    const r = await run(['watch', '--task', order[0]!, '--project', projectId])
    expect(r.code).toBe(EXIT.invalidResponse)
    expect(r.err).toMatch(/^agent-tray: warning: skipped task #0/)
    expect(r.err).toMatch(
      /agent-tray: Task \S+ is not among the tasks of project \S+\. It may be one of the 1 the service sent that could not be read/
    )
  })
})

describe('describeInvalidRecord', () => {
  it('names the id when there is one, shortened and on one line; control characters are escaped on the way out', () => {
    expect(
      describeInvalidRecord({ resource: 'step', index: 2, id: 's-9', path: '[2].status', message: 'bad status' })
    ).toBe('skipped step #2 (id s-9): [2].status: bad status')
    const line = describeInvalidRecord({
      resource: 'usage',
      index: 0,
      id: `x\u001b[2J\n${'y'.repeat(100)}`,
      path: 'usages[0].price',
      message: 'm'
    })
    expect(line).not.toContain('\n')
    expect(line).toContain('…)')
    const io = captureIo()
    invalidRecordWarner(
      guardedIo(io, () => []).stderr,
      false
    )({ resource: 'usage', index: 0, id: `x\u001b[2J`, path: 'usages[0].price', message: 'm' })
    expect(io.err()).toBe('agent-tray: warning: skipped usage #0 (id x\\u001b[2J): usages[0].price: m\n')
  })
})
