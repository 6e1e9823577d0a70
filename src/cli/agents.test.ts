// The command across services, over real HTTP: a Workser account (the reference service) beside a Jules and a GitHub
// account (loopback servers answering as the documentation does), keys through a real gnome-keyring, never argv.
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServiceClient } from '../core/client'
import type { JULES_STATES } from '../core/providers/jules/mapping'
import { json, type Received, startTestServer, type TestServer } from '../core/providers/test-server'
import { createKeytarSecretStore } from '../core/secrets/keytar-store'
import { startTestKeyring, type TestKeyring } from '../core/secrets/test-keyring'
import { KeychainUnavailableError } from '../core/secrets/types'
import { openSettings } from '../core/settings/store'
import { type ReferenceService, startReferenceService } from '../reference-service'
import type { ClientOptions } from './deps'
import { EXIT } from './exit-codes'
import { filesUnder, makeRunner, type RunOptions, tempDir } from './test-harness'

const WORKSER_KEY = 'workser-key-5d1c0e9a'
const JULES_KEY = 'AIzaSyJULES-test-key-0042'
const GITHUB_TOKEN = 'github_pat_TEST_token_0099'
/** What a hostile service might put in a title: colour, a window title change, a bell. */
const HOSTILE = 'Add \u001b[31mdark\u001b[0m mode\u001b]0;pwned\u0007'

type JulesState = (typeof JULES_STATES)[number]
interface Session {
  id: string
  title: string
  state: JulesState
  updateTime: string
}

let keyring: TestKeyring
let workser: ReferenceService
let jules: TestServer
let github: TestServer
let sessions: Session[] = []
let githubTasks: unknown[] = []

const julesRequests = (): Received[] => jules.received.filter((r) => r.method === 'POST')

beforeAll(async () => {
  keyring = await startTestKeyring()
  workser = await startReferenceService({ apiKey: WORKSER_KEY, port: 0, seed: 36, manualClock: true })
  jules = await startTestServer()
  github = await startTestServer()
  jules.handle((req, res) => {
    if (req.headers['x-goog-api-key'] !== JULES_KEY)
      return json(res, 401, { error: { code: 401, message: 'API key not valid.', status: 'UNAUTHENTICATED' } })
    const url = new URL(req.url, jules.url)
    if (req.method === 'GET' && url.pathname === '/v1alpha/sessions')
      return json(res, 200, {
        sessions: sessions.map((s) => ({ ...s, name: `sessions/${s.id}`, url: `https://jules.example/s/${s.id}` }))
      })
    const activities = url.pathname.match(/^\/v1alpha\/sessions\/([^/]+)\/activities$/)
    if (activities) {
      const plan = { plan: { steps: [{ title: 'Read the theme' }, { title: 'Add the toggle' }] } }
      return json(res, 200, { activities: [{ id: 'a1', name: 'x/a1', createTime: 'now', planGenerated: plan }] })
    }
    if (req.method === 'POST' && /^\/v1alpha\/sessions\/[^/]+:(approvePlan|sendMessage)$/.test(url.pathname))
      return json(res, 200, {})
    json(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } })
  })
  github.handle((req, res) => {
    if (req.headers.authorization !== `Bearer ${GITHUB_TOKEN}`) return json(res, 401, { message: 'Bad credentials' })
    if (req.method === 'GET' && req.url.startsWith('/agents/tasks?')) return json(res, 200, { tasks: githubTasks })
    json(res, 404, { message: 'Not Found' })
  })
}, 60_000)

afterAll(async () => {
  await jules?.close()
  await github?.close()
  await workser?.close()
  await keyring?.stop()
})

function runner(configDir: string) {
  const run = makeRunner({
    configDir,
    deps: {
      secrets: () => createKeytarSecretStore(),
      isKeychainUnavailable: (e) => e instanceof KeychainUnavailableError
    }
  })
  return (args: string[], o: RunOptions = {}) =>
    run(args, { ...o, env: { AGENT_TRAY_BASE_URL: undefined, AGENT_TRAY_API_KEY: undefined, ...o.env } })
}

/** Logs in with the key on stdin; the new account's id. */
async function login(run: ReturnType<typeof runner>, args: string[], key: string): Promise<string> {
  const r = await run(['login', ...args, '--json'], { stdin: `${key}\n` })
  expect(r.err).toBe('')
  expect(r.code).toBe(EXIT.ok)
  return (JSON.parse(r.out) as { connection: { id: string } }).connection.id
}

