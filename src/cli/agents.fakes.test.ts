// The command against the reference fakes of GitHub's Agent tasks API, Jules, Devin and Cursor's cloud agents (built
// from their documentation), over real HTTP, keys through a real gnome-keyring: the same journeys as the window's
// e2e/agents.spec.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKeytarSecretStore } from '../core/secrets/keytar-store'
import { startTestKeyring, type TestKeyring } from '../core/secrets/test-keyring'
import { KeychainUnavailableError } from '../core/secrets/types'
import type { AgentFake } from '../reference-service/agent-fake'
import { startAgentFake } from '../reference-service/agent-fakes'
import type { CursorFake } from '../reference-service/cursor/fake'
import { EXIT } from './exit-codes'
import { makeRunner, type RunOptions, tempDir } from './test-harness'

const JULES_KEY = 'AIzaFakesJulesKey-36'
const GITHUB_TOKEN = 'github_pat_fakes_token_36'
/** A service user's key: Devin's organization API (v3). */
const DEVIN_KEY = 'cog_fakes_devin_key_37'
const CURSOR_KEY = 'key_fakes_cursor_37'

let keyring: TestKeyring
let jules: AgentFake
let github: AgentFake
let devin: AgentFake
let cursor: CursorFake

beforeAll(async () => {
  keyring = await startTestKeyring()
  jules = await startAgentFake('jules', { apiKey: JULES_KEY, manualClock: true })
  github = await startAgentFake('github', { apiKey: GITHUB_TOKEN, manualClock: true })
  devin = await startAgentFake('devin', { apiKey: DEVIN_KEY, manualClock: true })
  cursor = (await startAgentFake('cursor', { apiKey: CURSOR_KEY, manualClock: true })) as CursorFake
}, 60_000)

