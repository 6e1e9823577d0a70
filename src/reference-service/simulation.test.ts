import { afterEach, describe, expect, it } from 'vitest'
import { KNOWN_TOOLS, STEP_TYPES } from '../shared/service'
import { createSimClock } from './clock'
import { DEMO_FIRST_FAILURE_MS, seedDemo } from './fixtures'
import { type ReferenceService, startReferenceService, type WireStep, type WireTask, type WireUsage } from './index'
import { round6 } from './pricing'
import { ReferenceState } from './state'
import { call } from './test-client'

const KEY = 'sim-key'
const started: ReferenceService[] = []
async function start(seed = 1): Promise<ReferenceService> {
  const s = await startReferenceService({ apiKey: KEY, manualClock: true, seed })
  started.push(s)
  return s
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.close()))
})

const get = async <T>(s: ReferenceService, path: string): Promise<T> =>
  (await call(s.url, 'GET', path, { key: KEY })).json() as T

describe('simulated agent', () => {
  it('moves a first task from todo through in_progress to an end state', async () => {
    const s = await start(3)
    const res = await call(s.url, 'POST', '/projects', { key: KEY, body: { text_requirement: 'Build a recipe app' } })
    const projectId = (res.json() as { id: string }).id
    const seen = new Set<string>()
    let task: WireTask | undefined
    for (let i = 0; i < 300; i++) {
      task = (await get<WireTask[]>(s, `/projects/${projectId}/tasks`))[0]
      seen.add(task?.status ?? 'none')
      if (task && ['completed', 'failed', 'cancelled'].includes(task.status)) break
      s.control.advance(1000)
    }
    expect([...seen].slice(0, 2)).toEqual(['todo', 'in_progress'])
    expect(['completed', 'failed', 'cancelled']).toContain(task?.status)
    expect(task?.steps.every((st) => ['completed', 'failed', 'cancelled'].includes(st.status))).toBe(true)
  })

  it('shows steps of every type and every tool, with valid metadata', async () => {
    const s = await start(5)
    const project = s.control.createProject({ name: 'Coverage' })
    const ids: string[] = []
    const files_requirement = [{ file_type: 'image', url: 'https://img.example.com/mock.png' }]
    for (let i = 0; i < 8; i++)
      ids.push(
        s.control.addTask(project.id, { script: 'complete', files_requirement: i % 2 ? files_requirement : undefined })
          .id
      )
    s.control.advance(3_600_000)
    const steps: WireStep[] = []
    for (const id of ids) steps.push(...(await get<WireStep[]>(s, `/tasks/${id}/steps`)))
    const types = new Set(steps.map((st) => st.type))
    for (const t of [...STEP_TYPES, null]) expect(types.has(t), String(t)).toBe(true)
    const tools = new Set(steps.map((st) => st.metadata.tool))
    for (const tool of KNOWN_TOOLS) expect(tools.has(tool), tool).toBe(true)
    expect(steps.some((st) => Object.keys(st.metadata).length === 0)).toBe(true)
    expect([...tools].some((t) => t !== undefined && !(KNOWN_TOOLS as readonly unknown[]).includes(t))).toBe(true)
    for (const st of steps) {
      const m = st.metadata
      switch (m.tool) {
        case 'read_file_from_sandbox':
        case 'write_file_to_sandbox':
          expect(m.path).toMatch(/^[\w./-]+$/)
          break
        case 'get_list_of_files_in_sandbox':
          expect(typeof m.path).toBe('string')
          break
        case 'run_command_in_sandbox':
          expect(m.command).toMatch(/^(npm|npx|ls) /)
          break
        case 'replace_text_in_files_sandbox':
          expect(Array.isArray(m.files) && m.files.length > 0).toBe(true)
          expect(typeof m.pattern).toBe('string')
          expect(typeof m.new_value).toBe('string')
      }
    }
    expect(steps.some((st) => st.metadata.tool === 'get_list_of_files_in_sandbox' && st.metadata.path === '')).toBe(
      true
    )
    expect(steps.some((st) => st.metadata.command === 'npm install')).toBe(true)
    expect(steps.some((st) => st.metadata.command === 'npm run build')).toBe(true)
  })

  it('shows every step status over a task life', async () => {
    const s = await start(9)
    const project = s.control.createProject()
    const ids = [
      s.control.addTask(project.id, { script: 'fail' }).id,
      s.control.addTask(project.id, { script: 'cancel' }).id,
      s.control.addTask(project.id, { script: 'complete' }).id
    ]
    const statuses = new Set<string>()
    for (let i = 0; i < 200; i++) {
      for (const id of ids) for (const st of s.control.getTask(id)?.steps ?? []) statuses.add(st.status)
      s.control.advance(700)
    }
    expect([...statuses].sort()).toEqual(['cancelled', 'completed', 'failed', 'in_progress', 'pending'])
    expect(ids.map((id) => s.control.getTask(id)?.status)).toEqual(['failed', 'cancelled', 'completed'])
  })

  it('prices usages by model rates and sums them into total_price', async () => {
    const s = await start(11)
    const project = s.control.createProject()
    const ids: string[] = []
    for (let i = 0; i < 6; i++) ids.push(s.control.addTask(project.id, { status: 'completed' }).id)
    const usages: WireUsage[] = []
    for (const id of ids) {
      const { usages: u } = await get<{ usages: WireUsage[] }>(s, `/tasks/${id}/steps-and-usages`)
      const task = s.control.getTask(id) as WireTask
      const sum = u.reduce((acc, x) => acc + x.final_price, 0)
      expect(Math.abs(sum - task.total_price)).toBeLessThan(1e-6)
      expect(task.total_price).toBe(round6(task.total_price))
      expect(task.total_price).toBeGreaterThan(0)
      usages.push(...u)
    }
    const rates: Record<string, [number, number, number]> = {
      'gpt-4.1': [2, 0.5, 8],
      'gpt-4.1-mini': [0.4, 0.1, 1.6],
      'claude-sonnet-4': [3, 0.3, 15]
    }
    const models = new Set(usages.map((u) => `${u.provider}/${u.model}`))
    expect(models.has('openai/gpt-4.1-mini')).toBe(true)
    expect(models.size).toBeGreaterThanOrEqual(3)
    expect(new Set(usages.map((u) => u.provider)).size).toBeGreaterThanOrEqual(2)
    for (const u of usages) {
      expect(u.usage_type).toBe('llm_call')
      const m = u.usage_metadata
      expect(m.total_tokens).toBe(m.input_tokens + m.output_tokens)
      expect(m.input_token_details.cache_read).toBe(m.cache_read_tokens)
      expect(m.cache_read_tokens).toBeLessThanOrEqual(m.input_tokens)
      expect(u.final_price).toBe(round6(u.price.total_price))
      expect(
        Math.abs(u.price.input_price + u.price.output_price + u.price.cache_read_price - u.price.total_price)
      ).toBeLessThan(1e-8)
      const rate = rates[u.model]
      if (rate) {
        expect(u.price.input_price).toBeCloseTo((m.input_tokens * rate[0]) / 1e6, 8)
        expect(u.price.cache_read_price).toBeCloseTo((m.cache_read_tokens * rate[1]) / 1e6, 8)
        expect(u.price.output_price).toBeCloseTo((m.output_tokens * rate[2]) / 1e6, 8)
      }
      if (u.provider === 'openai') {
        const tu = u.response_data.token_usage as {
          prompt_tokens: number
          completion_tokens: number
          prompt_tokens_details: { cached_tokens: number }
        }
        expect(tu.prompt_tokens).toBe(m.input_tokens)
        expect(tu.completion_tokens).toBe(m.output_tokens)
        expect(tu.prompt_tokens_details.cached_tokens).toBe(m.cache_read_tokens)
        expect(['tool_calls', 'stop']).toContain(u.response_data.finish_reason)
        expect('system_fingerprint' in u.response_data).toBe(true)
      }
      if (u.provider === 'anthropic') {
        expect(u.response_data.token_usage).toBeUndefined()
        expect(typeof u.response_data.stop_reason).toBe('string')
        expect(typeof u.response_data.usage).toBe('object')
      }
    }
    expect(usages.some((u) => Object.keys(u.usage_metadata.output_token_details).length === 0)).toBe(true)
    expect(usages.some((u) => typeof u.usage_metadata.output_token_details.reasoning === 'number')).toBe(true)
    expect(usages.some((u) => u.usage_metadata.cache_read_tokens > 0)).toBe(true)
  })

  it('keeps timestamps ISO with milliseconds and in order', async () => {
    const s = await start(2)
    const project = s.control.createProject()
    const t = s.control.addTask(project.id, { status: 'completed' })
    const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
    for (const st of t.steps) {
      expect(st.created_at).toMatch(iso)
      expect(st.updated_at >= st.created_at).toBe(true)
    }
    expect(t.updated_at >= t.created_at).toBe(true)
    expect(t.updated_at <= s.control.now()).toBe(true)
  })
})

