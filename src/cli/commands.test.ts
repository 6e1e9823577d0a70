// Every command against the reference service over real HTTP, in-process, with and without --json.
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from '../reference-service'
import { SINGLE_INTERVAL_BOUNDS } from '../shared/polling'
import { EXIT } from './exit-codes'
import { REDACTED } from './io'
import { filesUnder, makeRunner, noKeychain, type RunResult, tempDir, testClient } from './test-harness'

const KEY = 'test-key-CLI-3f9a1c77d2'
let service: ReferenceService
let configDir: string
let run: ReturnType<typeof makeRunner>

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 7, manualClock: true })
  configDir = tempDir()
  run = makeRunner({ service, configDir, env: { AGENT_TRAY_BASE_URL: service.url, AGENT_TRAY_API_KEY: KEY } })
})

afterAll(async () => {
  await service.close()
  fs.rmSync(configDir, { recursive: true, force: true })
})

function json<T = unknown>(r: RunResult): T {
  expect(r.err).toBe('')
  expect(r.code).toBe(0)
  return JSON.parse(r.out) as T
}

/** One line on stderr, starting with the command's name. */
function oneErrorLine(r: RunResult): string {
  const lines = r.err.split('\n').filter((l) => l !== '')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(/^agent-tray: /)
  return lines[0]!
}

describe('project', () => {
  it('creates a project with every create field, in both forms', async () => {
    const args = [
      'project',
      'create',
      '--name',
      'Shop',
      '--description',
      'A web shop',
      '--software-product-id',
      'sp-1',
      '--project-type',
      'web',
      '--text-requirement',
      'Build a shop',
      '--file-url',
      'https://img.test/a.png',
      '--file-url',
      'https://img.test/b.png',
      '--user-email',
      'u@example.com',
      '--return-url',
      'https://app.test/back',
      '--ref-id',
      'r-9'
    ]
    const human = await run(args)
    expect(human.code).toBe(0)
    expect(human.out).toMatch(/^Created project \S+\./)
    expect(human.out).toMatch(/Name:\s+Shop/)
    expect(human.out).toMatch(/Return URL:\s+https:\/\/app\.test\/back/)
    const p = json<Record<string, string>>(await run([...args, '--json']))
    expect(p).toMatchObject({
      name: 'Shop',
      description: 'A web shop',
      software_product_id: 'sp-1',
      project_type: 'web',
      user_email: 'u@example.com',
      return_url: 'https://app.test/back',
      ref_id: 'r-9'
    })
    // The text requirement and files went to the service: its first task carries them, in order.
    const tasks = await testClient({ baseUrl: service.url, apiKey: KEY }).listTasks(p.id!)
    expect(tasks).toHaveLength(1)
    expect(tasks[0]).toMatchObject({
      text_requirement: 'Build a shop',
      files_requirement: [
        { file_type: 'image', url: 'https://img.test/a.png' },
        { file_type: 'image', url: 'https://img.test/b.png' }
      ]
    })
  })

  it('refuses a project type other than web, without calling the service', async () => {
    const r = await run(['project', 'create', '--project-type', 'mobile'])
    expect(r.code).toBe(EXIT.usage)
    expect(oneErrorLine(r)).toContain('--project-type must be "web"')
  })

  it('checks --file-url, --user-email and --return-url by the app’s own rules: usage (exit 2), nothing sent', async () => {
    const before = service.control.listProjects().length
    const cases: [string[], string][] = [
      [
        ['--file-url', 'https://img.test/a.png', '--file-url', 'https://img.test/notes.txt'],
        '--file-url must be the http(s) URL of an image'
      ],
      [['--file-url', 'ftp://img.test/a.png'], '--file-url must be the http(s) URL of an image'],
      [['--user-email', 'ann@'], '--user-email must be an e-mail address'],
      [['--user-email', `${'a'.repeat(250)}@x.io`], '--user-email must be an e-mail address'],
      [['--return-url', 'javascript:alert(1)'], '--return-url must be an absolute URL'],
      [['--return-url', '/back'], '--return-url must be an absolute URL']
    ]
    for (const [flags, message] of cases) {
      const r = await run(['project', 'create', '--name', 'Checked', ...flags])
      expect(r.code, flags.join(' ')).toBe(EXIT.usage)
      expect(oneErrorLine(r), flags.join(' ')).toContain(message)
    }
    expect(service.control.listProjects().length).toBe(before)

    const p = service.control.createProject({ name: 'Fields' })
    for (const [flags, message] of [
      [['--user-email', 'no at sign'], '--user-email must be'],
      [['--return-url', 'data:text/html,hi'], '--return-url must be']
    ] as const) {
      const r = await run(['project', 'update', p.id, ...flags])
      expect(r.code, flags.join(' ')).toBe(EXIT.usage)
      expect(oneErrorLine(r)).toContain(message)
    }
    // What the rules allow goes through: an app's own link, and empty to clear.
    const ok = json<Record<string, string>>(
      await run([
        'project',
        'update',
        p.id,
        '--return-url',
        `agent-tray://projects/${p.id}`,
        '--user-email',
        '',
        '--json'
      ])
    )
    expect(ok).toMatchObject({ return_url: `agent-tray://projects/${p.id}`, user_email: '' })
  })

  it('gets and updates a project (only the five fields)', async () => {
    const p = service.control.createProject({ name: 'Before' })
    const got = await run(['project', 'get', p.id])
    expect(got.code).toBe(0)
    expect(got.out).toMatch(/Name:\s+Before/)
    expect(json<{ id: string }>(await run(['project', 'get', p.id, '--json'])).id).toBe(p.id)

    const up = await run(['project', 'update', p.id, '--name', 'After', '--ref-id', 'R2'])
    expect(up.code).toBe(0)
    expect(up.out).toMatch(/Name:\s+After/)
    const upJson = json<Record<string, string>>(
      await run(['project', 'update', p.id, '--user-email', 'x@y.test', '--json'])
    )
    expect(upJson).toMatchObject({ name: 'After', ref_id: 'R2', user_email: 'x@y.test' })

    const none = await run(['project', 'update', p.id])
    expect(none.code).toBe(EXIT.usage)
    expect(oneErrorLine(none)).toContain('Nothing to update')
    // A create-only field is not an update flag.
    const bad = await run(['project', 'update', p.id, '--project-type', 'web'])
    expect(bad.code).toBe(EXIT.usage)
  })
})

