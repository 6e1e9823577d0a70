// `npm run reference-service` as the README starts it: the key from AGENT_TRAY_SERVICE_API_KEY,
// never from the command line, where every local user can read it (`ps`).
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const KEY = 'ref-cli-key-5b1e0c'

function startCli(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/reference-service/cli.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  let err = ''
  child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s))
  const listening = new Promise<string | null>((resolve) => {
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      out += s
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m) resolve(m[1]!)
    })
    child.on('close', () => resolve(null))
  })
  const done = new Promise<{ code: number | null; err: string }>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, err }))
  })
  return { listening, done, stop: () => child.kill('SIGTERM') }
}

describe('the reference service command', () => {
  it('takes its key from AGENT_TRAY_SERVICE_API_KEY and answers requests that carry it', async () => {
    const cli = startCli(['--port', '0'], { AGENT_TRAY_SERVICE_API_KEY: KEY })
    const url = await cli.listening
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect((await fetch(`${url}/projects/none/tasks`, { headers: { 'x-api-key': 'another-key' } })).status).toBe(401)
    expect((await fetch(`${url}/projects/none/tasks`, { headers: { 'x-api-key': KEY } })).status).toBe(404)
    cli.stop()
    expect((await cli.done).code).toBe(0)
  })

  it('refuses a key on the command line, naming the safe way and never the value', async () => {
    for (const args of [['--api-key', KEY], [`--api-key=${KEY}`]]) {
      const cli = startCli(['--port', '0', ...args], { AGENT_TRAY_SERVICE_API_KEY: 'from-the-environment' })
      expect(await cli.listening).toBeNull()
      const { code, err } = await cli.done
      expect(code).toBe(2)
      expect(err).toMatch(/--api-key is not accepted: set AGENT_TRAY_SERVICE_API_KEY/)
      expect(err).not.toContain(KEY)
    }
  })

  it('without the variable it says what to set', async () => {
    const cli = startCli(['--port', '0'], {})
    expect(await cli.listening).toBeNull()
    const { code, err } = await cli.done
    expect(code).toBe(2)
    expect(err).toMatch(/No API key: set AGENT_TRAY_SERVICE_API_KEY\./)
  })

  it('--kind github and --kind jules start those fakes with the same key, seeded with --demo', async () => {
    const github = startCli(['--kind', 'github', '--demo'], { AGENT_TRAY_SERVICE_API_KEY: KEY })
    const githubUrl = await github.listening
    const tasks = await fetch(`${githubUrl}/agents/tasks`, {
      headers: { authorization: `Bearer ${KEY}`, 'x-github-api-version': '2026-03-10' }
    })
    expect(((await tasks.json()) as { tasks: { state: string }[] }).tasks.map((t) => t.state)).toContain(
      'waiting_for_user'
    )
    github.stop()
    expect((await github.done).code).toBe(0)
    const jules = startCli(['--kind', 'jules'], { AGENT_TRAY_SERVICE_API_KEY: KEY })
    const julesUrl = await jules.listening
    expect((await fetch(`${julesUrl}/v1alpha/sessions`, { headers: { 'x-goog-api-key': KEY } })).status).toBe(200)
    jules.stop()
    expect((await jules.done).code).toBe(0)
    // A kind no fake stands for is refused, naming every kind there is (a list that grows with the services).
    const wrong = startCli(['--kind', 'nope'], { AGENT_TRAY_SERVICE_API_KEY: KEY })
    expect(await wrong.listening).toBeNull()
    expect((await wrong.done).err).toMatch(/--kind must be workser, github, jules, devin, or cursor, got "nope"/)
  })
})
