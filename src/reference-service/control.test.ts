import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type ReferenceService, startReferenceService, type WireProject, type WireTask } from './index'
import { call } from './test-client'

const KEY = 'control-key'
const TSX = 'node_modules/.bin/tsx'
let service: ReferenceService
const control = (method: string, path: string, body?: unknown) =>
  call(service.url, method, `/__control/${path}`, { key: KEY, body })

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, manualClock: true, startTime: '2026-02-01T00:00:00.000Z' })
})
afterAll(() => service.close())

describe('/__control/ routes', () => {
  it('require the API key', async () => {
    expect((await call(service.url, 'GET', '/__control/stats', { key: null })).status).toBe(401)
    expect((await call(service.url, 'POST', '/__control/advance', { key: 'nope', body: { ms: 1 } })).status).toBe(401)
  })

  it('read and advance simulated time', async () => {
    expect((await control('GET', 'now')).json()).toEqual({ now: '2026-02-01T00:00:00.000Z' })
    expect((await control('POST', 'advance', { ms: 1500 })).json()).toEqual({ now: '2026-02-01T00:00:01.500Z' })
    expect(service.control.now()).toBe('2026-02-01T00:00:01.500Z')
    const bad = await control('POST', 'advance', { ms: -1 })
    expect(bad.status).toBe(400)
    expect((bad.json() as { error: { field: string } }).error.field).toBe('ms')
  })

  it('create projects and tasks and set a task status', async () => {
    const p = (await control('POST', 'projects', { name: 'Ctl', firstTask: true })).json() as WireProject
    expect(p.name).toBe('Ctl')
    expect((await control('GET', 'projects')).json()).toContainEqual(p)
    expect(service.control.listProjects().map((x) => x.id)).toContain(p.id)
    const t = (
      await control('POST', 'tasks', { project_id: p.id, name: 'Ship it', status: 'in_progress' })
    ).json() as WireTask
    expect(t).toMatchObject({ project_id: p.id, name: 'Ship it', status: 'in_progress' })
    const done = (await control('POST', `tasks/${t.id}/status`, { status: 'completed' })).json() as WireTask
    expect(done.status).toBe('completed')
    const tasks = (await call(service.url, 'GET', `/projects/${p.id}/tasks`, { key: KEY })).json() as WireTask[]
    expect(tasks.map((x) => x.status)).toEqual(['todo', 'completed'])
    expect((await control('POST', 'tasks', { project_id: 'nope' })).status).toBe(404)
    expect((await control('POST', 'tasks', { project_id: p.id, script: 'explode' })).status).toBe(400)
    expect((await control('POST', `tasks/${t.id}/status`, { status: 'done' })).status).toBe(400)
    expect((await control('POST', 'tasks/nope/status', { status: 'failed' })).status).toBe(404)
    // A malformed %-escape in the id is a bad request, on every route that takes one.
    for (const route of ['status', 'total-price']) {
      const bad = await control('POST', `tasks/%E0%A4%A/${route}`, { status: 'failed', usd: 1 })
      expect(bad.status).toBe(400)
      expect(bad.json()).toMatchObject({ error: { code: 'bad_request', field: 'id' } })
    }
    expect((await control('GET', 'nothing')).status).toBe(404)
  })

  it('set and clear faults', async () => {
    const p = service.control.createProject()
    expect((await control('POST', 'faults', { rules: [{ kind: 'error', status: 502, times: 1 }] })).status).toBe(200)
    expect((await call(service.url, 'GET', `/projects/${p.id}`, { key: KEY })).status).toBe(502)
    await control('POST', 'faults', { rules: [{ kind: 'error', status: 502 }] })
    expect((await control('DELETE', 'faults')).status).toBe(200)
    expect((await call(service.url, 'GET', `/projects/${p.id}`, { key: KEY })).status).toBe(200)
    const bad = await control('POST', 'faults', { rules: [{ kind: 'nope' }] })
    expect(bad.status).toBe(400)
  })

  it('count and release held requests', async () => {
    const p = service.control.createProject()
    await control('POST', 'faults', { rules: [{ kind: 'hold', pathPrefix: `/projects/${p.id}` }] })
    const pending = call(service.url, 'GET', `/projects/${p.id}`, { key: KEY })
    await vi.waitFor(async () => expect((await control('GET', 'held')).json()).toEqual({ held: 1 }))
    expect((await control('POST', 'release')).json()).toEqual({ released: 1 })
    expect((await pending).status).toBe(200)
    expect((await control('GET', 'held')).json()).toEqual({ held: 0 })
    await control('DELETE', 'faults')
  })

  it('seed a demo and bulk fixtures', async () => {
    const demo = (await control('POST', 'seed-demo')).json() as { projectIds: string[] }
    expect(demo.projectIds).toHaveLength(3)
    const bulk = (
      await control('POST', 'bulk', { projects: 3, tasksPerProject: 4, stepsPerTask: 5, activeProjects: 1 })
    ).json() as { projectIds: string[] }
    expect(bulk.projectIds).toHaveLength(3)
    const tasks = (
      await call(service.url, 'GET', `/projects/${bulk.projectIds[1]}/tasks`, { key: KEY })
    ).json() as WireTask[]
    expect(tasks.map((t) => t.steps.length)).toEqual([5, 5, 5, 5])
    expect((await control('POST', 'bulk', { projects: -1, tasksPerProject: 1, stepsPerTask: 1 })).status).toBe(400)
  })

  it('count requests and response bytes per route, not counting control routes', async () => {
    await control('POST', 'stats/reset')
    const p = service.control.createProject()
    const a = await call(service.url, 'GET', `/projects/${p.id}`, { key: KEY })
    const b = await call(service.url, 'GET', `/projects/${p.id}/tasks`, { key: KEY })
    await call(service.url, 'GET', '/nowhere', { key: KEY })
    const stats = (await control('GET', 'stats')).json() as ReturnType<typeof service.control.stats>
    expect(stats.byRoute['GET /projects/{id}']).toMatchObject({ requests: 1, responseBytes: Buffer.byteLength(a.text) })
    expect(stats.byRoute['GET /projects/{id}/tasks']).toMatchObject({
      requests: 1,
      responseBytes: Buffer.byteLength(b.text)
    })
    // On the socket: the status line and headers too, so more than an uncompressed small body.
    expect(stats.byRoute['GET /projects/{id}']?.wireBytes).toBeGreaterThan(Buffer.byteLength(a.text))
    expect(stats.byRoute['GET (unmatched)']?.requests).toBe(1)
    expect(stats.requests).toBe(3)
    expect(stats).toEqual(service.control.stats())
    service.control.resetStats()
    expect(service.control.stats()).toEqual({ requests: 0, responseBytes: 0, wireBytes: 0, byRoute: {} })
  })
})

