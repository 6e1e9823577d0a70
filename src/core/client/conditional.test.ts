// Conditional task lists against the reference service over real HTTP, with and without ETags,
// and against a server that sends a tag it cannot have meant.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { type ReferenceService, startReferenceService } from '../../reference-service'
import { createServiceClient, type ServiceClient } from './client'

const KEY = 'ref-key-conditional-51d0e2'
const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.()
})

async function setup(
  etags: boolean
): Promise<{ service: ReferenceService; client: ServiceClient; statuses: number[] }> {
  const service = await startReferenceService({ apiKey: KEY, seed: 11, manualClock: true, etags })
  const statuses: number[] = []
  const client = createServiceClient({ baseUrl: service.url, apiKey: KEY, onResponse: (r) => statuses.push(r.status) })
  cleanups.push(
    () => service.close(),
    () => client.close()
  )
  return { service, client, statuses }
}

describe('listTasksIfChanged', () => {
  it('with ETags: the list and its tag, then "unchanged" on a 304, then the new list once it changed', async () => {
    const { service, client, statuses } = await setup(true)
    const project = service.control.createProject({ name: 'Shop' })
    const task = service.control.addTask(project.id, { status: 'in_progress' })

    const first = await client.listTasksIfChanged(project.id, null)
    if (!first.changed) throw new Error('expected a list')
    expect(first.tasks.map((t) => t.id)).toEqual([task.id])
    expect(first.etag).toMatch(/^W\/".+"$/)

    expect(await client.listTasksIfChanged(project.id, first.etag)).toEqual({ changed: false })
    expect(statuses).toEqual([200, 304])

    service.control.setTaskStatus(task.id, 'completed')
    const next = await client.listTasksIfChanged(project.id, first.etag)
    if (!next.changed) throw new Error('expected a list')
    expect(next.tasks[0]?.status).toBe('completed')
    expect(next.etag).not.toBe(first.etag)
    // The plain call never sends a tag: it always has the list.
    expect(await client.listTasks(project.id)).toEqual(next.tasks)
    expect(statuses).toEqual([200, 304, 200, 200])
  })

  it('without ETags: always the list, with etag null, exactly as listTasks', async () => {
    const { service, client, statuses } = await setup(false)
    const project = service.control.createProject({ name: 'Shop' })
    service.control.addTask(project.id, { status: 'in_progress' })
    const first = await client.listTasksIfChanged(project.id, null)
    expect(first).toEqual({ changed: true, tasks: await client.listTasks(project.id), etag: null })
    const again = await client.listTasksIfChanged(project.id, 'W/"stale"')
    expect(again.changed).toBe(true)
    expect(statuses).toEqual([200, 200, 200])
  })

  it('ignores a tag that could not be sent back', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', etag: `"${'x'.repeat(2000)}"` })
      res.end('[]')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())))
    const client = createServiceClient({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      apiKey: KEY
    })
    cleanups.push(() => client.close())
    expect(await client.listTasksIfChanged('p1', null)).toEqual({ changed: true, tasks: [], etag: null })
  })
})
