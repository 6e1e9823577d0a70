// The command with damaged or unusable settings files: in-process against the reference service over
// real HTTP, and as a child process. Damaged contents never stop a command: the original is kept
// aside, the last good copy or every valid entry kept, the user told once (even when the command then fails). A file that
// cannot be used at all is one line and exit 12, never "Unexpected error" (11).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { addConnection, watchProject } from '../core/settings/edit'
import { openSettings } from '../core/settings/store'
import { lockOut } from '../core/settings/test-as-other-user'
import { type ReferenceService, startReferenceService } from '../reference-service'
import type { SecretPort } from './deps'
import { EXIT } from './exit-codes'
import { makeRunner, memorySecrets, type RunResult, tempDir } from './test-harness'
import { spawnCli } from './test-spawn'

const KEY = 'settings-files-key-5d1e'
let service: ReferenceService
let projectIds: string[]
let dir: string
let config: string
let run: ReturnType<typeof makeRunner>
const keychain = new Map<string, string>()
const memoryKeychain: SecretPort = {
  get: async (id) => keychain.get(id) ?? null,
  set: async (id, key) => void keychain.set(id, key),
  delete: async (id) => keychain.delete(id),
  forwarding: memorySecrets().secrets.forwarding
}

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 11, manualClock: true })
  projectIds = ['Alpha', 'Beta', 'Gamma', 'Delta'].map((name) => service.control.createProject({ name }).id)
  for (const id of projectIds)
    service.control.addTask(id, { name: `Task of ${id.slice(0, 4)}`, status: 'completed', script: 'complete' })
})
afterAll(async () => {
  await service.close()
})

beforeEach(async () => {
  dir = tempDir('agent-tray-settings-files-')
  const store = await openSettings({ dir })
  await store.update((draft) => {
    addConnection(draft, { name: 'Other', baseUrl: 'https://other.example' }, 'conn-other')
    addConnection(draft, { name: 'Reference', baseUrl: service.url }, 'conn-ref')
    draft.activeConnectionId = 'conn-ref'
    projectIds.forEach((id, n) => watchProject(draft, 'conn-ref', id, new Date(), { name: `Project ${n}` }))
  })
  config = fs.readFileSync(path.join(dir, 'config.json'), 'utf8')
  keychain.clear()
  keychain.set('conn-ref', KEY)
  run = makeRunner({ service, configDir: dir, deps: { secrets: () => memoryKeychain } })
})
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true })
})

const file = (name: string) => path.join(dir, name)
const asides = () => fs.readdirSync(dir).filter((n) => /\.(corrupt|newer)-/.test(n))
const errLines = (r: RunResult) => r.err.split('\n').filter((l) => l !== '')

/** The command ran, said what happened to the file in one line naming the copy aside, and the next run is quiet. */
async function expectToldOnce(args: string[], r: RunResult, told: RegExp): Promise<void> {
  const kept = asides()
  expect(kept).toHaveLength(1)
  const lines = errLines(r)
  expect(lines[0]).toMatch(told)
  expect(lines[0]).toContain(file(kept[0]!))
  expect(lines.filter((l) => l.includes(kept[0]!))).toHaveLength(1)
  const again = await run(args)
  expect(again.err).toBe('')
  expect(again.code).toBe(0)
}

