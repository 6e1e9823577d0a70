// The real service's two endpoints outside the interface document, from the command: a product's
// projects and starting a task, against the reference service with them and without them.
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from '../reference-service'
import { DEFAULT_SERVICE_URL } from '../shared/base-url'
import type { CliClient } from './deps'
import { EXIT } from './exit-codes'
import { makeRunner, memorySecrets, tempDir } from './test-harness'

const KEY = 'test-key-products-41c0'
let fast: ReferenceService
let plain: ReferenceService
let configDir: string

beforeAll(async () => {
  // Fast enough that a started task ends within a second of real time.
  fast = await startReferenceService({ apiKey: KEY, port: 0, seed: 3, speed: 2000 })
  plain = await startReferenceService({ apiKey: KEY, port: 0, seed: 3, manualClock: true, extensions: false })
  configDir = tempDir()
})
afterAll(async () => {
  await fast.close()
  await plain.close()
  fs.rmSync(configDir, { recursive: true, force: true })
})

const runOn = (service: ReferenceService) =>
  makeRunner({ service, configDir, env: { AGENT_TRAY_BASE_URL: service.url, AGENT_TRAY_API_KEY: KEY } })

describe('agent-tray projects', () => {
  it("lists a product's projects, by id or by a watched project's product, and marks the watched ones", async () => {
    const run = runOn(fast)
    const a = fast.control.createProject({
      name: 'Alpha',
      description: 'First\nof two',
      software_product_id: 'prod-cli'
    })
    // b is created a simulated minute after a.
    fast.control.advance(60_000)
    const b = fast.control.createProject({ name: 'Beta', software_product_id: 'prod-cli' })
    expect((await run(['watch-list', 'add', a.id])).code).toBe(EXIT.ok)
    const human = await run(['projects', '--product', 'prod-cli', '--order', 'asc'])
    expect(human.code).toBe(EXIT.ok)
    const lines = human.out.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^PROJECT\s+WATCHED\s+CREATED\s+NAME\s+DESCRIPTION$/)
    expect(lines[1]).toMatch(new RegExp(`^${a.id}\\s+yes\\s+\\d{4}-\\d{2}-\\d{2}\\s+Alpha\\s+First of two$`))
    expect(lines[2]).toMatch(new RegExp(`^${b.id}\\s+\\d{4}`))
    const viaProject = await run(['projects', '--product-of', a.prebuilt_url, '--json'])
    expect(viaProject.code).toBe(EXIT.ok)
    const listed = JSON.parse(viaProject.out) as { id: string; watched: boolean }[]
    expect(listed.map((p) => [p.id, p.watched])).toEqual([
      [b.id, false],
      [a.id, true]
    ])
  })

  it('says plainly when the service cannot list projects (exit 10), and checks its flags', async () => {
    const r = await runOn(plain)(['projects', '--product', 'prod-cli'])
    expect(r.code).toBe(EXIT.refused)
    expect(r.err).toMatch(/^agent-tray: This service cannot list the projects of a software product/)
    expect((await runOn(plain)(['projects'])).code).toBe(EXIT.usage)
    expect((await runOn(plain)(['projects', '--product', 'p', '--order', 'newest'])).code).toBe(EXIT.usage)
  })
})

describe('agent-tray task create', () => {
  it('starts a task and, with --watch, follows it to its end', async () => {
    const run = runOn(fast)
    const p = fast.control.createProject({ name: 'Tasks here' })
    const r = await run([
      'task',
      'create',
      '--project',
      p.id,
      '--name',
      'Add search',
      '--text',
      'A search box on the home page',
      '--watch',
      '--interval-ms',
      '1000'
    ])
    expect(r.code).toBe(EXIT.ok)
    expect(r.out).toMatch(/^Started task \S+ \(Add search\) in project /)
    expect(r.out).toMatch(/ended: (Completed|Failed|Cancelled)\n$/)
    const started = fast.control.listProjects().find((x) => x.id === p.id)
    expect(started).toBeDefined()
  }, 30_000)

  it('says plainly when the service cannot start tasks (exit 10), and a missing project is exit 4', async () => {
    const p = plain.control.createProject({ name: 'No tasks from here' })
    const r = await runOn(plain)(['task', 'create', '--project', p.id, '--name', 'N', '--text', 'T'])
    expect(r.code).toBe(EXIT.refused)
    expect(r.err).toMatch(/does not offer starting tasks/)
    const gone = await runOn(plain)([
      'task',
      'create',
      '--project',
      '00000000-0000-0000-0000-000000000000',
      '--name',
      'N',
      '--text',
      'T'
    ])
    expect(gone.code).toBe(EXIT.notFound)
    expect((await runOn(plain)(['task', 'create', '--project', p.id, '--name', ' ', '--text', 'T'])).code).toBe(
      EXIT.usage
    )
    // The app's rule (src/shared/task-fields.ts): a name the window and the app refuse is refused here too, before any request.
    const long = await runOn(plain)(['task', 'create', '--project', p.id, '--name', 'x'.repeat(201), '--text', 'T'])
    expect(long.code).toBe(EXIT.usage)
    expect(long.err).toMatch(/--name must be at most 200 characters/)
  })
})

describe('watching by link', () => {
  it("watch-list add takes a project's prebuilt_url and says which id it found", async () => {
    const p = fast.control.createProject({ name: 'By link' })
    const r = await runOn(fast)(['watch-list', 'add', p.prebuilt_url])
    expect(r.code).toBe(EXIT.ok)
    expect(r.err).toBe(`Found project id ${p.id} in the link.\n`)
    expect(r.out).toBe(`Watching ${p.id} (By link).\n`)
    const bad = await runOn(fast)(['watch-list', 'add', 'https://example.com/nothing'])
    expect(bad.code).toBe(EXIT.usage)
    expect(bad.err).toMatch(/No project id found/)
  })
})

describe('agent-tray login', () => {
  it('with no --base-url and nothing stored, logs in to the real service', async () => {
    const asked: string[] = []
    const run = makeRunner({
      configDir: tempDir(),
      deps: {
        secrets: () => memorySecrets().secrets,
        // No network here: the client records where it would go and is refused there.
        createClient: (options) => {
          asked.push(options.baseUrl)
          return { checkKey: async () => false, close: async () => {} } as unknown as CliClient
        }
      }
    })
    const r = await run(['login'], {
      stdin: 'some-key\n',
      env: { AGENT_TRAY_BASE_URL: undefined, AGENT_TRAY_API_KEY: undefined }
    })
    expect(asked).toEqual([DEFAULT_SERVICE_URL])
    expect(r.code).toBe(EXIT.auth)
    expect(r.err).toContain(`The service at ${DEFAULT_SERVICE_URL} rejected this API key`)
  })
})