describe('tasks, steps and usage', () => {
  let projectId: string
  let taskId: string

  beforeAll(() => {
    const p = service.control.createProject({ name: 'Work' })
    projectId = p.id
    const t = service.control.addTask(p.id, { name: 'Do it', status: 'completed', script: 'complete' })
    taskId = t.id
    service.control.addTask(p.id, { name: 'Running', status: 'in_progress', script: 'run-forever' })
  })

  it('lists tasks with status, steps and cost', async () => {
    const r = await run(['tasks', projectId])
    expect(r.code).toBe(0)
    const lines = r.out.trimEnd().split('\n')
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+STEPS\s+COST\s+UPDATED\s+NAME$/)
    // In progress sorts first; the completed task shows its price in USD.
    expect(lines[1]).toMatch(/In progress/)
    expect(lines.find((l) => l.startsWith(taskId))).toMatch(/Completed\s+\d+\/\d+\s+\$\d/)
    const tasks = json<{ id: string; status: string }[]>(await run(['tasks', projectId, '--json']))
    expect(tasks.map((t) => t.id)).toContain(taskId)
  })

  it('lists steps with their tool details', async () => {
    const r = await run(['steps', taskId])
    expect(r.code).toBe(0)
    expect(r.out.split('\n')[0]).toMatch(/^ID\s+STATUS\s+TYPE\s+NAME\s+DETAIL$/)
    const steps = json<{ id: string; task_id: string }[]>(await run(['steps', taskId, '--json']))
    expect(steps.length).toBeGreaterThan(0)
    expect(steps.every((s) => s.task_id === taskId)).toBe(true)
    expect(r.out.trimEnd().split('\n')).toHaveLength(steps.length + 1)
  })

  it('reports usage per call, per model and in total, compared with total_price', async () => {
    const withProject = await run(['usage', taskId, '--project', projectId])
    expect(withProject.code).toBe(0)
    expect(withProject.out).toContain('By model:')
    expect(withProject.out).toMatch(/Task total_price:\s+\$/)
    expect(withProject.out).not.toContain('MISMATCH')
    const data = json<{
      cost: { calls: number; usageSumUsd: number; totalPriceUsd: number; mismatch: unknown }
      usages: unknown[]
    }>(await run(['usage', taskId, '--project', projectId, '--json']))
    expect(data.cost.calls).toBe(data.usages.length)
    expect(data.cost.calls).toBeGreaterThan(0)
    expect(data.cost.mismatch).toBeNull()
    expect(data.cost.usageSumUsd).toBeCloseTo(data.cost.totalPriceUsd, 5)
    // Without the project (and not watched), the total is unknown and said so.
    const alone = await run(['usage', taskId])
    expect(alone.code).toBe(0)
    expect(alone.out).toMatch(/Task total_price:\s+– \(task not in a watched project/)
  })
})

