// A record the client had to skip is said on stderr, and the rest is still printed: against the
// reference service breaking one record of a list (its corrupt_record fault).
import fs from 'node:fs'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startReferenceService, type ReferenceService, type WireTask } from '../reference-service'
import { makeRunner, tempDir } from './test-harness'
import { guardedIo } from './io'
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
  it('tasks: one warning line on stderr, the other tasks listed, exit 0', async () => {
    const order = await listedOrder()
    service.control.setFaults({ rules: [{ kind: 'corrupt_record', index: 1, times: 1 }] })
    const r = await run(['tasks', projectId])
    expect(r.code).toBe(0)
    expect(r.err).toMatch(/^agent-tray: warning: skipped task #1: \[1\]\.id: \S.*\n$/)
    const shown = order.filter((id) => r.out.includes(id))
    expect(shown).toEqual(order.filter((_, i) => i !== 1))
  })

  it('tasks --json: the warning is a JSON line on stderr, stdout stays one JSON document', async () => {
    const order = await listedOrder()
    service.control.setFaults({ rules: [{ kind: 'corrupt_record', index: 2, times: 1 }] })
    const r = await run(['tasks', projectId, '--json'])
    expect(r.code).toBe(0)
    expect((JSON.parse(r.out) as { id: string }[]).map((t) => t.id)).toEqual(order.slice(0, 2))
    const lines = r.err.trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0]!)).toMatchObject({ warning: expect.stringMatching(/^skipped task #2: \[2\]\.id: /), resource: 'task', index: 2, path: '[2].id' })
  })

  it('steps: the broken step is named, the others listed', async () => {
    const task = tasks[0]!
    const steps = service.control.getTask(task.id)?.steps ?? []
    expect(steps.length).toBeGreaterThan(1)
    service.control.setFaults({ rules: [{ kind: 'corrupt_record', index: 0, pathPrefix: '/tasks/', times: 1 }] })
    const r = await run(['steps', task.id])
    expect(r.code).toBe(0)
    expect(r.err).toMatch(/^agent-tray: warning: skipped step #0: \[0\]\.id: .*\n$/)
    expect(r.out).not.toContain(steps[0]!.id)
    expect(r.out).toContain(steps[1]!.id)
  })
})

describe('describeInvalidRecord', () => {
  it('names the id when there is one, shortened and on one line; control characters are escaped on the way out', () => {
    expect(describeInvalidRecord({ resource: 'step', index: 2, id: 's-9', path: '[2].status', message: 'bad status' })).toBe(
      'skipped step #2 (id s-9): [2].status: bad status'
    )
    const line = describeInvalidRecord({ resource: 'usage', index: 0, id: `x\u001b[2J\n${'y'.repeat(100)}`, path: 'usages[0].price', message: 'm' })
    expect(line).not.toContain('\n')
    expect(line).toContain('…)')
    const io = captureIo()
    invalidRecordWarner(guardedIo(io, () => []).stderr, false)({ resource: 'usage', index: 0, id: `x\u001b[2J`, path: 'usages[0].price', message: 'm' })
    expect(io.err()).toBe('agent-tray: warning: skipped usage #0 (id x\\u001b[2J): usages[0].price: m\n')
  })
})
