// Conditional GETs: a weak ETag on every 200 GET, 304 when If-None-Match names it, and a new tag
// as soon as the answer would differ (time moving a task on, a manual status, a new task).
import { afterEach, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService, type WireTask } from './index'
import { planTask } from './plan'
import { call } from './test-client'
import { nextChangeAt, taskAt } from './timeline'
import type { TaskRecord } from './types'

const KEY = 'test-key-etag'
let service: ReferenceService | undefined
afterEach(async () => {
  await service?.close()
  service = undefined
})

async function start(etags?: boolean): Promise<ReferenceService> {
  service = await startReferenceService({
    apiKey: KEY,
    manualClock: true,
    seed: 3,
    etags
  })
  return service
}

const get = (s: ReferenceService, path: string, etag?: string) =>
  call(s.url, 'GET', path, { key: KEY, headers: etag ? { 'if-none-match': etag } : undefined })

describe('ETags', () => {
  it('answers 304 with no body to a matching If-None-Match, 200 with a new tag once the list changes', async () => {
    const s = await start()
    const project = s.control.createProject({ name: 'Shop' })
    const task = s.control.addTask(project.id, { status: 'in_progress' })
    const first = await get(s, `/projects/${project.id}/tasks`)
    expect(first.status).toBe(200)
    const etag = first.headers.etag as string
    expect(etag).toMatch(/^W\/".+"$/)

    const again = await get(s, `/projects/${project.id}/tasks`, etag)
    expect(again.status).toBe(304)
    expect(again.text).toBe('')
    expect(again.headers.etag).toBe(etag)
    // Other tags, lists of tags and the strong form of the same tag.
    expect((await get(s, `/projects/${project.id}/tasks`, 'W/"other"')).status).toBe(200)
    expect((await get(s, `/projects/${project.id}/tasks`, `W/"x", ${etag}`)).status).toBe(304)
    expect((await get(s, `/projects/${project.id}/tasks`, etag.slice(2))).status).toBe(304)
    // "*" matches any current list: a client that only wants to know whether it exists.
    expect((await get(s, `/projects/${project.id}/tasks`, '*')).status).toBe(304)

    s.control.setTaskStatus(task.id, 'completed')
    const changed = await get(s, `/projects/${project.id}/tasks`, etag)
    expect(changed.status).toBe(200)
    expect((changed.json() as WireTask[])[0]!.status).toBe('completed')
    expect(changed.headers.etag).not.toBe(etag)
  })

  it('changes the tag when simulated time moves a task on, and keeps it while nothing happens', async () => {
    const s = await start()
    const project = s.control.createProject({ name: 'Shop' })
    s.control.addTask(project.id, {})
    const before = await get(s, `/projects/${project.id}/tasks`)
    s.control.advance(1)
    expect((await get(s, `/projects/${project.id}/tasks`, before.headers.etag as string)).status).toBe(304)
    s.control.advance(3_600_000)
    const after = await get(s, `/projects/${project.id}/tasks`, before.headers.etag as string)
    expect(after.status).toBe(200)
    expect(after.text).not.toBe(before.text)
  })

  it('tags other GETs by their body too', async () => {
    const s = await start()
    const project = s.control.createProject({ name: 'Shop' })
    const first = await get(s, `/projects/${project.id}`)
    expect((await get(s, `/projects/${project.id}`, first.headers.etag as string)).status).toBe(304)
    await call(s.url, 'PATCH', `/projects/${project.id}`, { key: KEY, body: { name: 'Shop 2' } })
    expect((await get(s, `/projects/${project.id}`, first.headers.etag as string)).status).toBe(200)
  })

  it('can be a server without ETags: no tag, and If-None-Match is ignored', async () => {
    const s = await start(false)
    const project = s.control.createProject({ name: 'Shop' })
    const first = await get(s, `/projects/${project.id}/tasks`)
    expect(first.headers.etag).toBeUndefined()
    expect((await get(s, `/projects/${project.id}/tasks`, '*')).status).toBe(200)
  })
})

describe('nextChangeAt', () => {
  it('no reading of the task differs before it, for every script, walking each task to its end', () => {
    const scripts = ['complete', 'fail', 'cancel', 'run-forever'] as const
    for (let n = 0; n < 12; n++) {
      const record: TaskRecord = {
        id: `t${n}`,
        projectId: 'p',
        name: 'n',
        description: '',
        text_requirement: '',
        files_requirement: [],
        branch: 'b',
        createdAt: 1_000_000,
        script: scripts[n % 4]!,
        durationScale: n % 3 === 0 ? 0.2 : 1,
        cachePlan: true,
        override: n === 5 ? { status: 'failed' as const, at: 1_030_000 } : undefined
      }
      const plan = planTask({
        seed: n,
        taskId: record.id,
        createdAt: record.createdAt,
        script: record.script,
        hasImages: n % 2 === 0,
        durationScale: record.durationScale
      })
      let t = record.createdAt - 10_000
      let changes = 0
      for (let guard = 0; guard < 500; guard++) {
        const next = nextChangeAt(record, plan, t)
        expect(next).toBeGreaterThan(t)
        const now = JSON.stringify(taskAt(record, plan, t))
        const end = Number.isFinite(next) ? next : t + 86_400_000
        for (const u of [t + 1, Math.floor((t + end) / 2), end - 1]) {
          if (u > t && u < end) expect(JSON.stringify(taskAt(record, plan, u))).toBe(now)
        }
        if (!Number.isFinite(next)) break
        if (JSON.stringify(taskAt(record, plan, next)) !== now) changes++
        t = next
      }
      expect(changes).toBeGreaterThan(0)
    }
  })
})