describe('a damaged config.json does not stop a command', () => {
  /** What is done to the file, what the user is told, and which of the watched projects are whole after it. */
  const damaged: [string, () => string | Buffer, RegExp, number[]][] = [
    [
      'cut inside the watched projects',
      () => config.slice(0, config.indexOf(projectIds[2]!) + 4),
      /was not valid JSON and nothing in it could be read; the settings as last saved, from .*config\.last-good\.json, are in use/,
      [0, 1, 2, 3]
    ],
    [
      'written by a newer version',
      () => config.replace('"version": 3', '"version": 4'),
      /written by a newer Agent Tray \(file version 4\); this version recovered 4 watched projects and 2 connections/,
      [0, 1, 2, 3]
    ],
    [
      'wrong types at any depth',
      () => config.replace('"muted": false', '"muted": "no"').replace('"theme": "system"', '"theme": [1]'),
      /Some entries of .*config\.json were invalid and were dropped or reset to defaults \(watched\.conn-ref, theme\); recovered 4 watched projects/,
      [0, 1, 2, 3]
    ]
  ]
  for (const [what, bytes, told, whole] of damaged) {
    it(`${what}: watch-list list shows every whole project, the file is kept aside and repaired, told once`, async () => {
      fs.writeFileSync(file('config.json'), bytes())
      const r = await run(['watch-list', 'list'])
      expect(r.code).toBe(0)
      for (const [n, id] of projectIds.entries()) {
        if (whole.includes(n)) expect(r.out).toContain(id)
        else expect(r.out).not.toContain(id)
      }
      await expectToldOnce(['watch-list', 'list'], r, new RegExp(`^agent-tray: .*${told.source}`))
    })
  }

  for (const [what, bytes] of [
    ['empty', ''],
    ['binary garbage', Buffer.from([0xff, 0x00, 0x7b, 0xc3, 0x28, 0x0a, 0x5d])],
    ['a list', '[]'],
    ['a string', '"x"'],
    ['a number', '3'],
    ['null', 'null']
  ] as const) {
    it(`${what}: with no last good copy, the issue's commands run with defaults (tasks, watch-list list, logout), told once`, async () => {
      fs.rmSync(file('config.last-good.json'))
      fs.writeFileSync(file('config.json'), bytes)
      const env = { AGENT_TRAY_BASE_URL: service.url, AGENT_TRAY_API_KEY: KEY }
      const tasks = await run(['tasks', projectIds[0]!], { env })
      expect(tasks.code).toBe(0)
      expect(tasks.out).toContain(`Task of ${projectIds[0]!.slice(0, 4)}`)
      expect(errLines(tasks)).toHaveLength(1)
      const list = await run(['watch-list', 'list'], { env })
      expect(list).toMatchObject({ code: 0, err: '', out: `No watched projects on ${service.url}.\n` })
      const logout = await run(['logout'], { env })
      expect(logout).toMatchObject({ code: 0, err: '', out: `No API key was stored for ${service.url}.\n` })
      expect(asides()).toHaveLength(1)
    })
  }

  it('the file from the issue, `{"version": 4, "conn`: the last good copy comes back, and tasks, watch-list list and logout run', async () => {
    fs.writeFileSync(file('config.json'), '{"version": 4, "conn')
    const env = { AGENT_TRAY_BASE_URL: service.url, AGENT_TRAY_API_KEY: KEY }
    const tasks = await run(['tasks', projectIds[1]!], { env })
    expect(tasks.code).toBe(0)
    expect(errLines(tasks)).toEqual([
      expect.stringMatching(
        /^agent-tray: .*config\.json was not valid JSON.* The original was kept as .*config\.json\.corrupt-/
      )
    ])
    expect((await run(['watch-list', 'list'], { env })).out).toContain(projectIds[3])
    expect((await run(['logout'], { env })).code).toBe(0)
  })

  it('the notice is given even when the command then fails, before its error', async () => {
    fs.writeFileSync(file('config.json'), config.slice(0, config.indexOf(projectIds[1]!)))
    keychain.clear()
    const r = await run(['tasks', projectIds[0]!])
    expect(r.code).toBe(EXIT.auth)
    const lines = errLines(r)
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/config\.json was not valid JSON/)
    expect(lines[1]).toMatch(/^agent-tray: No API key for /)
  })
})

describe('a damaged state.json does not stop a command', () => {
  it('cut short: kept aside, told once, the command runs', async () => {
    const store = await openSettings({ dir })
    await store.writeLastSeen('conn-ref', { [projectIds[0]!]: { polledAt: new Date().toISOString(), tasks: {} } })
    const text = fs.readFileSync(file('state.json'), 'utf8')
    fs.writeFileSync(file('state.json'), text.slice(0, text.length / 2))
    const r = await run(['watch-list', 'list'])
    expect(r.code).toBe(0)
    await expectToldOnce(
      ['watch-list', 'list'],
      r,
      /^agent-tray: .*state\.json was not valid JSON and nothing in it could be read: the saved monitor state from .*state\.last-good\.json is in use/
    )
  })
})