afterAll(async () => {
  await jules?.close()
  await github?.close()
  await devin?.close()
  await cursor?.close()
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

interface NowItem {
  service: string
  id: string
  title: string
  status: string
  service_status: string
  waiting: { kind: string; text: string | null } | null
  cost: { amount: number; unit: string } | null
}

/** Logs in with the key on stdin; the new account's id. */
async function login(run: ReturnType<typeof runner>, service: string, fake: AgentFake, key: string): Promise<string> {
  const r = await run(['login', '--service', service, '--base-url', fake.baseUrl, '--json'], { stdin: `${key}\n` })
  expect(r.err).toBe('')
  expect(r.code).toBe(EXIT.ok)
  return (JSON.parse(r.out) as { connection: { id: string } }).connection.id
}

describe('the command against the GitHub and Jules fakes', () => {
  const dir = tempDir()
  const run = runner(dir)
  let planId = ''
  let githubWaitingId = ''

  beforeAll(async () => {
    const plan = jules.control.addTask({ title: 'Add dark mode', state: 'AWAITING_PLAN_APPROVAL' })
    const asks = github.control.addTask({ title: 'Fix the login button', state: 'waiting_for_user' })
    github.control.addTask({ title: 'Bump the test runner', state: 'in_progress' })
    for (const [service, fake, key] of [
      ['jules', jules, JULES_KEY],
      ['github', github, GITHUB_TOKEN]
    ] as const) {
      const r = await run(['login', '--service', service, '--base-url', fake.baseUrl, '--json'], { stdin: `${key}\n` })
      expect(r.err).toBe('')
      expect(r.code).toBe(EXIT.ok)
      const id = (JSON.parse(r.out) as { connection: { id: string } }).connection.id
      if (service === 'jules') planId = `${id}:${plan.id}`
      else githubWaitingId = `${id}:${asks.id}`
    }
  }, 60_000)

  it("now --json: what waits comes first, in the services' own words beside ours", async () => {
    const r = await run(['now', '--json'])
    expect(r.code).toBe(EXIT.ok)
    const items = JSON.parse(r.out) as NowItem[]
    expect(items.slice(0, 2).map((i) => i.status)).toEqual(['waiting', 'waiting'])
    expect(items.find((i) => i.id === planId)).toMatchObject({
      service: 'jules',
      title: 'Add dark mode',
      service_status: 'AWAITING_PLAN_APPROVAL',
      waiting: { kind: 'plan_approval' }
    })
    expect(items.find((i) => i.id === githubWaitingId)).toMatchObject({
      service: 'github',
      service_status: 'waiting_for_user'
    })
    expect(items.map((i) => i.title)).toContain('Bump the test runner')
  })

  it("approve: the Jules fake's session moves on, and the next now says so", async () => {
    const r = await run(['approve', planId])
    expect(r.code).toBe(EXIT.ok)
    const id = planId.slice(planId.indexOf(':') + 1)
    expect(jules.control.tasks().find((t) => t.id === id)?.state).toBe('IN_PROGRESS')
    const items = JSON.parse((await run(['now', '--json'])).out) as NowItem[]
    expect(items.find((i) => i.id === planId)?.status).toBe('running')
  })

  it('approve and reply on GitHub exit 10, saying what it offers, and send nothing', async () => {
    const before = github.control.tasks()
    const approve = await run(['approve', githubWaitingId])
    expect(approve.code).toBe(EXIT.refused)
    expect(approve.err).toMatch(/GitHub Copilot does not offer approving/)
    const reply = await run(['reply', githubWaitingId, 'use', 'the', 'main', 'branch'])
    expect(reply.code).toBe(EXIT.refused)
    expect(github.control.tasks()).toEqual(before)
  })
})

describe('the command against the Devin and Cursor fakes', () => {
  const dir = tempDir()
  const run = runner(dir)
  let devinId = ''
  let cursorId = ''
  let approvalId = ''
  let busyId = ''
  let busyAgent = ''

  beforeAll(async () => {
    // A session that asks leave to act once it has worked (its ACUs counted), one at work; a Cursor agent still
    // running, and one whose run failed later than the session started waiting.
    const approval = devin.control.addTask({ title: 'Rotate the staging credentials', script: 'approve' })
    devin.control.addTask({ title: 'Tidy the README', script: 'complete' })
    devin.control.advance(16_000)
    busyAgent = cursor.control.addTask({ title: 'Fix the flaky upload test', script: 'run-forever' }).id
    cursor.control.addTask({ title: 'Migrate to the new router', script: 'fail' })
    cursor.control.advance(30_000)
    devinId = await login(run, 'devin', devin, DEVIN_KEY)
    cursorId = await login(run, 'cursor', cursor, CURSOR_KEY)
    approvalId = `${devinId}:${approval.id}`
    busyId = `${cursorId}:${busyAgent}`
  }, 60_000)

  it("login --service devin|cursor: the key checked by the service's documented call, a wrong one refused", async () => {
    for (const [service, fake, key, call] of [
      ['devin', devin, DEVIN_KEY, 'GET /v3/self'],
      ['cursor', cursor, CURSOR_KEY, 'GET /v1/me']
    ] as const) {
      const other = runner(tempDir())
      fake.control.resetStats()
      await login(other, service, fake, key)
      expect(Object.keys(fake.control.stats().byRoute), service).toContain(call)
      const wrong = await other(['login', '--service', service, '--base-url', fake.baseUrl], {
        stdin: `${service === 'devin' ? 'cog_' : ''}not-the-key\n`
      })
      expect(wrong.code, service).toBe(EXIT.auth)
      expect(wrong.err, service).toMatch(/rejected.*Nothing was stored\./)
    }
  })

  it('now --json: the Devin session waiting for approval first, its cost in ACU with the unit named', async () => {
    const r = await run(['now', '--json'])
    expect(r.err).toBe('')
    expect(r.code).toBe(EXIT.ok)
    const items = JSON.parse(r.out) as NowItem[]
    expect(items[0]).toMatchObject({
      service: 'devin',
      id: approvalId,
      title: 'Rotate the staging credentials',
      status: 'waiting',
      service_status: 'waiting_for_approval',
      waiting: { kind: 'permission' },
      cost: { amount: 1.5, unit: 'ACU' }
    })
    expect(items.map((i) => [i.service, i.status])).toEqual([
      ['devin', 'waiting'],
      ['cursor', 'failed'],
      ['cursor', 'running'],
      ['devin', 'running']
    ])
  })

  it('now: the human form names the unit', async () => {
    const r = await run(['now'])
    expect(r.code).toBe(EXIT.ok)
    const [header, first] = r.out.split('\n')
    expect(header).toMatch(/^STATUS +SERVICE +ACCOUNT +TITLE +COST +ID$/)
    expect(first).toMatch(/^waiting: give a permission +devin +Devin +Rotate the staging credentials +1\.5 ACU +\S+$/)
  })

  it("reply answers the Devin session, and the fake's session moves on", async () => {
    const r = await run(['reply', approvalId, 'Yes,', 'push', 'it'])
    expect(r.err).toBe('')
    expect(r.code).toBe(EXIT.ok)
    const sessionId = approvalId.slice(approvalId.indexOf(':') + 1)
    expect(devin.control.tasks().find((t) => t.id === sessionId)?.state).toBe('working')
    const items = JSON.parse((await run(['now', '--json'])).out) as NowItem[]
    expect(items.find((i) => i.id === approvalId)?.status).toBe('running')
  })

  it('reply to a busy Cursor agent: it is still running, exit 13, and the text is printed back, not lost', async () => {
    const before = cursor.control.latestRunId(busyAgent)
    const r = await run(['reply', busyId, 'Also', 'cover', 'the', 'retry', 'path'])
    expect(r.code).toBe(EXIT.busy)
    expect(r.out).toBe('')
    expect(r.err).toBe(
      'agent-tray: The Cursor agent is still running: your message was not sent. Send it again once the run has finished.\n' +
        'Your reply was not sent. Here it is, to send again:\n\nAlso cover the retry path\n'
    )
    expect(cursor.control.latestRunId(busyAgent)).toBe(before)
    // --json: the text in the answer too, for a script to keep.
    const json = await run(['--json', 'reply', busyId, 'Also cover the retry path'])
    expect(json.code).toBe(EXIT.busy)
    expect(JSON.parse(json.out)).toEqual({
      replied: false,
      id: busyId,
      service: 'cursor',
      busy: true,
      message: 'Also cover the retry path'
    })
    // Once the run has finished, the same words go as a follow-up run.
    cursor.control.setTaskState(busyAgent, 'FINISHED')
    const again = await run(['reply', busyId, 'Also cover the retry path'])
    expect(again.code).toBe(EXIT.ok)
    expect(cursor.control.latestRunId(busyAgent)).not.toBe(before)
  })
})

describe("watch follows a Cursor run's stream", () => {
  it('prints its tool calls as they stream, once each, through a dropped stream; its end brings a poll forward', async () => {
    const fake = (await startAgentFake('cursor', { apiKey: CURSOR_KEY, manualClock: true })) as CursorFake
    try {
      const run = runner(tempDir())
      const id = await login(run, 'cursor', fake, CURSOR_KEY)
      const agent = fake.control.addTask({ title: 'Profile the image pipeline', script: 'run-forever' }).id
      fake.control.advance(2_000) // RUNNING: the watch's first poll opens its stream.
      fake.control.resetStats()
      const stop = new AbortController()
      // The watch's clock never runs out on its own: whatever comes after the first poll comes by the stream.
      const sleep = (_ms: number, signal?: AbortSignal) =>
        new Promise<void>((resolve) => {
          fake.control.advance(3_000) // 5 s: the first tool call.
          signal?.addEventListener('abort', () => resolve(), { once: true })
        })
      let out = ''
      let ended = false
      const steps = () =>
        out
          .trimEnd()
          .split('\n')
          .map((l) => JSON.parse(l) as { kind: string; id: string; step: { id: string; title: string } })
          .filter((l) => l.kind === 'agent-step')
      const r = await run(['watch', '--json'], {
        signal: stop.signal,
        deps: { sleep, random: () => 0.5 },
        onStdout: (text) => {
          out += text
          const told = steps().length
          if (told === 1) {
            // The stream drops; once resumed, the run goes on to its next tool call.
            expect(fake.control.dropStreams(fake.control.latestRunId(agent))).toBe(1)
            fake.control.advance(7_000)
          }
          // The run ends: the stream says so, and the watch polls at once rather than after its interval.
          if (told === 2 && !ended) {
            ended = true
            fake.control.setTaskState(agent, 'FINISHED')
          }
          if (/"kind":"agent-status".*"status":"completed"/.test(text)) stop.abort()
        }
      })
      expect(r.err).toBe('')
      expect(r.code).toBe(EXIT.ok)
      expect(steps()).toEqual([
        expect.objectContaining({
          id: `${id}:${agent}`,
          title: 'Profile the image pipeline',
          step: expect.objectContaining({ id: 'call-1', title: 'read_file', service_status: 'completed' })
        }),
        expect.objectContaining({ step: expect.objectContaining({ id: 'call-2', title: 'edit_file' }) })
      ])
      // The first poll, and the one the run's end brought forward: the steps came by the stream.
      expect(fake.control.stats().byRoute['GET /v1/agents']?.requests).toBe(2)
    } finally {
      await fake.close()
    }
  }, 30_000)
})
