// The real service's endpoints outside the interface document, against the reference service with
// them and without them (a server that answers 404 or 405).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from '../../reference-service'
import { createServiceClient } from './client'
import { isServiceError, type ServiceError } from './service-error'

const KEY = 'client-extensions-key'
let full: ReferenceService
let plain: ReferenceService

beforeAll(async () => {
  full = await startReferenceService({ apiKey: KEY, port: 0, seed: 5, manualClock: true })
  plain = await startReferenceService({ apiKey: KEY, port: 0, seed: 5, manualClock: true, extensions: false })
})
afterAll(async () => {
  await full.close()
  await plain.close()
})

const clientOf = (service: ReferenceService) =>
  createServiceClient({ baseUrl: service.url, apiKey: KEY, retry: { retries: 0 } })

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise
  } catch (e) {
    if (isServiceError(e)) return e
    throw e
  }
  throw new Error('expected a ServiceError')
}

describe("a software product's projects", () => {
  it('lists them in the order asked, parsed like any project', async () => {
    const a = full.control.createProject({ name: 'First', software_product_id: 'prod-x' })
    full.control.advance(1000)
    const b = full.control.createProject({ name: 'Second', software_product_id: 'prod-x' })
    const client = clientOf(full)
    try {
      expect((await client.listProductProjects('prod-x', 'asc')).map((p) => p.id)).toEqual([a.id, b.id])
      expect((await client.listProductProjects('prod-x', 'desc')).map((p) => p.name)).toEqual(['Second', 'First'])
    } finally {
      await client.close()
    }
  })

  it('says plainly when the server cannot list them (405 here)', async () => {
    const client = clientOf(plain)
    try {
      const e = await failure(client.listProductProjects('prod-x', 'desc'))
      expect(e).toMatchObject({ kind: 'unsupported', status: 405 })
      expect(e.message).toMatch(/cannot list the projects of a software product/)
    } finally {
      await client.close()
    }
  })
})

describe('starting a task', () => {
  it('creates it with flow new_task and returns it', async () => {
    const project = full.control.createProject({ name: 'P' })
    const client = clientOf(full)
    try {
      const task = await client.createTask({
        projectId: project.id,
        name: 'Add search',
        textRequirement: 'A search box'
      })
      expect(task).toMatchObject({ project_id: project.id, name: 'Add search', status: 'todo', steps: [] })
    } finally {
      await client.close()
    }
  })

  it('tells a missing project (not_found) from a server without the endpoint (unsupported)', async () => {
    const project = plain.control.createProject({ name: 'P' })
    const client = clientOf(plain)
    const onFull = clientOf(full)
    try {
      expect(
        await failure(client.createTask({ projectId: project.id, name: 'N', textRequirement: 'T' }))
      ).toMatchObject({ kind: 'unsupported', status: 404 })
      const nil = '00000000-0000-0000-0000-000000000000'
      expect((await failure(client.createTask({ projectId: nil, name: 'N', textRequirement: 'T' }))).kind).toBe(
        'not_found'
      )
      expect((await failure(onFull.createTask({ projectId: nil, name: 'N', textRequirement: 'T' }))).kind).toBe(
        'not_found'
      )
    } finally {
      await client.close()
      await onFull.close()
    }
  })
})
