import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService, type WireStepsAndUsages, type WireTask } from './index'
import { sumPrices } from './pricing'
import { call } from './test-client'

const KEY = 'total-price-key'
let service: ReferenceService
const control = (method: string, path: string, body?: unknown) =>
  call(service.url, method, `/__control/${path}`, { key: KEY, body })

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, manualClock: true, startTime: '2026-02-01T00:00:00.000Z' })
})
afterAll(() => service.close())

describe('POST /__control/tasks/{id}/total-price', () => {
  it('skews total_price away from the usage records, in every answer that carries the task', async () => {
    const project = service.control.createProject({ name: 'Skewed' })
    const task = service.control.addTask(project.id, { name: 'Priced', status: 'completed' })
    const list = await call(service.url, 'GET', `/projects/${project.id}/tasks`, { key: KEY })
    const etag = list.headers.etag
    expect(typeof etag).toBe('string')
    const records = (
      await call(service.url, 'GET', `/tasks/${task.id}/steps-and-usages`, { key: KEY })
    ).json() as WireStepsAndUsages
    const sum = sumPrices(records.usages.map((u) => u.final_price))
    expect(task.total_price).toBe(sum)
    expect(sum).toBeGreaterThan(0)

    const skewed = (await control('POST', `tasks/${task.id}/total-price`, { usd: 12.5 })).json() as WireTask
    expect(skewed.total_price).toBe(12.5)
    // A client holding the old list must not be told it is unchanged.
    const again = await call(service.url, 'GET', `/projects/${project.id}/tasks`, {
      key: KEY,
      headers: { 'if-none-match': String(etag) }
    })
    expect(again.status).toBe(200)
    expect((again.json() as WireTask[]).find((t) => t.id === task.id)?.total_price).toBe(12.5)
    const after = (
      await call(service.url, 'GET', `/tasks/${task.id}/steps-and-usages`, { key: KEY })
    ).json() as WireStepsAndUsages
    expect(after.usages).toEqual(records.usages)
    expect(service.control.getTask(task.id)?.total_price).toBe(12.5)
  })

  it('refuses a bad amount (400) and an unknown task (404)', async () => {
    const project = service.control.createProject()
    const task = service.control.addTask(project.id)
    for (const usd of [-1, 'one', null, 2_000_000]) {
      const bad = await control('POST', `tasks/${task.id}/total-price`, { usd })
      expect(bad.status).toBe(400)
      expect((bad.json() as { error: { field: string } }).error.field).toBe('usd')
    }
    expect((await control('POST', 'tasks/nope/total-price', { usd: 1 })).status).toBe(404)
    expect(() => service.control.setTaskTotalPrice('nope', 1)).toThrow(/No task/)
    expect(() => service.control.setTaskTotalPrice(task.id, Number.NaN)).toThrow(/usd/)
  })
})
