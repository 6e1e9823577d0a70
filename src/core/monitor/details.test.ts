// The steps-and-usages cache against the reference service through the real client: what is asked
// for, what is kept, and what the cost model reads from it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from '../../reference-service/index'
import type { StepsAndUsages } from '../../shared/service'
import { createServiceClient, type ServiceClient } from '../client/index'
import { TaskDetails } from './details'

const KEY = 'details-key'
const DETAILS_ROUTE = 'GET /tasks/{id}/steps-and-usages'
let service: ReferenceService
let client: ServiceClient
let taskIds: string[]

beforeAll(async () => {
  service = await startReferenceService({ apiKey: KEY, port: 0, seed: 7, manualClock: true })
  client = createServiceClient({ baseUrl: service.url, apiKey: KEY, retry: { retries: 0 } })
  const project = service.control.createProject({ name: 'Details' })
  taskIds = ['A', 'B', 'C'].map((name) => service.control.addTask(project.id, { name, status: 'completed' }).id)
})
afterEach(() => {
  service.control.clearFaults()
  service.control.resetStats()
})
afterAll(async () => {
  await client.close()
  await service.close()
})

const requests = () => service.control.stats().byRoute[DETAILS_ROUTE]?.requests ?? 0

function details(size = 10) {
  const told: string[] = []
  const cache = new TaskDetails(client, size, (taskId) => told.push(taskId))
  return { cache, told }
}

describe('TaskDetails', () => {
  it('serves what it holds, asks for the rest, and asks again on refresh; every fresh answer is told', async () => {
    const { cache, told } = details()
    const [a] = taskIds as [string]
    expect(cache.peek(a)).toBeUndefined()
    const first = await cache.get(a, false)
    expect(first.steps.length).toBeGreaterThan(0)
    expect(await cache.get(a, false)).toBe(first)
    expect(cache.peek(a)).toBe(first)
    expect(requests()).toBe(1)
    const fresh = await cache.get(a, true)
    expect(fresh).not.toBe(first)
    expect(fresh).toEqual(first)
    expect(cache.peek(a)).toBe(fresh)
    expect(requests()).toBe(2)
    expect(told).toEqual([a, a])
  })

  it('joins a request under way rather than asking twice, and asks again once it is over', async () => {
    const { cache, told } = details()
    const [a] = taskIds as [string]
    service.control.setFaults({ rules: [{ kind: 'hold', pathPrefix: `/tasks/${a}/`, times: 1 }] })
    const one = cache.fetch(a)
    const two = cache.get(a, true)
    await expect.poll(() => service.control.held()).toBe(1)
    service.control.release()
    const [x, y] = await Promise.all([one, two])
    expect(y).toBe(x)
    expect(requests()).toBe(1)
    expect(told).toEqual([a])
    await cache.fetch(a)
    expect(requests()).toBe(2)
  })

  it('keeps nothing of a failed request, which a later one retries', async () => {
    const { cache, told } = details()
    const [, b] = taskIds as [string, string]
    service.control.setFaults({ rules: [{ kind: 'error', status: 500, pathPrefix: `/tasks/${b}/`, times: 1 }] })
    await expect(cache.get(b, false)).rejects.toMatchObject({ kind: 'server' })
    expect(cache.peek(b)).toBeUndefined()
    expect(cache.usagesByTask()).toEqual({})
    expect(told).toEqual([])
    await expect(cache.get(b, false)).resolves.toMatchObject({ steps: expect.any(Array) })
    expect(requests()).toBe(2)
  })

  it('keeps the latest few tasks, and gives the usage records of those it keeps', async () => {
    const { cache } = details(2)
    const got: Record<string, StepsAndUsages> = {}
    for (const id of taskIds) got[id] = await cache.get(id, false)
    const [a, b, c] = taskIds as [string, string, string]
    expect(cache.peek(a)).toBeUndefined()
    expect(cache.usagesByTask()).toEqual({ [b]: got[b]!.usages, [c]: got[c]!.usages })
    expect(got[c]!.usages.length).toBeGreaterThan(0)
  })
})