describe('publish', () => {
  it('publishes to a sub-domain of the publishing domain', async () => {
    const p = service.control.createProject({ name: 'Pub' })
    const r = await run(['publish', p.id, `pub-one.${service.publishingDomain}`])
    expect(r.code).toBe(0)
    expect(r.out).toContain(`Published to pub-one.${service.publishingDomain}`)
    const j = json<{ status: string; message: string[] }>(
      await run(['publish', p.id, `pub-two.${service.publishingDomain}`, '--json'])
    )
    expect(j.status).toBe('success')
  })

  it('a bad hostname → publish failed', async () => {
    const p = service.control.createProject({ name: 'Pub' })
    const r = await run(['publish', p.id, 'my-app.example.com'])
    expect(r.code).toBe(EXIT.publishFailed)
    expect(r.err.trimEnd().split('\n')).toHaveLength(1)
    expect(r.err).toContain('failed')
    const j = await run(['publish', p.id, 'my-app.example.com', '--json'])
    expect(j.code).toBe(EXIT.publishFailed)
    expect(JSON.parse(j.out)).toMatchObject({ status: 'failed' })
  })
})

describe('errors: one line on stderr and the exit code of its class', () => {
  it('wrong key → auth', async () => {
    const r = await run(['tasks', 'whatever'], { env: { AGENT_TRAY_API_KEY: 'wrong-key-123456' } })
    expect(r.code).toBe(EXIT.auth)
    expect(oneErrorLine(r)).toMatch(/API key was rejected/)
  })

  it('unknown id → not found', async () => {
    const r = await run(['project', 'get', 'no-such-project'])
    expect(r.code).toBe(EXIT.notFound)
    oneErrorLine(r)
  })

  it('nothing listening → network', async () => {
    const port = await freePort()
    const r = await run(['tasks', 'p1'], { env: { AGENT_TRAY_BASE_URL: `http://127.0.0.1:${port}` } })
    expect(r.code).toBe(EXIT.network)
    oneErrorLine(r)
  })

  it('malformed body → invalid response', async () => {
    const p = service.control.createProject({ name: 'Garbled' })
    service.control.setFaults({ rules: [{ kind: 'malformed', pathPrefix: '/projects/' }] })
    try {
      const r = await run(['project', 'get', p.id])
      expect(r.code).toBe(EXIT.invalidResponse)
      oneErrorLine(r)
    } finally {
      service.control.clearFaults()
    }
  })

  it('a 5xx → service', async () => {
    service.control.setFaults({ rules: [{ kind: 'error', status: 500 }] })
    try {
      const r = await run(['tasks', 'anything'])
      expect(r.code).toBe(EXIT.service)
      oneErrorLine(r)
    } finally {
      service.control.clearFaults()
    }
  })

  it('--api-key in any spelling → usage, naming the safe ways and never the value', async () => {
    for (const args of [
      ['tasks', 'p', '--api-key', 'sekret-value-1'],
      ['--api-key=sekret-value-1', 'tasks', 'p'],
      ['tasks', '--apikey', 'sekret-value-1']
    ]) {
      const r = await run(args)
      expect(r.code).toBe(EXIT.usage)
      const line = oneErrorLine(r)
      expect(line).toContain('agent-tray login')
      expect(line).toContain('AGENT_TRAY_API_KEY')
      expect(line).toContain('--api-key-stdin')
      expect(r.err + r.out).not.toContain('sekret-value-1')
    }
  })

  it('unknown options and missing arguments → usage', async () => {
    const r = await run(['tasks', '--frobnicate=secret-ish'])
    expect(r.code).toBe(EXIT.usage)
    expect(r.err).not.toContain('secret-ish')
    expect((await run(['tasks'])).code).toBe(EXIT.usage)
    expect((await run(['nonsense'])).code).toBe(EXIT.usage)
  })

  it('an id that could never be one → usage (exit 2) in one line, before anything is sent', async () => {
    const cases: [string[], RegExp][] = [
      [['tasks', ''], /Not a project id: "" \(it must not be empty\)/],
      [
        ['tasks', '..'],
        /Not a project id: "\.\." \(it may contain only letters, digits and \. _ : - \(not starting with \.\)\)/
      ],
      [['steps', '.'], /Not a task id: "\."/],
      [
        ['project', 'get', 'p\u001b[31mred'],
        /Not a project id: "p\\u001b\[31mred" \(it must not contain control characters\)/
      ],
      [['tasks', 'x'.repeat(201)], /must be at most 200 characters/],
      [['usage', 't1', '--project', '..'], /Not a project id/],
      [['watch', '--task', ''], /Not a task id/],
      [['watch-list', 'add', 'fine', '..'], /No project id found/],
      [['publish', '..', `a.${service.publishingDomain}`], /Not a project id/]
    ]
    for (const [args, message] of cases) {
      const r = await run(args)
      expect(r.code, args.join(' ')).toBe(EXIT.usage)
      expect(oneErrorLine(r)).toMatch(message)
      expect(r.err).not.toContain('\u001b')
    }
    // 200 characters is still an id: it goes to the service, which does not know it.
    expect((await run(['tasks', 'x'.repeat(200)])).code).toBe(EXIT.notFound)
  })

  it('credentials in the base URL → usage (exit 2), never sent and never echoed', async () => {
    const before = service.control.stats().requests
    for (const o of [
      { args: ['tasks', 'p', '--base-url', 'https://user:url-pass-5e1@127.0.0.1:9'] },
      { args: ['tasks', 'p'], env: { AGENT_TRAY_BASE_URL: `http://url-pass-5e1@${new URL(service.url).host}` } },
      { args: ['login', '--base-url', `http://me:url-pass-5e1@${new URL(service.url).host}`] }
    ]) {
      const r = await run(o.args, o.env ? { env: o.env } : {})
      expect(r.code, o.args.join(' ')).toBe(EXIT.usage)
      expect(oneErrorLine(r)).toContain('the API key is kept in the keychain, not in the URL')
      expect(r.err + r.out).not.toContain('url-pass-5e1')
    }
    expect(service.control.stats().requests).toBe(before)
  })

  it('plain http to another machine → usage (exit 2) saying why, before the keychain is touched or anything is sent', async () => {
    let keychainOpened = 0
    const deps = { secrets: () => (keychainOpened++, noKeychain()) }
    for (const o of [
      { args: ['tasks', 'p', '--base-url', 'http://agents.example.com'] },
      { args: ['tasks', 'p'], env: { AGENT_TRAY_BASE_URL: 'http://10.1.2.3:4010/api' } },
      { args: ['login', '--base-url', 'http://agents.example.com'], stdin: 'some-key\n' },
      { args: ['watch-list', 'add', '--base-url', 'http://agents.example.com', 'p1'] }
    ]) {
      const r = await run(o.args, { env: o.env, stdin: o.stdin, deps })
      expect(r.code, o.args.join(' ')).toBe(EXIT.usage)
      expect(oneErrorLine(r)).toMatch(/must use https: plain http would send the API key in clear text/)
    }
    expect(keychainOpened).toBe(0)
  })

  it('a stored connection that breaks the https rule is kept, but no key is read for it or sent to it', async () => {
    const dir = tempDir()
    try {
      fs.writeFileSync(
        path.join(dir, 'config.json'),
        JSON.stringify({
          version: 2,
          activeConnectionId: 'old',
          connections: [{ id: 'old', name: 'Old', baseUrl: 'http://agents.example.com', publishingDomain: '' }],
          watched: { old: [] }
        })
      )
      let keychainOpened = 0
      const r = await makeRunner({ configDir: dir })(['tasks', 'p'], {
        deps: { secrets: () => (keychainOpened++, noKeychain()) }
      })
      expect(r.code).toBe(EXIT.usage)
      expect(oneErrorLine(r)).toMatch(/The stored connection "Old" cannot be used: .*must use https/)
      expect(keychainOpened).toBe(0)
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8')).connections[0].baseUrl).toBe(
        'http://agents.example.com'
      )
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it("the parser's own errors read like every other: one 'agent-tray: ' line, exit 2", async () => {
    const cases: [string[], RegExp][] = [
      [['tasks', '--frobnicate'], /^agent-tray: unknown option '--frobnicate' \(see agent-tray --help\)$/],
      [['tasks'], /^agent-tray: missing required argument 'projectId' \(see agent-tray --help\)$/],
      [
        ['tasks', 'p', '--jsn'],
        /^agent-tray: unknown option '--jsn' \(Did you mean --json\?\) \(see agent-tray --help\)$/
      ],
      [
        ['watch', '--interval-ms', 'soon'],
        /^agent-tray: option '--interval-ms <ms>' argument 'soon' is invalid\. The time between polls, in milliseconds, must be a whole number from 1000 to 3600000/
      ],
      [['nonsense\u001b[2J'], /^agent-tray: unknown command 'nonsense\\u001b\[2J'/]
    ]
    for (const [args, line] of cases) {
      const r = await run(args)
      expect(r.code, args.join(' ')).toBe(EXIT.usage)
      expect(oneErrorLine(r)).toMatch(line)
      expect(r.err).not.toMatch(/^error:/m)
    }
  })

  it('an --interval-ms outside the app’s polling bounds → usage (exit 2), naming them', async () => {
    const { min, max } = SINGLE_INTERVAL_BOUNDS
    for (const args of [
      ['watch', 'p', '--interval-ms', String(min - 1)],
      ['watch', '--task', 't', '--interval-ms', '100'],
      ['watch', 'p', '--interval-ms', String(max + 1)],
      ['task', 'create', '--project', 'p', '--name', 'n', '--text', 't', '--watch', '--interval-ms', '1500.5']
    ]) {
      const r = await run(args)
      expect(r.code, args.join(' ')).toBe(EXIT.usage)
      expect(oneErrorLine(r), args.join(' ')).toMatch(
        new RegExp(`must be a whole number from ${min} to ${max} \\(the app polls no more often\\)`)
      )
    }
  })

  it('no key anywhere → auth, saying how to give one', async () => {
    const r = await run(['tasks', 'p'], { env: { AGENT_TRAY_API_KEY: undefined } })
    expect(r.code).toBe(EXIT.auth)
    expect(oneErrorLine(r)).toContain('agent-tray login')
  })

  it('no service configured → usage', async () => {
    const r = await run(['tasks', 'p'], { env: { AGENT_TRAY_BASE_URL: undefined, AGENT_TRAY_CONFIG_DIR: tempDir() } })
    expect(r.code).toBe(EXIT.usage)
    expect(oneErrorLine(r)).toContain('login --base-url')
  })

  it('--debug adds the stack trace, still without the key', async () => {
    const r = await run(['project', 'get', 'no-such-project', '--debug'])
    expect(r.code).toBe(EXIT.notFound)
    expect(r.err.split('\n').length).toBeGreaterThan(2)
    expect(r.err).toMatch(/at /)
    expect(r.err).not.toContain(KEY)
  })
})

describe('the API key from stdin', () => {
  it('is read with --api-key-stdin', async () => {
    const p = service.control.createProject({ name: 'Stdin' })
    const r = await run(['project', 'get', p.id, '--api-key-stdin'], {
      env: { AGENT_TRAY_API_KEY: undefined },
      stdin: `${KEY}\n`
    })
    expect(r.code).toBe(0)
    expect(r.out).toContain('Stdin')
    const empty = await run(['project', 'get', p.id, '--api-key-stdin'], {
      env: { AGENT_TRAY_API_KEY: undefined },
      stdin: ''
    })
    expect(empty.code).toBe(EXIT.usage)
  })
})

describe('watch-list', () => {
  it('adds, lists and removes watched projects, stored for the tray too', async () => {
    const dir = tempDir()
    const p = service.control.createProject({ name: 'Watched one' })
    const env = { AGENT_TRAY_CONFIG_DIR: dir }
    const add = await run(['watch-list', 'add', p.id], { env })
    expect(add.code).toBe(0)
    expect(add.out).toContain(`Watching ${p.id} (Watched one)`)
    const list = await run(['watch-list', 'list'], { env })
    expect(list.out).toMatch(new RegExp(`^PROJECT\\s+MUTED\\s+ADDED\\s+NAME\\n${p.id}\\s+\\S+\\s+Watched one\\n$`))
    const listed = json<{ projectId: string }[]>(await run(['watch-list', 'list', '--json'], { env }))
    expect(listed.map((w) => w.projectId)).toEqual([p.id])
    // The settings file now has the connection and its watched project.
    const config = JSON.parse(fs.readFileSync(`${dir}/config.json`, 'utf8')) as { settings?: unknown }
    expect(JSON.stringify(config)).toContain(p.id)
    expect(JSON.stringify(config)).toContain(service.url)

    const missing = await run(['watch-list', 'add', 'no-such-project'], { env })
    expect(missing.code).toBe(EXIT.notFound)
    expect((await run(['watch-list', 'remove', 'not-watched'], { env })).code).toBe(EXIT.usage)
    const rm = await run(['watch-list', 'remove', p.id, '--json'], { env })
    expect(json<{ removed: string[] }>(rm).removed).toEqual([p.id])
    expect((await run(['watch-list', 'list'], { env })).out).toContain('No watched projects')
  })

  it('project create --watch adds the new project to the list', async () => {
    const dir = tempDir()
    const env = { AGENT_TRAY_CONFIG_DIR: dir }
    // A connection must exist first (it is created by login or watch-list add).
    const seed = service.control.createProject({ name: 'seed' })
    await run(['watch-list', 'add', seed.id], { env })
    const created = json<{ id: string }>(
      await run(['project', 'create', '--name', 'New', '--watch', '--json'], { env })
    )
    const listed = json<{ projectId: string }[]>(await run(['watch-list', 'list', '--json'], { env }))
    expect(listed.map((w) => w.projectId)).toEqual([seed.id, created.id])
  })
})

describe('watch', () => {
  async function until(check: () => boolean, ms = 10_000): Promise<void> {
    const end = Date.now() + ms
    while (!check()) {
      if (Date.now() > end) throw new Error('timed out waiting')
      await new Promise((r) => setTimeout(r, 20))
    }
  }

  it('--task --exit-status follows a task from todo to completed and exits 0', async () => {
    const p = service.control.createProject({ name: 'Follow' })
    const t = service.control.addTask(p.id, { name: 'Follow me', status: 'todo', script: 'run-forever' })
    const live = liveRun(['watch', '--task', t.id, '--project', p.id, '--exit-status', '--interval-ms', '1000'])
    // One poll to find the task, one for the follow loop's baseline: then change it.
    await until(() => live.out().includes('To do') && live.polls() >= 2)
    service.control.setTaskStatus(t.id, 'in_progress')
    await until(() => live.out().includes('To do → In progress'))
    service.control.setTaskStatus(t.id, 'completed')
    const r = await live.done
    expect(r.code).toBe(EXIT.ok)
    expect(r.out).toContain('In progress → Completed')
    expect(r.out).toContain(`Task ${t.id} ended: Completed`)
  })

  it('--task --exit-status exits 1 when the task fails; found through the watch list; JSON lines', async () => {
    const dir = tempDir()
    const p = service.control.createProject({ name: 'Failing' })
    const t = service.control.addTask(p.id, { name: 'Doomed', status: 'in_progress', script: 'run-forever' })
    await run(['watch-list', 'add', p.id], { env: { AGENT_TRAY_CONFIG_DIR: dir } })
    const live = liveRun(['watch', '--task', t.id, '--exit-status', '--interval-ms', '1000', '--json'], {
      AGENT_TRAY_CONFIG_DIR: dir
    })
    await until(() => live.polls() >= 2)
    service.control.setTaskStatus(t.id, 'failed')
    const r = await live.done
    expect(r.code).toBe(EXIT.taskNotCompleted)
    const lines = r.out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines).toContainEqual(
      expect.objectContaining({ kind: 'task-status', taskId: t.id, from: 'in_progress', to: 'failed' })
    )
    expect(lines.at(-1)).toEqual({ kind: 'task-ended', taskId: t.id, projectId: p.id, status: 'failed' })
  })

  it('--task without --exit-status exits 0 whatever the end; an unknown task → not found', async () => {
    const p = service.control.createProject({ name: 'Ended' })
    const t = service.control.addTask(p.id, { name: 'Cancelled already', status: 'cancelled', script: 'cancel' })
    const r = await run(['watch', '--task', t.id, '--project', p.id])
    expect(r.code).toBe(EXIT.ok)
    expect(r.out).toContain('ended: Cancelled')
    const withStatus = await run(['watch', '--task', t.id, '--project', p.id, '--exit-status'])
    expect(withStatus.code).toBe(EXIT.taskNotCompleted)
    const unknown = await run(['watch', '--task', 'nope', '--project', p.id])
    expect(unknown.code).toBe(EXIT.notFound)
    const nowhere = await run(['watch', '--task', 'nope'], { env: { AGENT_TRAY_CONFIG_DIR: tempDir() } })
    expect(nowhere.code).toBe(EXIT.notFound)
    expect(oneErrorLine(nowhere)).toContain('--project')
  })

  it('watch <projectId> prints one line per change until stopped', async () => {
    const p = service.control.createProject({ name: 'Live' })
    const t = service.control.addTask(p.id, { name: 'Live task', status: 'todo', script: 'run-forever' })
    const live = liveRun(['watch', p.id, '--interval-ms', '1000'])
    await until(() => live.polls() >= 1)
    service.control.setTaskStatus(t.id, 'in_progress')
    await until(() => live.out().includes('To do → In progress'))
    live.stop()
    const r = await live.done
    expect(r.code).toBe(EXIT.ok)
    expect(r.err).toContain(`Watching project ${p.id}`)
    const line = r.out.split('\n').find((l) => l.includes('To do → In progress'))
    expect(line).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ  ${p.id}  task ${t.id} Live task: To do → In progress$`)
    )
  })

  it('watch stops with exit 3 when the key is rejected, instead of polling forever', async () => {
    const p = service.control.createProject({ name: 'Locked out' })
    const r = await run(['watch', p.id, '--interval-ms', '1000'], { env: { AGENT_TRAY_API_KEY: 'revoked-key-4242' } })
    expect(r.code).toBe(EXIT.auth)
    expect(r.err).toMatch(/agent-tray: .*API key was rejected/)
  })

  it('watch --json prints JSON lines; without ids it watches the watch list, or says there is none', async () => {
    const dir = tempDir()
    const p = service.control.createProject({ name: 'Listed' })
    const t = service.control.addTask(p.id, { name: 'Listed task', status: 'todo', script: 'run-forever' })
    const env = { AGENT_TRAY_CONFIG_DIR: dir }
    expect((await run(['watch'], { env })).code).toBe(EXIT.usage)
    await run(['watch-list', 'add', p.id], { env })
    const live = liveRun(['watch', '--json', '--interval-ms', '1000'], env)
    await until(() => live.polls() >= 1)
    service.control.setTaskStatus(t.id, 'completed')
    await until(() => live.out().includes('"to":"completed"'))
    live.stop()
    const r = await live.done
    expect(r.code).toBe(EXIT.ok)
    const events = r.out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(events).toContainEqual(
      expect.objectContaining({ kind: 'task-status', projectId: p.id, taskId: t.id, from: 'todo', to: 'completed' })
    )
  })
})

/** Runs a command in the background with its output readable while it runs. */
function liveRun(args: string[], env: Record<string, string | undefined> = {}) {
  const controller = new AbortController()
  let out = ''
  let polls = 0
  const done = run(args, {
    env,
    signal: controller.signal,
    deps: {
      // A tee of the client, so the test knows when polls have happened.
      createClient: (options) => {
        const client = testClient(options)
        return {
          ...client,
          listTasks: async (...a: Parameters<typeof client.listTasks>) => {
            const r = await client.listTasks(...a)
            polls++
            return r
          },
          // The monitor polls conditionally when it can.
          listTasksIfChanged: async (...a: Parameters<typeof client.listTasksIfChanged>) => {
            const r = await client.listTasksIfChanged(...a)
            polls++
            return r
          },
          // ... as digests when nothing needs the full list.
          listTaskDigestsIfChanged: async (...a: Parameters<typeof client.listTaskDigestsIfChanged>) => {
            const r = await client.listTaskDigestsIfChanged(...a)
            polls++
            return r
          }
        }
      }
    },
    onStdout: (s) => (out += s)
  })
  return { done, out: () => out, polls: () => polls, stop: () => controller.abort() }
}

async function freePort(): Promise<number> {
  const srv = net.createServer()
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))
  const port = (srv.address() as net.AddressInfo).port
  await new Promise<void>((r) => srv.close(() => r()))
  return port
}

describe('the key never leaks', () => {
  it('appears in no output and no file after a round of commands, failing ones included', async () => {
    const dir = tempDir()
    const env = { AGENT_TRAY_CONFIG_DIR: dir }
    const p = service.control.createProject({ name: 'Leak check' })
    const t = service.control.addTask(p.id, { status: 'completed', script: 'complete' })
    const outputs: RunResult[] = []
    for (const args of [
      ['watch-list', 'add', p.id],
      ['project', 'get', p.id],
      ['project', 'get', p.id, '--json'],
      ['tasks', p.id, '--json'],
      ['steps', t.id],
      ['usage', t.id],
      ['usage', t.id, '--json'],
      ['publish', p.id, 'bad host'],
      ['project', 'get', 'missing', '--debug'],
      ['watch', '--task', t.id],
      ['watch-list', 'list', '--json'],
      ['tasks', '--api-key', KEY],
      [`--api-key=${KEY}`]
    ]) {
      outputs.push(await run(args, { env }))
    }
    outputs.push(
      await run(['tasks', p.id, '--debug'], {
        env: { ...env, AGENT_TRAY_BASE_URL: `http://127.0.0.1:${await freePort()}` }
      })
    )
    outputs.push(
      await run(['project', 'get', p.id, '--api-key-stdin', '--debug'], {
        env: { ...env, AGENT_TRAY_API_KEY: undefined },
        stdin: KEY
      })
    )
    expect(outputs.filter((o) => o.code === 0).length).toBeGreaterThan(5)
    expect(outputs.filter((o) => o.code !== 0).length).toBeGreaterThan(3)
    for (const o of outputs) {
      expect(o.out).not.toContain(KEY)
      expect(o.err).not.toContain(KEY)
      // The output passed through the redacting filter: a key it had to scrub is a leak all the same.
      expect(o.out).not.toContain(REDACTED)
      expect(o.err).not.toContain(REDACTED)
    }
    const files = filesUnder(dir)
    expect(files.length).toBeGreaterThan(0)
    for (const f of files) expect(f.text, f.file).not.toContain(KEY)
  })
})
