// Text from the service never acts on the terminal: every command, against the reference service
// with hostile project and task names and against a service that puts escape sequences everywhere
// it can (steps, usage records, error messages, publish messages, broken records). Real HTTP.
import fs from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from '../reference-service'
import { isUnsafeToShow } from '../shared/controls'
import { EXIT } from './exit-codes'
import { makeRunner, type RunResult, tempDir } from './test-harness'

const KEY = 'test-key-CLI-hostile-6e2a'
/** What a hostile name carries: each would act on a terminal printed raw. */
const SEQUENCES = {
  title: '\u001b]0;pwned\u0007',
  clipboard: '\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaAo=\u0007',
  link: '\u001b]8;;https://evil.example\u001b\\click me\u001b]8;;\u001b\\',
  clear: '\u001b[2J\u001b[H',
  c1: '\u009b31m',
  bidi: 'gpj.\u202eexe',
  separator: 'a\u2028b'
}
const HOSTILE = `Shop ${Object.values(SEQUENCES).join(' ')}`
/** A line break that would forge a line of our own. */
const FORGED = 'Shop\nTask t-forged ended: Completed'

/** Every character that would act, in all the output, with the line feeds that make lines left out. */
function unsafeIn(r: RunResult): string[] {
  return [...(r.out + r.err)]
    .filter((c) => c !== '\n' && isUnsafeToShow(c.charCodeAt(0)))
    .map((c) => `U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** The sequences are still there, written out, so a person sees what the service sent (names in tables and lines are cut at 60 characters). */
function shownEscaped(text: string, whole: boolean): void {
  expect(text).toContain('Shop \\u001b]0;pwned\\u0007 \\u001b]52;c;')
  if (!whole) return
  expect(text).toContain('\\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaAo=\\u0007')
  expect(text).toContain('\\u001b]8;;https://evil.example\\u001b\\click me')
  expect(text).toContain('\\u001b[2J\\u001b[H')
  expect(text).toContain('\\u009b31m')
  expect(text).toContain('gpj.\\u202eexe')
  expect(text).toContain('a\\u2028b')
}

let reference: ReferenceService
let hostile: Server
let hostileUrl: string
let configDir: string
let run: ReturnType<typeof makeRunner>
let projectId: string
let taskId: string

/** A service whose every string is hostile. The task list of p-live changes from todo to completed after its first answer. */
function hostileService(): Server {
  let liveAnswers = 0
  const step = {
    id: 's1',
    task_id: 't1',
    name: HOSTILE,
    description: HOSTILE,
    status: 'completed',
    type: 'tool_call',
    metadata: { tool: HOSTILE, path: HOSTILE }
  }
  const usage = {
    id: 'u1',
    task_id: 't1',
    usage_type: 'llm_call',
    provider: HOSTILE,
    model: HOSTILE,
    remark: HOSTILE,
    usage_metadata: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
    final_price: 0.5,
    created_at: HOSTILE
  }
  const task = (status: string) => ({
    id: 't1',
    project_id: 'p1',
    name: HOSTILE,
    status,
    steps: [step],
    total_price: 0.5,
    updated_at: '2026-01-05T09:00:00.000Z'
  })
  const answers: Record<string, () => { status: number; body: unknown }> = {
    'GET /projects/p1': () => ({
      status: 200,
      body: { id: 'p1', name: HOSTILE, description: FORGED, prebuilt_url: HOSTILE, return_url: FORGED }
    }),
    'GET /projects/p1/tasks': () => ({
      status: 200,
      body: [task('completed'), { id: `bad ${HOSTILE}`, status: 'completed', steps: 'not a list' }]
    }),
    'GET /projects/p-live/tasks': () => ({ status: 200, body: [task(liveAnswers++ === 0 ? 'todo' : 'completed')] }),
    'GET /tasks/t1/steps': () => ({ status: 200, body: [step] }),
    'GET /tasks/t1/steps-and-usages': () => ({ status: 200, body: { steps: [step], usages: [usage] } }),
    'POST /projects/p1/publish': () => ({ status: 200, body: { status: 'failed', message: [HOSTILE, FORGED] } }),
    'GET /projects/p-list': () => ({
      status: 400,
      body: { statusCode: 400, message: ['name must be a string', 'ref_id is too long'], error: 'Bad Request' }
    }),
    'GET /projects/p-error': () => ({
      status: 400,
      body: { statusCode: 400, message: [HOSTILE, FORGED], error: 'Bad Request' }
    })
  }
  return createServer((req, res) => {
    const answer = answers[`${req.method} ${req.url}`]?.() ?? { status: 404, body: { message: HOSTILE } }
    res.writeHead(answer.status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(answer.body))
  })
}

beforeAll(async () => {
  reference = await startReferenceService({ apiKey: KEY, port: 0, seed: 11, manualClock: true })
  hostile = hostileService()
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve))
  hostileUrl = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`
  configDir = tempDir()
  run = makeRunner({
    service: reference,
    configDir,
    env: { AGENT_TRAY_BASE_URL: reference.url, AGENT_TRAY_API_KEY: KEY }
  })
  const p = reference.control.createProject({ name: HOSTILE, description: FORGED })
  projectId = p.id
  taskId = reference.control.addTask(p.id, { name: HOSTILE, status: 'completed' }).id
})
afterAll(async () => {
  await reference.close()
  hostile.closeAllConnections()
  await new Promise<void>((resolve) => hostile.close(() => resolve()))
  fs.rmSync(configDir, { recursive: true, force: true })
})