describe('a settings file that cannot be used: one line, exit 12', () => {
  const commands = [['watch-list', 'list'], ['tasks', 'p-1'], ['logout']]

  for (const [what, make, message] of [
    [
      'a directory in place of config.json',
      () => (fs.rmSync(file('config.json')), fs.mkdirSync(file('config.json'))),
      /config\.json is a directory, not a settings file: move it away/
    ],
    [
      'a directory in place of state.json',
      () => fs.mkdirSync(file('state.json')),
      /state\.json is a directory, not a settings file/
    ],
    [
      'a named pipe in place of config.json',
      () => (fs.rmSync(file('config.json')), execMkfifo(file('config.json'))),
      /config\.json is not a regular file/
    ],
    [
      'a symbolic link that loops',
      () => (fs.rmSync(file('config.json')), fs.symlinkSync('config.json', file('config.json'))),
      /config\.json is a symbolic link that points to itself/
    ]
  ] as const) {
    it(`${what}: tasks, watch-list list and logout say so in one line, change nothing`, async () => {
      make()
      const before = fs.readdirSync(dir).sort()
      for (const args of commands) {
        const r = await run(args, { env: { AGENT_TRAY_API_KEY: KEY } })
        expect(r.code, r.err).toBe(EXIT.settingsFiles)
        expect(r.out).toBe('')
        expect(errLines(r)).toEqual([
          expect.stringMatching(new RegExp(`^agent-tray: .*${message.source}.*; nothing was changed\\.$`))
        ])
      }
      expect(fs.readdirSync(dir).sort()).toEqual(before)
    })
  }

  it('a settings directory that cannot be used (a file)', async () => {
    const notDir = path.join(dir, 'file')
    fs.writeFileSync(notDir, '')
    const r = await run(['watch-list', 'list'], { env: { AGENT_TRAY_CONFIG_DIR: notDir } })
    expect(r.code).toBe(EXIT.settingsFiles)
    expect(errLines(r)).toEqual([
      expect.stringMatching(
        /^agent-tray: Cannot read .*file\/config\.json: a directory on its path is a file; nothing was changed\.$/
      )
    ])
  })
})

describe('as a child process', () => {
  it('a newer version cut inside the watched projects: the last good copy is listed, the original kept aside', async () => {
    const newerCut = config.replace('"version": 3', '"version": 4').slice(0, config.indexOf(projectIds[2]!) + 4)
    fs.writeFileSync(file('config.json'), newerCut)
    const r = await spawnCli(['watch-list', 'list'], { AGENT_TRAY_CONFIG_DIR: dir }).done
    expect(r.code).toBe(0)
    for (const id of projectIds) expect(r.out).toContain(id)
    expect(r.err).toMatch(/^agent-tray: .*config\.json was not valid JSON/)
    expect(fs.readFileSync(file(asides()[0]!), 'utf8')).toBe(newerCut)
  })

  it('a config.json this user may not read: one line, exit 12 (run as another user where the tests run as root)', async () => {
    const as = lockOut(dir, file('config.json'))
    const r = await spawnCli(['watch-list', 'list'], { AGENT_TRAY_CONFIG_DIR: dir }, '', as).done
    expect(r.out).toBe('')
    expect(r.err).toBe(
      `agent-tray: Cannot read ${file('config.json')}: permission denied. Give your user read and write access to it and its directory (a file made with sudo belongs to root); nothing was changed.\n`
    )
    expect(r.code).toBe(EXIT.settingsFiles)
  })
})

/** No fs call makes a named pipe; mkfifo(1) is in coreutils. */
function execMkfifo(at: string): void {
  execFileSync('mkfifo', [at])
}
