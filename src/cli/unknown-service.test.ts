// An account in config.json whose `service` this version does not know (a newer version's, a hand edit): `now` and
// `watch` say its problem and skip it, every command refuses it (exit 10), and its key goes nowhere. A loopback server
// stands where its address points and records every request; a Jules fake beside it is listed and watched as usual.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { json, startTestServer, type TestServer } from '../core/providers/test-server'
import { keyCustody } from '../core/secrets/custody'
import { openSettings } from '../core/settings/store'
import type { AgentFake } from '../reference-service/agent-fake'
import { startAgentFake } from '../reference-service/agent-fakes'
import { newWatchedProject } from '../shared/watched-project'
import { EXIT } from './exit-codes'
import { makeRunner, memorySecrets, type RunOptions, tempDir } from './test-harness'

const FUTURE_KEY = 'future-service-key-77d1'
const JULES_KEY = 'AIzaUnknownServiceJules-37'
const PROBLEM =
  'This account is for a service this version of Agent Tray does not know: future-agent. Update Agent Tray, or remove the account.'

let future: TestServer
let jules: AgentFake
const dir = tempDir()
const { secrets } = memorySecrets()
const raw = makeRunner({ configDir: dir, deps: { secrets: () => secrets } })
const run = (args: string[], o: RunOptions = {}) =>
  raw(args, { ...o, env: { AGENT_TRAY_BASE_URL: undefined, AGENT_TRAY_API_KEY: undefined, ...o.env } })
let julesId = ''

beforeAll(async () => {
  future = await startTestServer()
  // A Workser-shaped answer to anything: had the account been taken for Workser's, it would be read.
  future.handle((_req, res) => json(res, 200, { tasks: [], items: [] }))
  jules = await startAgentFake('jules', { apiKey: JULES_KEY, manualClock: true })
  jules.control.addTask({ title: 'Add dark mode', state: 'AWAITING_PLAN_APPROVAL' })
  const login = await run(['login', '--service', 'jules', '--base-url', jules.baseUrl, '--json'], {
    stdin: `${JULES_KEY}\n`
  })
  expect(login.code).toBe(EXIT.ok)
  julesId = (JSON.parse(login.out) as { connection: { id: string } }).connection.id
  // What a newer version (or a hand edit) leaves: its account, active, with a watched project and a key bound to it.
  await keyCustody(secrets).set('c-future', future.url, FUTURE_KEY)
  await (
    await openSettings({ dir })
  ).update((draft) => {
    draft.connections.push({
      id: 'c-future',
      name: 'Future',
      baseUrl: future.url,
      publishingDomain: '',
      service: 'future-agent'
    })
    draft.activeConnectionId = 'c-future'
    draft.watched['c-future'] = [newWatchedProject('p1', new Date('2026-03-01T08:00:00Z'))]
  })
}, 60_000)

afterAll(async () => {
  await jules?.close()
  await future?.close()
})

describe('an account of a service this version does not know', () => {
  it('now: said with its problem and skipped; the other accounts listed; nothing sent to it', async () => {
    const r = await run(['now', '--json'])
    expect(r.code).toBe(EXIT.ok)
    expect(r.err).toBe(`[Future] ${PROBLEM}\n`)
    const items = JSON.parse(r.out) as { id: string; status: string }[]
    expect(items.map((i) => i.id)).toEqual([expect.stringMatching(new RegExp(`^${julesId}:`))])
    expect(future.received).toEqual([])
  })

  it('now pointed at it by its address: the same, and nothing sent', async () => {
    const r = await run(['--base-url', future.url, 'now'])
    expect(r.err).toBe(`[Future] ${PROBLEM}\n`)
    expect(r.out).toBe('Nothing needs you.\n')
    expect(future.received).toEqual([])
  })

  it('watch: said and skipped, the other accounts watched', async () => {
    const stop = new AbortController()
    const r = await run(['watch', '--interval-ms', '1000'], {
      signal: stop.signal,
      deps: { sleep: async () => stop.abort(), random: () => 0.5 }
    })
    expect(r.code).toBe(EXIT.ok)
    expect(r.err).toContain(`[Future] ${PROBLEM}\n`)
    expect(r.err).toContain('[Jules] Watching every task of this Jules account')
    expect(future.received).toEqual([])
  })

  it('a command for its projects, login to its address and a reply: each refused (exit 10), nothing sent', async () => {
    for (const [args, stdin] of [
      [['tasks', 'p1'], undefined],
      [['watch', 'p1'], undefined],
      [['--base-url', future.url, 'login'], `${FUTURE_KEY}\n`],
      [['reply', 'c-future:t1', 'hello'], undefined]
    ] as const) {
      const r = await run([...args], { stdin })
      expect(r.code, args.join(' ')).toBe(EXIT.refused)
      expect(r.err, args.join(' ')).toBe(`agent-tray: Account "Future": ${PROBLEM}\n`)
    }
    expect(future.received).toEqual([])
  })
})