describe('the reference service with hostile project and task names', () => {
  it.each([
    ['project get', () => ['project', 'get', projectId]],
    ['tasks', () => ['tasks', projectId]],
    ['usage', () => ['usage', taskId, '--project', projectId]],
    ['watch --task', () => ['watch', '--task', taskId, '--project', projectId]],
    ['watch-list add', () => ['watch-list', 'add', projectId]]
  ])('%s: nothing acts on the terminal, and what was sent is shown written out', async (_what, args) => {
    const r = await run(args(), { env: { AGENT_TRAY_CONFIG_DIR: tempDir() } })
    expect(r.code).toBe(EXIT.ok)
    expect(unsafeIn(r)).toEqual([])
    if (!args().includes('usage')) shownEscaped(r.out, args()[0] === 'project')
    // A line break in a name or a description never starts a line of its own.
    expect(r.out).not.toMatch(/^Task t-forged/m)
  })

  it('tasks: the columns stay aligned, the name written out in full width', async () => {
    const r = await run(['tasks', projectId])
    const [header, ...rows] = r.out.trimEnd().split('\n')
    const row = rows.find((l) => l.startsWith(taskId))
    expect(row).toBeDefined()
    expect(row?.indexOf('Shop \\u001b')).toBe(header?.indexOf('NAME'))
  })

  it('--json: the same string, escaped so that it stays valid JSON', async () => {
    const r = await run(['tasks', projectId, '--json'])
    expect(unsafeIn(r)).toEqual([])
    const tasks = JSON.parse(r.out) as { id: string; name: string }[]
    expect(tasks.find((t) => t.id === taskId)?.name).toBe(HOSTILE)
  })
})

describe('a service that puts escape sequences everywhere', () => {
  const at = (args: string[], o: Parameters<typeof run>[1] = {}) =>
    run(args, { ...o, env: { AGENT_TRAY_BASE_URL: hostileUrl, AGENT_TRAY_CONFIG_DIR: tempDir(), ...o.env } })

  it.each([
    ['steps', ['steps', 't1'], EXIT.ok],
    ['usage (its project also lists a broken record: 6)', ['usage', 't1', '--project', 'p1'], EXIT.invalidResponse],
    ['project get, a description with a line break', ['project', 'get', 'p1'], EXIT.ok],
    ['an error message that is a list', ['project', 'get', 'p-error'], EXIT.refused],
    ['a 404 message', ['tasks', 'p-gone'], EXIT.notFound],
    ['a failed publish', ['publish', 'p1', 'shop.apps.example.com'], EXIT.publishFailed],
    ['a broken record and its warning', ['tasks', 'p1'], EXIT.invalidResponse],
    ['watch --task', ['watch', '--task', 't1', '--project', 'p1', '--interval-ms', '1000'], EXIT.invalidResponse]
  ] as const)('%s', async (_what, args, code) => {
    const r = await at([...args])
    expect(r.code).toBe(code)
    expect(unsafeIn(r)).toEqual([])
    expect(r.out + r.err).toContain('\\u001b')
    expect(r.out + r.err).not.toMatch(/^Task t-forged/m)
  })

  it('watch: the event lines', async () => {
    const controller = new AbortController()
    let out = ''
    const done = at(['watch', 'p-live', '--interval-ms', '1000'], {
      signal: controller.signal,
      onStdout: (s) => (out += s)
    })
    const end = Date.now() + 10_000
    while (!out.includes('→') && Date.now() < end) await new Promise((r) => setTimeout(r, 20))
    controller.abort()
    const r = await done
    expect(r.out).toContain('To do → Completed')
    expect(unsafeIn(r)).toEqual([])
    shownEscaped(r.out, false)
  })
})

describe('error bodies of this family of services', () => {
  it('a message that is a list is one plain line, never JSON', async () => {
    const r = await run(['project', 'get', 'p-list'], {
      env: { AGENT_TRAY_BASE_URL: hostileUrl, AGENT_TRAY_CONFIG_DIR: tempDir() }
    })
    expect(r.code).toBe(EXIT.refused)
    expect(r.out).toBe('')
    expect(r.err).toBe(
      'agent-tray: The service refused the request (HTTP 400). Server said: name must be a string; ref_id is too long\n'
    )
  })
})