describe('login --service', () => {
  it('a key Jules rejects: said plainly, exit 3, and nothing stored', async () => {
    const dir = tempDir()
    const run = runner(dir)
    const before = await createKeytarSecretStore().list!()
    const r = await run(['login', '--service', 'jules', '--base-url', `${jules.url}/v1alpha`, '--name', 'mine'], {
      stdin: 'not-the-key\n'
    })
    expect(r.code).toBe(EXIT.auth)
    expect(r.err).toMatch(/Jules rejected the API key of Jules account "mine" \(HTTP 401\).*Nothing was stored\./)
    expect((await openSettings({ dir })).read().connections).toEqual([])
    expect(await createKeytarSecretStore().list!()).toEqual(before)
    for (const f of filesUnder(dir)) expect(f.text, f.file).not.toContain('not-the-key')
  })

  it('a good key: the account saved with its service, its key bound to its origin', async () => {
    const dir = tempDir()
    const run = runner(dir)
    const id = await login(run, ['--service', 'jules', '--base-url', `${jules.url}/v1alpha`], JULES_KEY)
    const [saved] = (await openSettings({ dir })).read().connections
    expect(saved).toMatchObject({ id, service: 'jules', name: 'Jules', baseUrl: `${jules.url}/v1alpha` })
    expect(JSON.parse((await createKeytarSecretStore().get(id))!)).toMatchObject({ origin: jules.url, key: JULES_KEY })
    for (const f of filesUnder(dir)) expect(f.text, f.file).not.toContain(JULES_KEY)
  })

  it('--service takes only the registry kinds', async () => {
    const r = await runner(tempDir())(['login', '--service', 'nope'])
    expect(r.code).toBe(EXIT.usage)
    expect(r.err).toMatch(/workser, github, jules/)
  })
})

