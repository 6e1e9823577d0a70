// The command against the reference fakes of GitHub's Agent tasks API and of Jules (built from their documentation),
// over real HTTP, keys through a real gnome-keyring: the same journey as the window's e2e/agents.spec.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createKeytarSecretStore } from '../core/secrets/keytar-store'
import { startTestKeyring, type TestKeyring } from '../core/secrets/test-keyring'
import { KeychainUnavailableError } from '../core/secrets/types'
import type { AgentFake } from '../reference-service/agent-fake'
import { startAgentFake } from '../reference-service/agent-fakes'
import { EXIT } from './exit-codes'
import { makeRunner, type RunOptions, tempDir } from './test-harness'

const JULES_KEY = 'AIzaFakesJulesKey-36'
const GITHUB_TOKEN = 'github_pat_fakes_token_36'

let keyring: TestKeyring
let jules: AgentFake
let github: AgentFake

beforeAll(async () => {
  keyring = await startTestKeyring()
  jules = await startAgentFake('jules', { apiKey: JULES_KEY, manualClock: true })
  github = await startAgentFake('github', { apiKey: GITHUB_TOKEN, manualClock: true })
}, 60_000)

afterAll(async () => {
  await jules?.close()
  await github?.close()
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