describe('startReferenceService options', () => {
  it('refuses an empty key and a bad start time', async () => {
    await expect(startReferenceService({ apiKey: '' })).rejects.toThrow(/API key/)
    await expect(startReferenceService({ apiKey: 'k', startTime: 'yesterday' })).rejects.toThrow(/startTime/)
  })

  it('runs simulated time at `speed` on the real clock', async () => {
    const fast = await startReferenceService({ apiKey: 'k', speed: 1000, startTime: '2026-03-01T00:00:00.000Z' })
    try {
      // A real duration is the thing under test here: 50 real ms are at least 40 simulated seconds.
      await new Promise((r) => setTimeout(r, 50))
      const elapsed = Date.parse(fast.control.now()) - Date.parse('2026-03-01T00:00:00.000Z')
      expect(elapsed).toBeGreaterThanOrEqual(40_000)
      fast.control.advance(3_600_000)
      expect(Date.parse(fast.control.now()) - Date.parse('2026-03-01T00:00:00.000Z')).toBeGreaterThan(3_600_000)
      expect(fast.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(fast.publishingDomain).toBe('apps.agent-tray.test')
    } finally {
      await fast.close()
    }
  })
})

describe('npm run reference-service', () => {
  it('prints the listening line, serves, and stops on SIGTERM', async () => {
    const child = spawn('npm', ['run', '--silent', 'reference-service', '--', '--port', '0', '--seed', '4', '--demo'], {
      cwd: process.cwd(),
      env: { ...process.env, AGENT_TRAY_SERVICE_API_KEY: 'cli-key' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true
    })
    try {
      const lines = createInterface({ input: child.stdout })
      const first = await new Promise<string>((resolve, reject) => {
        lines.once('line', resolve)
        child.once('exit', (code) => reject(new Error(`exited with ${code}`)))
      })
      expect(first).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/)
      const url = first.slice('listening on '.length)
      expect(url.endsWith(':0')).toBe(false)
      const res = await call(url, 'GET', '/__control/projects', { key: 'cli-key' })
      expect((res.json() as unknown[]).length).toBe(3)
      expect((await call(url, 'GET', '/__control/projects', { key: 'other' })).status).toBe(401)
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
      // npm runs tsx runs node: signal the whole group we started.
      process.kill(-(child.pid as number), 'SIGTERM')
      await exited
      // npm can exit before the node process it started has closed its socket: allow it a moment.
      expect(await stopsAnswering(() => call(url, 'GET', '/__control/projects', { key: 'cli-key' }))).toBe(true)
    } finally {
      if (child.exitCode === null) process.kill(-(child.pid as number), 'SIGKILL')
    }
  })

  it('closes cleanly on SIGTERM (exit code 0)', async () => {
    const child = spawn(TSX, ['src/reference-service/cli.ts', '--port', '0', '--speed', '10'], {
      env: { ...process.env, AGENT_TRAY_SERVICE_API_KEY: 'k2' },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve))
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/)
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })

  it('refuses to start without a key', async () => {
    const env = { ...process.env }
    delete env.AGENT_TRAY_SERVICE_API_KEY
    const child = spawn(TSX, ['src/reference-service/cli.ts', '--port', '0'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let err = ''
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).toBe(2)
    expect(err).toMatch(/AGENT_TRAY_SERVICE_API_KEY/)
  })
})

async function stopsAnswering(request: () => Promise<unknown>, deadlineMs = 5_000): Promise<boolean> {
  const until = Date.now() + deadlineMs
  while (Date.now() < until) {
    try {
      await request()
    } catch {
      return true
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}