describe('now, approve and reply across a Workser, a Jules and a GitHub account', () => {
  let dir: string
  let run: ReturnType<typeof runner>
  let julesId: string
  let githubId: string
  let failedId: string
  let runningId: string

  beforeAll(async () => {
    dir = tempDir()
    run = runner(dir)
    const project = workser.control.createProject({ name: 'Shop', firstTask: false })
    const failed = workser.control.addTask(project.id, { name: 'Checkout', status: 'failed' })
    const running = workser.control.addTask(project.id, {
      name: 'Search',
      status: 'in_progress',
      script: 'run-forever'
    })
    workser.control.addTask(project.id, { name: 'Done already', status: 'completed' })
    const workserId = await login(run, ['--base-url', workser.url], WORKSER_KEY)
    expect((await run(['watch-list', 'add', project.id])).code).toBe(EXIT.ok)
    julesId = await login(run, ['--service', 'jules', '--base-url', `${jules.url}/v1alpha`], JULES_KEY)
    githubId = await login(run, ['--service', 'github', '--base-url', github.url], GITHUB_TOKEN)
    failedId = `${workserId}:${failed.id}`
    runningId = `${workserId}:${running.id}`
    sessions = [
      { id: 's-old', title: 'Old session', state: 'COMPLETED', updateTime: '2001-01-01T00:00:00Z' },
      { id: 's-run', title: 'Long refactor', state: 'IN_PROGRESS', updateTime: '2000-01-01T00:00:00Z' },
      { id: 's-plan', title: HOSTILE, state: 'AWAITING_PLAN_APPROVAL', updateTime: '2002-01-01T00:00:00Z' }
    ]
    githubTasks = []
  }, 60_000)

  it('--json: every field, waiting first, then failures, then running (the newest first)', async () => {
    const r = await run(['now', '--json'])
    expect(r.err).toBe('')
    expect(r.code).toBe(EXIT.ok)
    const items = JSON.parse(r.out) as Record<string, unknown>[]
    for (const item of items)
      expect(Object.keys(item).sort()).toEqual(
        ['account', 'cost', 'id', 'service', 'service_status', 'status', 'title', 'url', 'waiting'].sort()
      )
    expect(items.map((i) => [i.service, i.status, i.id])).toEqual([
      ['jules', 'waiting', `${julesId}:s-plan`],
      ['workser', 'failed', failedId],
      ['workser', 'running', runningId],
      ['jules', 'running', `${julesId}:s-run`]
    ])
    expect(items[0]).toEqual({
      service: 'jules',
      account: 'Jules',
      id: `${julesId}:s-plan`,
      title: HOSTILE,
      status: 'waiting',
      service_status: 'AWAITING_PLAN_APPROVAL',
      waiting: { kind: 'plan_approval', text: '1. Read the theme\n2. Add the toggle' },
      url: 'https://jules.example/s/s-plan',
      cost: null
    })
    expect(items[1]).toMatchObject({ account: workser.url.replace(/^http:\/\//, ''), title: 'Checkout', waiting: null })
    expect(items[1]!.cost).toMatchObject({ unit: 'USD' })
  })

  it('--all: what needs you first, then the rest by last change', async () => {
    const r = await run(['now', '--json', '--all'])
    const items = JSON.parse(r.out) as { title: string; status: string }[]
    expect(items.slice(0, 4).map((i) => i.status)).toEqual(['waiting', 'failed', 'running', 'running'])
    const rest = items.slice(4).map((i) => i.title)
    // The Workser task changed last (the reference service's clock is past 2001), then the Jules session of 2001.
    expect(rest).toEqual(['Done already', 'Old session'])
  })

  it('escape sequences in a title never reach the terminal', async () => {
    const r = await run(['now'])
    expect(r.code).toBe(EXIT.ok)
    // eslint-disable-next-line no-control-regex
    expect(r.out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/)
    expect(r.out).toContain('dark')
    expect(r.out.split('\n')[1]).toMatch(/^waiting: approve the plan +jules +Jules +Add .*dark.* mode/)
  })

  it('approve on Jules reaches the service, with its key in its header', async () => {
    jules.received.length = 0
    const r = await run(['approve', `${julesId}:s-plan`])
    expect(r.err).toBe('')
    expect(r.code).toBe(EXIT.ok)
    expect(r.out).toBe(`Approved the plan of task s-plan on Jules (Jules).\n`)
    expect(julesRequests().map((q) => [q.url, q.headers['x-goog-api-key']])).toEqual([
      ['/v1alpha/sessions/s-plan:approvePlan', JULES_KEY]
    ])
  })

  it('reply on Jules sends the words as one message', async () => {
    jules.received.length = 0
    const r = await run(['reply', `${julesId}:s-plan`, 'Use', 'the', 'blue', 'theme'])
    expect(r.code).toBe(EXIT.ok)
    expect(julesRequests().map((q) => [q.url, JSON.parse(q.body)])).toEqual([
      ['/v1alpha/sessions/s-plan:sendMessage', { prompt: 'Use the blue theme' }]
    ])
  })

  it('approve and reply on GitHub: exit 10, saying what the service offers, nothing sent', async () => {
    github.received.length = 0
    for (const args of [
      ['approve', `${githubId}:t1`],
      ['reply', `${githubId}:t1`, 'hello']
    ]) {
      const r = await run(args)
      expect(r.code).toBe(EXIT.refused)
      expect(r.err).toMatch(/^agent-tray: GitHub Copilot does not offer (approving a plan|replying) from Agent Tray/)
      expect(r.err).toContain('Agent Tray offers there: steps and cost.')
    }
    expect(github.received).toEqual([])
  })

  it('a Workser command given an agent account says it means nothing there (exit 10), and sends nothing', async () => {
    github.received.length = 0
    const r = await run(['--base-url', github.url, 'publish', 'p1', 'my-app.example.com'])
    expect(r.code).toBe(EXIT.refused)
    expect(r.err).toMatch(/GitHub Copilot does not offer `agent-tray publish`/)
    const tasks = await run(['--base-url', github.url, 'watch-list', 'list'])
    expect(tasks.code).toBe(EXIT.refused)
    expect(github.received).toEqual([])
  })

  it('a task id that is not ACCOUNT:TASK is a usage error', async () => {
    const r = await run(['approve', 's-plan'])
    expect(r.code).toBe(EXIT.usage)
    expect(r.err).toContain('ACCOUNT:TASK')
  })

  it('no key on disk or in output', () => {
    for (const f of filesUnder(dir))
      for (const key of [WORKSER_KEY, JULES_KEY, GITHUB_TOKEN]) expect(f.text, f.file).not.toContain(key)
  })
})

describe('watch over an agent account', () => {
  it('prints a task that starts waiting once, as a JSON line whose status is waiting, polling no sooner than asked', async () => {
    const dir = tempDir()
    const run = runner(dir)
    const id = await login(run, ['--service', 'jules', '--base-url', `${jules.url}/v1alpha`], JULES_KEY)
    sessions = [{ id: 's-w', title: 'Dark mode', state: 'IN_PROGRESS', updateTime: '2003-01-01T00:00:00Z' }]
    const stop = new AbortController()
    const waits: number[] = []
    // The watch's clock: each wait follows a poll. After the first (the baseline) the session starts waiting; the
    // third poll sees it still waiting, and the watch is stopped.
    const sleep = async (ms: number) => {
      waits.push(ms)
      if (waits.length === 1)
        sessions = [{ ...sessions[0]!, state: 'AWAITING_PLAN_APPROVAL', updateTime: '2003-01-02T00:00:00Z' }]
      if (waits.length === 3) stop.abort()
    }
    // The schedule's jitter fixed (the monitors' ±10 %), so the interval asked is the wait.
    const r = await run(['watch', '--json', '--interval-ms', '2000'], {
      signal: stop.signal,
      deps: { sleep, random: () => 0.5 }
    })
    expect(r.code).toBe(EXIT.ok)
    const lines = r.out
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(lines).toEqual([
      expect.objectContaining({
        kind: 'agent-waiting',
        connection: 'Jules',
        service: 'jules',
        id: `${id}:s-w`,
        status: 'waiting',
        waiting: { kind: 'plan_approval', text: '1. Read the theme\n2. Add the toggle' }
      })
    ])
    expect(waits.length).toBeGreaterThanOrEqual(3)
    for (const ms of waits) expect(ms).toBeGreaterThanOrEqual(2000)
    fs.rmSync(dir, { recursive: true, force: true })
  }, 20_000)

  it("with no ids, every account of every service: a Workser account's watched projects beside a Jules account", async () => {
    const dir = tempDir()
    const project = workser.control.createProject({ name: 'Garden', firstTask: false })
    const task = workser.control.addTask(project.id, { name: 'Beds', status: 'todo', script: 'run-forever' })
    // A change once the Workser watch has its baseline (its first task list came back) is news.
    let polled = false
    const createClient = (options: ClientOptions) =>
      createServiceClient({
        ...options,
        retry: { retries: 0 },
        onResponse: (r) => {
          if (polled || r.status !== 200 || !/^\/projects\/[^/]+\/tasks(\?|$)/.test(r.path)) return
          polled = true
          workser.control.setTaskStatus(task.id, 'in_progress')
        }
      })
    const run = makeRunner({
      configDir: dir,
      env: { AGENT_TRAY_BASE_URL: undefined, AGENT_TRAY_API_KEY: undefined },
      deps: {
        secrets: () => createKeytarSecretStore(),
        isKeychainUnavailable: (e) => e instanceof KeychainUnavailableError,
        createClient
      }
    })
    await login(run, ['--base-url', workser.url, '--name', 'Home'], WORKSER_KEY)
    expect((await run(['watch-list', 'add', project.id])).code).toBe(EXIT.ok)
    await login(run, ['--service', 'jules', '--base-url', `${jules.url}/v1alpha`], JULES_KEY)
    sessions = [{ id: 's-g', title: 'Compost', state: 'PLANNING', updateTime: '2004-01-01T00:00:00Z' }]
    const stop = new AbortController()
    let julesPolls = 0
    // After the Jules baseline, the session waits; later waits last until the watch is stopped.
    const sleep = (_ms: number, signal?: AbortSignal) => {
      if (++julesPolls === 1) {
        sessions = [{ ...sessions[0]!, state: 'AWAITING_USER_FEEDBACK', updateTime: '2004-01-02T00:00:00Z' }]
        return Promise.resolve()
      }
      return new Promise<void>((resolve) => signal?.addEventListener('abort', () => resolve(), { once: true }))
    }
    let out = ''
    const r = await run(['watch', '--interval-ms', '1000'], {
      signal: stop.signal,
      deps: { sleep },
      onStdout: (text) => {
        out += text
        if (/\[Jules\] .*needs you/.test(out) && /\[Home\] .*In progress/.test(out)) stop.abort()
      }
    })
    expect(r.code).toBe(EXIT.ok)
    expect(r.err).toContain('[Home] Watching 1 project on')
    expect(r.err).toContain('[Jules] Watching every task of this Jules account')
    expect(r.out).toMatch(/^\[Jules\] \S+ \S+ {2}Jules {2}task s-g Compost needs you \(answer a question\)$/m)
    fs.rmSync(dir, { recursive: true, force: true })
  }, 20_000)
})