describe('determinism', () => {
  async function scenario(seed: number): Promise<string[]> {
    const s = await start(seed)
    const bodies: string[] = []
    const p = (
      await call(s.url, 'POST', '/projects', { key: KEY, body: { name: 'D', text_requirement: 'Make a blog' } })
    ).json() as { id: string }
    s.control.addTask(p.id, { script: 'fail' })
    for (let i = 0; i < 6; i++) {
      s.control.advance(9_000)
      const tasks = await call(s.url, 'GET', `/projects/${p.id}/tasks`, { key: KEY })
      bodies.push(tasks.text)
      for (const t of tasks.json() as WireTask[])
        bodies.push((await call(s.url, 'GET', `/tasks/${t.id}/steps-and-usages`, { key: KEY })).text)
    }
    return bodies
  }

  it('gives identical bodies for the same seed and different ones for another seed', async () => {
    const a = await scenario(42)
    const b = await scenario(42)
    const c = await scenario(43)
    expect(a).toEqual(b)
    expect(a.join('')).not.toEqual(c.join(''))
  })

  it('does not depend on how time was advanced', async () => {
    const s1 = await start(8)
    const s2 = await start(8)
    const t1 = s1.control.addTask(s1.control.createProject().id, { script: 'complete' })
    const t2 = s2.control.addTask(s2.control.createProject().id, { script: 'complete' })
    s1.control.advance(45_000)
    for (let i = 0; i < 45; i++) s2.control.advance(1000)
    expect(s1.control.getTask(t1.id)).toEqual(s2.control.getTask(t2.id))
  })
})

describe('control', () => {
  it('adds tasks in a given state and pins a status', async () => {
    const s = await start()
    const p = s.control.createProject()
    for (const status of ['todo', 'in_progress', 'completed', 'failed', 'cancelled'] as const) {
      expect(s.control.addTask(p.id, { status }).status).toBe(status)
    }
    const running = s.control.addTask(p.id, { status: 'in_progress', name: 'Runner' })
    expect(running.name).toBe('Runner')
    s.control.advance(10 * 60_000)
    expect(s.control.getTask(running.id)?.status).toBe('in_progress')
    s.control.advance(1000)
    const failed = s.control.setTaskStatus(running.id, 'failed')
    expect(failed.status).toBe('failed')
    expect(failed.updated_at).toBe(s.control.now())
    expect(failed.steps.some((st) => st.status === 'in_progress' || st.status === 'pending')).toBe(false)
    s.control.advance(60_000)
    expect(s.control.getTask(running.id)).toEqual(failed)
    expect(() => s.control.addTask('missing')).toThrow(/No project/)
    expect(() => s.control.setTaskStatus('missing', 'completed')).toThrow(/No task/)
    expect(s.control.getTask('missing')).toBeUndefined()
  })

  it('seeds a demo whose tasks progress within the first minute', async () => {
    const s = await start()
    const { projectIds } = s.control.seedDemo()
    expect(projectIds).toHaveLength(3)
    const tasks = (id: string) => get<WireTask[]>(s, `/projects/${id}/tasks`)
    const [runId, idleId, failId] = projectIds as [string, string, string]
    expect((await tasks(runId)).map((t) => t.status)).toEqual(['in_progress'])
    expect((await tasks(idleId)).length).toBeGreaterThan(2)
    expect((await tasks(idleId)).every((t) => ['completed', 'failed', 'cancelled'].includes(t.status))).toBe(true)
    expect((await tasks(failId))[0]?.status).not.toBe('failed')
    s.control.advance(60_000)
    expect((await tasks(runId)).map((t) => t.status)).toEqual(['completed'])
    expect((await tasks(failId)).map((t) => t.status)).toEqual(['failed'])
  })

  it("the demo's failing task fails 10 s after the demo opens, whatever the seed, so its notice comes soon and after the app's first look", () => {
    for (let seed = 0; seed < 100_000; seed += 97) {
      const clock = createSimClock({ startMs: Date.UTC(2026, 10, 27), manual: true, speed: 1 })
      const state = new ReferenceState(seed, clock, 'example.test', () => 'http://127.0.0.1:1')
      const failId = seedDemo(state).projectIds[2]!
      const status = () => state.listTasks(failId)?.[0]?.status
      clock.advance(DEMO_FIRST_FAILURE_MS - 1)
      expect(status(), `seed ${seed}`).toBe('in_progress')
      clock.advance(1)
      expect(status(), `seed ${seed}`).toBe('failed')
    }
  })

  it('builds 1,000 × 100 × 20 bulk fixtures and serves them', async () => {
    const s = await start()
    // How fast and how much memory is bench/scale.ts's to measure (npm run bench), not a timed test's.
    const { projectIds } = s.control.bulkCreate({
      projects: 1000,
      tasksPerProject: 100,
      stepsPerTask: 20,
      activeProjects: 10
    })
    expect(projectIds).toHaveLength(1000)
    const first = await get<WireTask[]>(s, `/projects/${projectIds[0]}/tasks`)
    expect(first).toHaveLength(100)
    expect(first.slice(0, 99).every((t) => t.steps.length === 20)).toBe(true)
    expect(first[99]?.status).toBe('in_progress')
    expect(first[99]?.steps.length).toBeLessThan(20)
    expect(first.slice(0, 99).every((t) => t.status === 'completed' || t.status === 'failed')).toBe(true)
    const idle = await get<WireTask[]>(s, `/projects/${projectIds[999]}/tasks`)
    expect(idle[99]?.status).not.toBe('in_progress')
    // Rebuilt on request, but the same every time.
    expect(await get<WireTask[]>(s, `/projects/${projectIds[500]}/tasks`)).toEqual(
      await get<WireTask[]>(s, `/projects/${projectIds[500]}/tasks`)
    )
  })
})
